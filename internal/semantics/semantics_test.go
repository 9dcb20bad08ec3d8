package semantics

import (
	"testing"

	"github.com/seed-275a9bd5/robotstxt/compile"
)

// TestRFC9309_ClassifyStatus: RFC 9309 2.3.1.2-2.3.1.4 and docs/SEMANTICS.md
// 5.2, status by status; Koster1996's 401 and 403 (1996 draft 3.1).
func TestRFC9309_ClassifyStatus(t *testing.T) {
	for _, c := range []struct {
		status int
		want   StatusClass
	}{
		{200, StatusFile}, {204, StatusFile}, {299, StatusFile},
		{301, StatusRedirect}, {302, StatusRedirect}, {303, StatusRedirect}, {307, StatusRedirect}, {308, StatusRedirect},
		{300, StatusUnavailable}, {304, StatusUnavailable}, {305, StatusUnavailable}, {306, StatusUnavailable}, {399, StatusUnavailable},
		{400, StatusUnavailable}, {401, StatusUnavailable}, {403, StatusUnavailable}, {404, StatusUnavailable}, {499, StatusUnavailable},
		{429, StatusUnreachable}, {500, StatusUnreachable}, {503, StatusUnreachable}, {599, StatusUnreachable},
		{100, StatusUnreachable}, {101, StatusUnreachable}, {0, StatusUnreachable}, {99, StatusUnreachable}, {600, StatusUnreachable}, {-1, StatusUnreachable},
	} {
		for _, sem := range []compile.Semantics{compile.RFC9309, compile.Google} {
			if got := ClassifyStatus(sem, c.status); got != c.want {
				t.Errorf("%s: ClassifyStatus(%d) = %d, want %d", sem, c.status, got, c.want)
			}
		}
		want := c.want
		if c.status == 401 || c.status == 403 {
			want = StatusForbidden
		}
		if got := ClassifyStatus(compile.Koster1996, c.status); got != want {
			t.Errorf("koster1996: ClassifyStatus(%d) = %d, want %d", c.status, got, want)
		}
	}
}

// TestGoogle_IndexHTM: an allow whose last segment starts with /index.htm
// also allows its directory exactly, in Google semantics alone.
func TestGoogle_IndexHTM(t *testing.T) {
	for _, c := range []struct {
		sem     compile.Semantics
		kind    compile.RuleKind
		pattern string
		want    string
		ok      bool
	}{
		{compile.Google, compile.Allow, "/d/index.html", "/d/", true},
		{compile.Google, compile.Allow, "/index.htm", "/", true},
		{compile.Google, compile.Allow, "/d/index.htm*", "/d/", true},
		{compile.Google, compile.Allow, "/d/index.htmx/e", "", false},
		{compile.Google, compile.Allow, "/d/myindex.html", "", false},
		{compile.Google, compile.Disallow, "/d/index.html", "", false},
		{compile.RFC9309, compile.Allow, "/d/index.html", "", false},
		{compile.Koster1996, compile.Allow, "/d/index.html", "", false},
	} {
		if got, ok := IndexHTM(c.sem, c.kind, c.pattern); got != c.want || ok != c.ok {
			t.Errorf("%s %s %q: %q %v, want %q %v", c.sem, c.kind, c.pattern, got, ok, c.want, c.ok)
		}
	}
}

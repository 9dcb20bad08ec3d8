package page_test

import (
	"testing"

	"github.com/seed-275a9bd5/robotstxt/compile"
	"github.com/seed-275a9bd5/robotstxt/engine/page"
	"github.com/seed-275a9bd5/robotstxt/internal/reference"
)

// TDMRep 3.3: the file's rules are read in array order, the first whose
// location matches wins (not the longest), locations are robots.txt
// patterns matched case-sensitively.
func TestTDMRep_FileFirstMatch(t *testing.T) {
	f, err := page.ParseTDMRep([]byte(`[
  {"location": "/images/*", "tdm-reservation": 1, "tdm-policy": "https://provider.com/policies/policy.json"},
  {"location": "/*.pdf$", "tdm-reservation": 1},
  {"location": "/", "tdm-reservation": 0},
  {"location": "/never", "tdm-reservation": 2},
  {"tdm-reservation": 1}
]`))
	if err != nil {
		t.Fatal(err)
	}
	if f.Len() != 3 {
		t.Errorf("Len = %d, want 3 (two invalid rules skipped)", f.Len())
	}
	for _, tc := range []struct {
		url    string
		res    page.Reservation
		policy string
		rule   int
	}{
		{"https://example.com/images/a.png", page.TDMReserved, "https://provider.com/policies/policy.json", 1},
		{"https://example.com/images/a.pdf", page.TDMReserved, "https://provider.com/policies/policy.json", 1}, // first, not longest
		{"https://example.com/doc/a.pdf", page.TDMReserved, "", 2},
		{"https://example.com/doc/a.pdf?x", page.TDMNotReserved, "", 3},
		{"https://example.com/Images/a.png", page.TDMNotReserved, "", 3},                                         // case-sensitive
		{"https://example.com/%69mages/a.png", page.TDMReserved, "https://provider.com/policies/policy.json", 1}, // %69 is i
		{"/never", page.TDMNotReserved, "", 3},
	} {
		got := f.Rule(tc.url)
		want := page.TDM{Reservation: tc.res, Policy: tc.policy, From: page.Origin{Source: page.SourceTDMFile, Line: tc.rule}}
		if got != want {
			t.Errorf("Rule(%s) = %+v, want %+v", tc.url, got, want)
		}
	}
	none, _ := page.ParseTDMRep([]byte(`[{"location": "/a", "tdm-reservation": 1}]`))
	if got := none.Rule("/b"); got != (page.TDM{}) {
		t.Errorf("no match: %+v, want the zero TDM", got)
	}
	for _, bad := range []string{`{"location": "/", "tdm-reservation": 1}`, `nope`, ``} {
		if _, err := page.ParseTDMRep([]byte(bad)); err == nil {
			t.Errorf("ParseTDMRep(%q): no error; the file must be an array", bad)
		}
	}
}

// The file's patterns match as robots.txt patterns do: compared with the
// reference matcher.
func TestTDMRep_PatternsAsRobotsTxt(t *testing.T) {
	for _, pat := range []string{"/", "/a", "/a*", "/*b", "/a$", "/*.pdf$", "/a*b*c", "*", "/a%2fb", "/%7Ea"} {
		f, err := page.ParseTDMRep([]byte(`[{"location": "` + pat + `", "tdm-reservation": 1}]`))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{"/", "/a", "/ab", "/abc", "/xb", "/a.pdf", "/a.pdfx", "/aXbYc", "/a%2fb", "/a/b", "/~a"} {
			want := reference.Match(reference.NormalizedPattern(pat, compile.RFC9309), reference.NormalizedPath(path, compile.RFC9309))
			if got := f.Rule(path).Reservation == page.TDMReserved; got != want {
				t.Errorf("location %q, path %q: matched %v, want %v", pat, path, got, want)
			}
		}
	}
}

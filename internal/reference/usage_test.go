package reference

import (
	"reflect"
	"testing"

	"github.com/seed-275a9bd5/robotstxt/compile"
)

// The reference's usage preferences on their own (the conformance table
// and the differential tests compare them with the engine's): its RFC 9651
// Dictionary parser, the split of a content-usage value, its reading of
// content-usage lines into groups, and UsageOf.

// TestAIPref_SFDictionary_RFC9651Examples parses the Dictionary examples
// of RFC 9651 section 3.2 and one member of each bare item type of
// sections 3.3.1-3.3.8 (draft-ietf-aipref-vocab-08 section 6.5 parses a
// statement with RFC 9651's section 4.2.2).
func TestAIPref_SFDictionary_RFC9651Examples(t *testing.T) {
	tok := func(s string) sfBare { return sfBare{kind: sfToken, text: s} }
	integer := func(n int64) sfBare { return sfBare{kind: sfInteger, integer: n} }
	item := func(b sfBare, ps ...sfParam) sfMember { return sfMember{item: sfItem{bare: b, params: ps}} }
	yes := sfBare{kind: sfBoolean, boolean: true}
	tests := []struct {
		in   string
		want sfDictionary
	}{
		{`en="Applepie", da=:w4ZibGV0w6ZydGU=:`, sfDictionary{
			{"en", item(sfBare{kind: sfString, text: "Applepie"})},
			{"da", item(sfBare{kind: sfBytes, bytes: []byte("\xc3\x86blet\xc3\xa6rte")})},
		}},
		{`a=?0, b, c; foo=bar`, sfDictionary{
			{"a", item(sfBare{kind: sfBoolean})},
			{"b", item(yes)},
			{"c", item(yes, sfParam{"foo", tok("bar")})},
		}},
		{`rating=1.5, feelings=(joy sadness)`, sfDictionary{
			{"rating", item(sfBare{kind: sfDecimal, decimal: 1.5})},
			{"feelings", sfMember{inner: true, list: []sfItem{{bare: tok("joy")}, {bare: tok("sadness")}}}},
		}},
		{`a=(1 2), b=3, c=4;aa=bb, d=(5 6);valid`, sfDictionary{
			{"a", sfMember{inner: true, list: []sfItem{{bare: integer(1)}, {bare: integer(2)}}}},
			{"b", item(integer(3))},
			{"c", item(integer(4), sfParam{"aa", tok("bb")})},
			{"d", sfMember{inner: true, list: []sfItem{{bare: integer(5)}, {bare: integer(6)}}, params: []sfParam{{"valid", yes}}}},
		}},
		{`i=-42, d=4.5, s="hello \"world\"", t=foo123/456, b=:cHJldGVuZA==:, y=?1, at=@1659578233, ds=%"%c3%bcsers"`, sfDictionary{
			{"i", item(integer(-42))},
			{"d", item(sfBare{kind: sfDecimal, decimal: 4.5})},
			{"s", item(sfBare{kind: sfString, text: `hello "world"`})},
			{"t", item(tok("foo123/456"))},
			{"b", item(sfBare{kind: sfBytes, bytes: []byte("pretend")})},
			{"y", item(yes)},
			{"at", item(sfBare{kind: sfDate, integer: 1659578233})},
			{"ds", item(sfBare{kind: sfDisplayString, text: "\u00fcsers"})},
		}},
	}
	for _, tt := range tests {
		got, ok := parseDictionaryField(tt.in)
		if !ok || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: got %+v (ok %v), want %+v", tt.in, got, ok, tt.want)
		}
	}
}

// TestAIPref_SFDictionary_Syntax: what RFC 9651 section 4.2 accepts and
// rejects around a Dictionary's members (sections 4.2.2, 4.2.3.2,
// 4.2.3.3): SP around the field, OWS around commas, keys, repeated keys
// and parameters keeping their first place and last value.
func TestAIPref_SFDictionary_Syntax(t *testing.T) {
	ok := []struct {
		in   string
		keys []string
	}{
		{"", nil},
		{"   ", nil},
		{" a=1 ", []string{"a"}},
		{"a=1 ,\t b=2", []string{"a", "b"}},
		{"*a=*b, a.b_c-d*9=x", []string{"*a", "a.b_c-d*9"}},
		{"a=1, b=2, a=3", []string{"a", "b"}},
		{"a=(), b=(  1   2 );x", []string{"a", "b"}},
		{"a;p;q=1;p=2", []string{"a"}},
	}
	for _, tt := range ok {
		d, parsed := parseDictionaryField(tt.in)
		var keys []string
		for _, e := range d {
			keys = append(keys, e.key)
		}
		if !parsed || !reflect.DeepEqual(keys, tt.keys) {
			t.Errorf("%q: keys %q (ok %v), want %q", tt.in, keys, parsed, tt.keys)
		}
	}
	if d, _ := parseDictionaryField("a=1, b=2, a=3"); d[0].value.item.bare.integer != 3 {
		t.Errorf("a repeated key keeps its last value: %+v", d)
	}
	if d, _ := parseDictionaryField("a;p;q=1;p=2"); !reflect.DeepEqual(d[0].value.item.params,
		[]sfParam{{"p", sfBare{kind: sfInteger, integer: 2}}, {"q", sfBare{kind: sfInteger, integer: 1}}}) {
		t.Errorf("a repeated parameter keeps its last value: %+v", d[0].value.item.params)
	}
	fail := []string{
		"\ta=1",              // only SP is discarded around the field
		"a=1,",               // trailing comma
		"a=1,,b=2",           // empty member
		"a=1 b=2",            // no comma
		"A=1",                // keys are lower case
		"train-AI=y",         // ... all of them
		"1a=1",               // a key starts with lcalpha or '*'
		"a=",                 // no value
		"a=1;P=2",            // parameter keys too
		"a=1; =2",            // no parameter key
		"a=(1",               // inner list not closed
		"a=(1,2)",            // items of an inner list are SP-separated
		`a="x`,               // string not closed
		`a="\x"`,             // only \" and \\ are escapes
		"a=\"\x7f\"",         // strings are printable ASCII
		"a=\"\u00e9\"",       // input must be ASCII
		"a=-",                // no digit
		"a=1.",               // a decimal needs a fraction digit
		"a=1.2345",           // at most three
		"a=1234567890123.1",  // at most twelve integer digits
		"a=1234567890123456", // at most fifteen digits
		"a=:YQ:",             // padding required (see sfv.go)
		"a=:Y!==:",           // not base64
		"a=:YQ==",            // not closed
		"a=?2",               // booleans are ?0 and ?1
		"a=@1.5",             // dates are integers
		`a=%"%C3%A9"`,        // display strings use lower-case hex
		`a=%"%ff"`,           // and must be UTF-8
		`a=%"x`,              // not closed
		"a=&",                // no bare item starts with '&'
	}
	for _, in := range fail {
		if d, parsed := parseDictionaryField(in); parsed {
			t.Errorf("%q parsed as %+v, want a failure", in, d)
		}
	}
}

// TestAIPref_StatementPreference: draft-ietf-aipref-vocab-08 section 6.5
// (the Token y or n, anything else unknown, parsing failures unknown) and
// its examples in 6 (exemplary format), 6.5.1 and 6.5.2.
func TestAIPref_StatementPreference(t *testing.T) {
	tests := []struct {
		statement, trainAI, search string
	}{
		{"train-ai=y, search=n", "y", "n"},                                   // section 6
		{`train-ai=y, train-ai, search=n, search="n"`, "unknown", "unknown"}, // 6.5.1
		{"train-ai;allow=n, train-ai=y", "y", "unknown"},                     // 6.5.2
		{`train-ai;has;parameters="?";`, "unknown", "unknown"},               // 6.5.2 (a trailing ';' fails)
		{`train-ai;has;parameters="?"`, "unknown", "unknown"},
		{"train-ai=n;x=1, search=y;a;b", "n", "y"},
		{"search=(y), train-ai=?1", "unknown", "unknown"},
		{"train-ai=Y, search=yes", "unknown", "unknown"},
		{"Train-ai=n, search=n", "unknown", "unknown"}, // 6.5.1: upper case fails the parse
		{"foo=bar, search=n", "unknown", "n"},          // 6.4: unknown labels ignored
		{"", "unknown", "unknown"},
	}
	for _, tt := range tests {
		if got := StatementPreference(tt.statement, CategoryTrainAI); got != tt.trainAI {
			t.Errorf("%q: train-ai %s, want %s", tt.statement, got, tt.trainAI)
		}
		if got := StatementPreference(tt.statement, CategorySearch); got != tt.search {
			t.Errorf("%q: search %s, want %s", tt.statement, got, tt.search)
		}
	}
}

// TestAIPref_UsageValueSplit: draft-ietf-aipref-attach-05 section 3.2: a
// value starting with '/' has a path up to the first SP or HTAB, the rest
// (after that white space, the ABNF's 1*WS) is the statement; any other
// value is all statement.
func TestAIPref_UsageValueSplit(t *testing.T) {
	tests := []struct{ value, path, statement string }{
		{"train-ai=n", "", "train-ai=n"},
		{"/a train-ai=n", "/a", "train-ai=n"},
		{"/a\t \ttrain-ai=n, search=y", "/a", "train-ai=n, search=y"},
		{"/a", "/a", ""},
		{"/", "/", ""},
		{"*/a train-ai=n", "", "*/a train-ai=n"},
		{"", "", ""},
	}
	for _, tt := range tests {
		if p, s := UsagePathOf(tt.value), UsageStatementOf(tt.value); p != tt.path || s != tt.statement {
			t.Errorf("%q: path %q statement %q, want %q %q", tt.value, p, s, tt.path, tt.statement)
		}
	}
}

// TestAIPref_ParseUsageLines: the reference's parser keeps content-usage
// lines per group; in RFC9309 one ends the user-agent lines like a rule
// (draft-ietf-aipref-attach-05 section 3 extends RFC 9309's rule), in
// Google and Koster1996 it does not; one outside every group is dropped;
// a Koster1996 record with one and no rule is kept at a blank line.
func TestAIPref_ParseUsageLines(t *testing.T) {
	body := []byte("Content-Usage: search=n\nUser-agent: a\nContent-Usage: train-ai=n\nUser-agent: b\n\nContent-Usage: /x train-ai=y # c\n")
	groups := func(sem compile.Semantics) [][]int {
		var out [][]int
		for _, g := range Parse(body, sem).Groups {
			var lines []int
			for _, a := range g.Agents {
				lines = append(lines, a.Line)
			}
			for _, u := range g.Usages {
				lines = append(lines, -u.Line)
			}
			out = append(out, lines)
		}
		return out
	}
	// Agent lines as themselves, content-usage lines negated.
	want := map[compile.Semantics][][]int{
		compile.RFC9309:    {{2, -3}, {4, -6}},
		compile.Google:     {{2, 4, -3, -6}},
		compile.Koster1996: {{2, 4, -3}},
	}
	for sem, w := range want {
		if got := groups(sem); !reflect.DeepEqual(got, w) {
			t.Errorf("%s: groups %v, want %v", sem, got, w)
		}
	}
	if v := Parse(body, compile.RFC9309).Groups[1].Usages[0].Value; v != "/x train-ai=y" {
		t.Errorf("value %q: want the comment and the white space before it cut", v)
	}
}

// TestAIPref_UsageOf: any Dictionary key is decided as the vocabulary's
// are (draft-ietf-aipref-vocab-08 section 4.3, vocabulary extensions);
// "-" for a disallowed URL (draft-ietf-aipref-attach-05 section 3.1).
func TestAIPref_UsageOf(t *testing.T) {
	f := Parse([]byte("User-agent: *\nDisallow: /private\nContent-Usage: train-genai=n, train-ai=y\nContent-Usage: /p train-genai=y\nContent-Usage: /p train-genai=n;x\n"), compile.RFC9309)
	tests := []struct {
		url, key, want string
		line           int
	}{
		{"/a", "train-genai", "n", 3},
		{"/a", "train-ai", "y", 3},
		{"/a", "Train-genai", "unknown", 3},
		{"/p", "train-genai", "n", 5},
		{"/p", "train-ai", "unknown", 4},
		{"/private", "train-genai", "-", 0},
	}
	for _, tt := range tests {
		if got, line := UsageOf(f, []string{"bot"}, tt.url, tt.key); got != tt.want || line != tt.line {
			t.Errorf("%s %s: %s line %d, want %s line %d", tt.url, tt.key, got, line, tt.want, tt.line)
		}
	}
	if u := UsageFile(f, []string{"bot"}, "/private/x"); u.String() != "-" || u.Applicable {
		t.Errorf("disallowed: %+v, want not applicable", u)
	}
}

package fuzz

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/seed-275a9bd5/robotstxt/compile"
	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/internal/corpus"
	"github.com/seed-275a9bd5/robotstxt/internal/reference"
)

// FuzzStatement compares what the engine and the reference read in one
// statement of preference (draft-ietf-aipref-vocab-08 section 6.5): the
// engine parses it with its Structured Fields library, the reference with
// its own RFC 9651 Dictionary parser, so that a difference between the
// two parsers shows here by itself rather than through a robots.txt. The
// key is the fuzzed key and each of the vocabulary's.
func FuzzStatement(f *testing.F) {
	for _, s := range statementAtoms {
		f.Add(s, "train-ai")
	}
	f.Add(`en="Applepie", da=:w4ZibGV0w6ZydGU=:, train-ai=n`, "da")
	f.Add(`a=(1 2), b=3, c=4;aa=bb, d=(5 6);valid, search=y`, "d")
	f.Add(`train-ai=y, x=@1659578233, ds=%"%c3%bcsers", r=1.5`, "x")
	f.Add(`train-ai;allow=n, train-ai=y`, "allow")
	f.Fuzz(func(t *testing.T, statement, key string) {
		if len(statement) > 1024 || len(key) > 64 {
			return
		}
		for _, k := range []string{key, engine.CategoryTrainAI, engine.CategorySearch} {
			got, want := engine.StatementPreference(k, statement).String(), reference.StatementPreference(statement, k)
			if got != want {
				t.Errorf("statement %q key %q: engine %s, reference %s", statement, k, got, want)
			}
		}
	})
}

// TestStatement_Atoms is FuzzStatement on every pair and triple of
// statementAtoms joined with ", " and without.
func TestStatement_Atoms(t *testing.T) {
	n := 0
	for _, a := range statementAtoms {
		for _, b := range statementAtoms {
			for _, sep := range []string{", ", ""} {
				for _, c := range []string{"", ", search=n", ";p=1, train-ai=y"} {
					s := a + sep + b + c
					for _, k := range []string{engine.CategoryTrainAI, engine.CategorySearch, extensionKey, "a", "*x"} {
						n++
						got, want := engine.StatementPreference(k, s).String(), reference.StatementPreference(s, k)
						if got != want {
							t.Fatalf("statement %q key %q: engine %s, reference %s", s, k, got, want)
						}
					}
				}
			}
		}
	}
	t.Logf("%d statements and keys compared", n)
}

// usageStatements are the statements withUsageLines writes, in turn.
var usageStatements = []string{
	"train-ai=n", "train-ai=y, search=n", "search=y", "train-ai=n;x=1, train-genai=y",
	"Train-AI=y", "", "train-genai=n, search=(n)",
}

// withUsageLines returns body with a content-usage line after every
// allow and disallow line, whose path is the rule's value and whose
// statement is the next of usageStatements, and a line with no path after
// every fifth: real files' patterns and groups, with usage rules. It adds
// lines only after rules, so no group changes in any semantics.
func withUsageLines(body []byte) []byte {
	var b strings.Builder
	k := 0
	for _, line := range strings.SplitAfter(string(body), "\n") {
		b.WriteString(line)
		key, value, ok := strings.Cut(line, ":")
		key = strings.ToLower(strings.TrimSpace(key))
		if !ok || key != "allow" && key != "disallow" {
			continue
		}
		if !strings.HasSuffix(line, "\n") {
			b.WriteString("\n")
		}
		value, _, _ = strings.Cut(value, "#")
		value = strings.TrimSpace(value)
		fmt.Fprintf(&b, "Content-Usage: %s %s\n", value, usageStatements[k%len(usageStatements)])
		if k%5 == 0 {
			fmt.Fprintf(&b, "Content-Usage: %s\n", usageStatements[(k+1)%len(usageStatements)])
		}
		k++
	}
	return []byte(b.String())
}

// TestDifferential_CorpusUsage is TestDifferential_Corpus on every 16th
// corpus file with content-usage lines added (withUsageLines): the usage
// preferences of real files' patterns, compared in all semantics and for
// every engine, a file per core at a time.
func TestDifferential_CorpusUsage(t *testing.T) {
	var files []corpus.File
	for i, cf := range corpus.TestFiles(t, 320) {
		if i%16 == 0 {
			files = append(files, cf)
		}
	}
	n, decisions := diffCorpus(t, files, " with content-usage lines", withUsageLines)
	t.Logf("%d files, %d decisions compared", n, decisions)
}

// TestDifferential_UsageManyKeys asks UsageOf for more extension keys
// than a matcher keeps automata for, each twice, and Usage, whose first
// call builds the vocabulary's automata, from several goroutines at once,
// of every engine, and compares each answer with the reference's.
func TestDifferential_UsageManyKeys(t *testing.T) {
	var body strings.Builder
	body.WriteString("User-agent: *\nDisallow: /private\n")
	const keys = 12
	for i := range keys {
		fmt.Fprintf(&body, "Content-Usage: /p%d k%d=n, k%d=y\n", i%3, i, (i+1)%keys)
		fmt.Fprintf(&body, "Content-Usage: /p%d/*.html k%d=y, k%d=n\n", i%4, i, (i+2)%keys)
	}
	body.WriteString("Content-Usage: k0=y, k5=n, k11=(y), train-ai=n\n")
	body.WriteString("Content-Usage: /p1 train-ai=y, search=n\n")
	urls := []string{"/", "/p0", "/p1/a.html", "/p2/x", "/p3/b.html?q", "/private/p0"}
	for _, sem := range []compile.Semantics{compile.RFC9309, compile.Google, compile.Koster1996} {
		ref := reference.Parse([]byte(body.String()), sem)
		for _, o := range []engine.Options{{}, {WarmUp: -1}, {CacheBytes: -1}, {WarmUp: -1, CacheBytes: -1}} {
			o.Semantics = sem
			m := engine.Compile([]byte(body.String()), o).Matcher("bot")
			var wg sync.WaitGroup
			for g := range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for round := range 2 {
						for _, u := range urls {
							if got, want := m.Usage(u).String(), reference.UsageFile(ref, []string{"bot"}, u).String(); got != want {
								t.Errorf("%s %+v round %d: Usage(%q) = %s, reference %s", sem, o, round, u, got, want)
							}
						}
						for i := range keys {
							key := fmt.Sprintf("k%d", (i+g)%keys)
							for _, u := range urls {
								p, line := m.UsageOf(u, key)
								wp, wline := reference.UsageOf(ref, []string{"bot"}, u, key)
								if p.String() != wp || line != wline {
									t.Errorf("%s %+v round %d: UsageOf(%q, %q) = %s line %d, reference %s line %d",
										sem, o, round, u, key, p, line, wp, wline)
								}
							}
						}
					}
				}()
			}
			wg.Wait()
		}
	}
}

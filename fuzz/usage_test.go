package fuzz

import (
	"testing"

	"github.com/seed-275a9bd5/robotstxt/engine"
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

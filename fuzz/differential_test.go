package fuzz

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/seed-275a9bd5/robotstxt/compile"
	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/internal/corpus"
	"github.com/seed-275a9bd5/robotstxt/internal/reference"
)

// agentSets are the crawlers the differential tests decide for.
var agentSets = [][]string{
	{"Googlebot"},
	{"Googlebot-Image", "Googlebot"},
	{"bingbot"},
	{"Unknown-Crawler"},
}

// firstDecisions is the number of a file's URLs that are also decided,
// each, by a fresh matcher (its first decision tries its rules in turn;
// the matchers of diffFile decide their first URL that way, and the rest
// with their automaton).
const firstDecisions = 8

// referenceBudget bounds the reference matcher's work per corpus file (rules
// times URLs), so that the differential test over the whole corpus stays
// within a CI minute or two; small files get every URL up to maxURLsPerFile.
// ROBOTSTXT_DIFF=full raises both (the full run compares about 6.7 million
// decisions and takes minutes).
var referenceBudget, maxURLsPerFile = 15000, 60

func init() {
	if os.Getenv("ROBOTSTXT_DIFF") == "full" {
		referenceBudget, maxURLsPerFile = 60000, 200
	}
}

// diffFile compares engine and reference on one body; it returns the number
// of decisions compared and reports disagreements with a reproducer. It
// decides for every set of agentSets, then for each set of extra, then for
// the last name a user-agent line of the file gives, upper-cased (a specific
// group that agentSets may not name, matched ignoring case). Every URL is
// decided by each engine of the automaton: by a matcher with the default
// options, whose linear engine tries its rules on its first URLs (every
// URL here but the first, which it decides by trying its rules without
// their automaton), by one that starts its DFA at once (WarmUp < 0), by one that
// builds no DFA (CacheBytes < 0: the linear engine, and its piece matcher
// where the tries would cost too much), and by one that does neither (both
// < 0: the piece matcher decides every URL). Each matcher's usage
// preferences of every URL are compared too (diffUsage) when the file has
// content-usage lines.
func diffFile(t *testing.T, name string, body []byte, realURLs []string, sems []compile.Semantics, extra ...[]string) int {
	n := 0
	for _, sem := range sems {
		r := engine.Compile(body, engine.Options{Semantics: sem})
		rd := engine.Compile(body, engine.Options{Semantics: sem, WarmUp: -1})
		rl := engine.Compile(body, engine.Options{Semantics: sem, CacheBytes: -1})
		rp := engine.Compile(body, engine.Options{Semantics: sem, WarmUp: -1, CacheBytes: -1})
		f := r.File()
		sets := append(append([][]string(nil), agentSets...), extra...)
		if a := lastAgentName(f); a != "" {
			sets = append(sets, []string{strings.ToUpper(a)})
		}
		rules := f.Usages().Len()
		for _, g := range f.Groups {
			rules += g.Rules.Len()
		}
		limit := referenceBudget / (rules + 1)
		limit = max(10, min(limit, maxURLsPerFile))
		urls := append([]string{"/", "/robots.txt", "/index.html"}, reference.URLsFromPatterns(f, 3)...)
		if len(urls) > limit {
			urls = urls[:limit]
		}
		for i, u := range realURLs {
			if i >= limit {
				break
			}
			urls = append(urls, u)
		}
		ref := reference.Parse(body, f.Semantics)
		// Usage is compared where either parser found content-usage
		// lines: elsewhere every answer is unknown or "-" by the
		// decision, which the Go tests check, and comparing would double
		// the corpus's time.
		withUsage := hasUsage(f, ref)
		for _, agents := range sets {
			mf := engine.CompileFor(body, engine.Options{Semantics: sem}, agents...)
			if d := diffMatchers(r.Matcher(agents...), mf); d != "" {
				t.Errorf("%s: CompileFor and Compile(...).Matcher differ (%s, %q): %s\n%s", name, sem, agents, d, reference.Reproducer(body, agents, "/", sem))
				return n
			}
			ms := []*engine.Matcher{r.Matcher(agents...), rd.Matcher(agents...), rl.Matcher(agents...), rp.Matcher(agents...), mf}
			for j, u := range urls {
				want := reference.DecideFile(ref, agents, u)
				headers := j%4 == 0 // combining with headers is compared for a URL in four
				var wantUsage usageWant
				if withUsage {
					wantUsage = referenceUsage(ref, agents, u, want, headers)
				}
				ms := ms
				if j < firstDecisions {
					// A fresh matcher, whose first decision this is: its
					// rules tried in turn, without their automaton.
					ms = append(ms[:len(ms):len(ms)], engine.CompileFor(body, engine.Options{Semantics: sem}, agents...))
				}
				for k, m := range ms {
					by := [...]string{"default", "DFA", "linear", "pieces", "CompileFor", "first decision"}[k]
					got := m.Decide(u)
					n++
					if a := m.Allowed(u); a != want.Allowed {
						t.Errorf("%s: Allowed(%q) = %v (%s, %q, %s), reference %v\n%s", name, u, a, sem, agents, by, want.Allowed, reference.Reproducer(body, agents, u, sem))
						return n
					}
					if got.Allowed != want.Allowed || got.Rule.Line != want.Line {
						t.Errorf("%s: engine (%s) and reference disagree (%s, %q, %q): engine allowed=%v line=%d (%s %q), reference allowed=%v line=%d (%s %q)\n%s",
							name, by, sem, agents, u, got.Allowed, got.Rule.Line, got.Reason, got.Rule.Pattern, want.Allowed, want.Line, want.Reason, want.Pattern, reference.Reproducer(body, agents, u, sem))
						return n
					}
					if !withUsage {
						continue
					}
					if d := diffUsage(m, u, wantUsage, headers && k == 0); d != "" {
						t.Errorf("%s: engine (%s) and reference disagree on usage (%s, %q, %q): %s\n%s",
							name, by, sem, agents, u, d, reference.Reproducer(body, agents, u, sem))
						return n
					}
				}
			}
		}
	}
	return n
}

// diffMatchers says how a matcher of CompileFor differs from the one
// Compile(...).Matcher gives for the same agents in what it reports
// beside decisions: its tokens, selection (group indexes in the whole
// file, rules and extensions), rules in priority order and content-usage
// lines; "" when it does not.
func diffMatchers(want, got *engine.Matcher) string {
	ws, gs := want.Selection(), got.Selection()
	switch {
	case fmt.Sprint(want.Tokens()) != fmt.Sprint(got.Tokens()):
		return fmt.Sprintf("tokens %q, want %q", got.Tokens(), want.Tokens())
	case ws.Match != gs.Match || fmt.Sprint(ws.Groups) != fmt.Sprint(gs.Groups):
		return fmt.Sprintf("selection %s %v, want %s %v", gs.Match, gs.Groups, ws.Match, ws.Groups)
	case !ws.Rules.Equal(gs.Rules) || !ws.Extensions.Equal(gs.Extensions):
		return fmt.Sprintf("selected rules %v extensions %v, want %v %v", gs.Rules.Slice(), gs.Extensions.Slice(), ws.Rules.Slice(), ws.Extensions.Slice())
	case fmt.Sprint(want.Rules()) != fmt.Sprint(got.Rules()):
		return fmt.Sprintf("rules %v, want %v", got.Rules(), want.Rules())
	case fmt.Sprint(want.UsageRules()) != fmt.Sprint(got.UsageRules()):
		return fmt.Sprintf("usage rules %v, want %v", got.UsageRules(), want.UsageRules())
	}
	return ""
}

// hasUsage reports whether f or ref, one body parsed by both parsers,
// has a content-usage line in some group.
func hasUsage(f *compile.File, ref *reference.File) bool {
	if f.Usages().Len() > 0 {
		return true
	}
	for _, g := range ref.Groups {
		if len(g.Usages) > 0 {
			return true
		}
	}
	return false
}

// extensionKey is the extension category (a Dictionary key outside the
// vocabulary) whose preferences the differential tests compare through
// Matcher.UsageOf.
const extensionKey = "train-genai"

// usageKeys are the keys whose preferences the differential tests ask
// with Matcher.UsageOf: an extension category and one of the vocabulary's.
var usageKeys = [...]string{extensionKey, engine.CategorySearch}

// usageWant is the reference's usage answers for one URL.
type usageWant struct {
	path  string // the URL's path as the reference extracts it
	usage reference.UsageResult
	// withHeaders are usage combined with each of usageHeaders.
	withHeaders [len(usageHeaders)]string
	keys        [len(usageKeys)]struct {
		pref string
		line int
	}
}

// referenceUsage returns the reference's usage answers for url, whose
// decision d the reference gave; withHeaders only when headers is true.
func referenceUsage(ref *reference.File, agents []string, url string, d reference.Result, headers bool) usageWant {
	w := usageWant{path: reference.ExtractPath(url, ref.Semantics), usage: reference.UsageDecided(ref, agents, url, d)}
	for i, key := range usageKeys {
		w.keys[i].pref, w.keys[i].line = reference.UsageOfDecided(ref, agents, url, key, d)
	}
	if headers {
		for i, h := range usageHeaders {
			w.withHeaders[i] = w.usage.WithHeader(h...).String()
		}
	}
	return w
}

// usageHeaders are Content-Usage response headers (their field lines)
// that the differential tests combine with the file's usage preferences.
var usageHeaders = [...][]string{{"train-ai=n"}, {"search=y, train-ai=y"}, {"train-ai=n", "train-ai=y"}, {"Search=n"}}

// diffUsage compares the usage preferences m gives url with the
// reference's: for the vocabulary (Usage, and UsagePath on the path the
// reference extracts: the preferences and the lines that decided; with
// headers, Usage combined with each of usageHeaders, which no engine
// option changes) and for usageKeys (UsageOf). It returns "" when they
// agree, else what differs.
func diffUsage(m *engine.Matcher, url string, want usageWant, headers bool) string {
	w := want.usage
	got := m.Usage(url)
	for _, got := range []engine.Usage{got, m.UsagePath(want.path)} {
		if got.String() != w.String() || got.TrainAILine != w.TrainAILine || got.SearchLine != w.SearchLine {
			return fmt.Sprintf("engine %q lines %d %d, reference %q lines %d %d (Usage, then UsagePath(%q))",
				got, got.TrainAILine, got.SearchLine, w, w.TrainAILine, w.SearchLine, want.path)
		}
	}
	if headers {
		for i, h := range usageHeaders {
			if g := got.WithHeader(h...).String(); g != want.withHeaders[i] {
				return fmt.Sprintf("with the header %q: engine %q, reference %q", h, g, want.withHeaders[i])
			}
		}
	}
	for i, key := range usageKeys {
		p, line := m.UsageOf(url, key)
		if wk := want.keys[i]; p.String() != wk.pref || line != wk.line {
			return fmt.Sprintf("UsageOf %q: engine %s line %d, reference %s line %d", key, p, line, wk.pref, wk.line)
		}
	}
	return ""
}

// lastAgentName returns the last product token a user-agent line of f
// names, or "" when there is none.
func lastAgentName(f *compile.File) string {
	last := ""
	for _, g := range f.Groups {
		for _, a := range g.Agents.Slice() {
			if name := reference.AgentName(a.Value); name != "" && name != "*" {
				last = name
			}
		}
	}
	return last
}

// TestDifferential_Corpus compares the engine with the reference matcher on
// every corpus file (the directory $ROBOTSTXT_CORPUS names), with the real
// URLs of its host and URLs made from its own patterns, in all semantics and
// for several crawlers. It skips when the corpus is absent.
func TestDifferential_Corpus(t *testing.T) {
	files := corpus.TestFiles(t, 150)
	n, decisions := diffCorpus(t, files, "", func(body []byte) []byte { return body })
	t.Logf("%d files, %d decisions compared", n, decisions)
}

// diffCorpus runs diffFile on each of files, its body made by edit and
// its name followed by what, in all semantics, a file per core at a time,
// until a test fails. It returns the files and the decisions compared.
func diffCorpus(t *testing.T, files []corpus.File, what string, edit func([]byte) []byte) (n, decisions int64) {
	var nFiles, nDecisions atomic.Int64
	var wg sync.WaitGroup
	work := make(chan corpus.File)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for cf := range work {
				body, urls, err := cf.Read()
				if err != nil {
					t.Error(err)
					continue
				}
				nFiles.Add(1)
				nDecisions.Add(int64(diffFile(t, cf.Name+what, edit(body), urls,
					[]compile.Semantics{compile.RFC9309, compile.Google, compile.Koster1996})))
			}
		}()
	}
	for _, cf := range files {
		if t.Failed() {
			break
		}
		work <- cf
	}
	close(work)
	wg.Wait()
	return nFiles.Load(), nDecisions.Load()
}

// FuzzEngine compares the engine with the reference matcher on generated
// robots bodies, URLs and agent tokens: it decides for the fuzzed agent
// (alone, and after "Googlebot" so that merging is exercised) and for every
// set of agentSets. Seeded from the conformance table.
func FuzzEngine(f *testing.F) {
	cases, err := reference.LoadConformance("../testdata/conformance.json")
	if err != nil {
		f.Fatal(err)
	}
	for i, c := range cases {
		f.Add(c.Body(), c.URL, uint8(i%3), c.Agents[0])
	}
	f.Add([]byte("User-agent: *\nDisallow: /*a*a*a*a$\nAllow: /a\n"), "/aaaa", uint8(0), "bot")
	f.Add([]byte("User-agent: FooBot/1.0\nDisallow: /%7efoo\n\nuser-agent: *\nAllow: /\n"), "http://x.com/~foo", uint8(0), "foobot")
	// An agent that is no product token: read as a header in RFC9309 and
	// Koster1996, as given in Google (docs/SEMANTICS.md section 2.3).
	f.Add([]byte("User-agent: FooBot\nDisallow: /x\n\nUser-agent: *\nDisallow: /y\n"), "/x", uint8(0), "Mozilla/5.0 (compatible; FooBot/1.0)")
	f.Add([]byte("User-agent: FooBot\nDisallow: /x\n\nUser-agent: *\nDisallow: /y\n"), "/x", uint8(1), "FooBot/1.0")
	// Content-Usage lines (docs/SEMANTICS.md section 7).
	for _, s := range usageSeeds {
		for sem := range uint8(3) {
			f.Add([]byte(s.body), s.url, sem, s.agent)
		}
	}
	f.Fuzz(func(t *testing.T, body []byte, url string, sem uint8, agent string) {
		if len(body) > 4096 || len(url) > 512 || len(agent) > 64 {
			return
		}
		s := compile.Semantics(sem % 3)
		if n := diffFile(t, "fuzz", body, []string{url}, []compile.Semantics{s}, []string{agent}, []string{"Googlebot", agent}); n == 0 {
			t.Fatal("nothing compared")
		}
	})
}

// usageSeeds are FuzzEngine's seeds with content-usage lines: the attach
// draft's example, ties of one length, wildcards, escapes, an absent path,
// statements that are no Dictionary, an extension key, and groups that a
// content-usage line ends in RFC9309 alone.
var usageSeeds = []struct{ body, url, agent string }{
	{"User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n\nUser-Agent: ExampleBot\nAllow: /\nContent-Usage: train-ai=y\n", "/ai-ok/x", "bot"},
	{"User-agent: *\nContent-Usage: /a train-ai=y, search=n\nContent-Usage: /a train-ai=n\nContent-Usage: /b search=y\n", "/a/b", "bot"},
	{"User-agent: *\nContent-Usage: /*.pdf$ train-ai=n;p=1\nContent-Usage: /%7Ea train-ai=y\ncontent-usage /x train-genai=n\n", "/~a.pdf", "bot"},
	{"User-agent: a\nContent-Usage: train-ai=Y, search=(n)\nUser-agent: b\nDisallow: /d\nContent-Usage: /d search=y # c\n", "/d", "b"},
	{"User-agent: *\nContent-Usage: /p Train-AI=n\nContent-Usage: train-ai=n, train-ai=y, search=\"n\", train-genai=y\n\nUser-agent: x\nContent-Usage: search=n\n", "/p?q", "x"},
	{"Content-Usage: train-ai=n\nUser-agent: *\n\nContent-Usage: /a\ttrain-ai=n\nAllow: /a$\nContent-Usage: /a$ train-ai=y, x=:YQ==:, d=@1, s=%\"%c3%a9\", t=?1, f=1.5\n", "/a", "bot"},
}

package engine_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/seed-275a9bd5/robotstxt/engine"
	"github.com/seed-275a9bd5/robotstxt/internal/race"
)

// Cloudflare's managed robots.txt prepends its own "*" group to the
// site's: RFC 9309 merges the two, and repeated keys combine most
// restrictively (docs/SEMANTICS.md section 8).
const signalsRobots = `User-Agent: *
Content-Signal: search=yes,ai-train=no,use=reference
Allow: /

User-agent: *
Content-signal: AI-Train=yes, ai-input=No, use=full
Content-Signal: search=yes, use=immediate, ai-train=disallow
Content-Signal: ai-input=yes,
Disallow: /private

User-agent: Specific
Content-Signal: search=no
Disallow: /x
`

func TestContentSignal_Signals(t *testing.T) {
	r := engine.Compile([]byte(signalsRobots), engine.Options{})
	for _, tc := range []struct {
		agent string
		want  engine.Signals
	}{
		{"AnyBot", engine.Signals{
			Search: engine.UsageAllowed, SearchLine: 2,
			AIInput: engine.UsageDisallowed, AIInputLine: 6, // line 8's trailing comma makes it invalid
			AITrain: engine.UsageDisallowed, AITrainLine: 2,
			Use: engine.UseImmediate, UseLine: 7,
		}},
		// A group of its own: the "*" groups' signals do not apply.
		{"Specific", engine.Signals{Search: engine.UsageDisallowed, SearchLine: 12}},
	} {
		m := r.Matcher(tc.agent)
		if diff := cmp.Diff(tc.want, m.Signals()); diff != "" {
			t.Errorf("%s: Matcher.Signals (-want +got):\n%s", tc.agent, diff)
		}
		if diff := cmp.Diff(tc.want, m.Extensions().Signals()); diff != "" {
			t.Errorf("%s: Extensions.Signals (-want +got):\n%s", tc.agent, diff)
		}
	}
}

func TestContentSignal_NeverDecides(t *testing.T) {
	with := engine.Compile([]byte(signalsRobots), engine.Options{})
	without := engine.Compile([]byte("User-Agent: *\nAllow: /\n\nUser-agent: *\nDisallow: /private\n\nUser-agent: Specific\nDisallow: /x\n"), engine.Options{})
	for _, agent := range []string{"AnyBot", "Specific"} {
		for _, u := range []string{"/", "/private", "/x", "/public"} {
			if a, b := with.Matcher(agent).Decide(u).Allowed, without.Matcher(agent).Decide(u).Allowed; a != b {
				t.Errorf("%s %s: allowed %v with content signals, %v without", agent, u, a, b)
			}
		}
	}
}

func TestContentSignal_SignalsAllocatesNothing(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector allocates")
	}
	m := engine.Compile([]byte(signalsRobots), engine.Options{}).Matcher("AnyBot")
	if n := testing.AllocsPerRun(100, func() { _ = m.Signals() }); n != 0 {
		t.Errorf("Matcher.Signals allocates %v times, want 0", n)
	}
}

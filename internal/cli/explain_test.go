package cli

import (
	"strings"
	"testing"
)

func TestExplain(t *testing.T) {
	status, out, errs := cli(t, "", "explain", "--robots", exampleRobots, "--agent", "ExampleBot",
		"https://www.example.com/drafts/published/x", "/private/x")
	if status != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q", status, errs)
	}
	want := `url:       https://www.example.com/drafts/published/x
path:      /drafts/published/x (rfc9309)
agent:     ExampleBot is named by user-agent line 7 (ExampleBot)
groups:    user-agent line 7
decision:  allowed by line 12: allow /drafts/published/
priority:  pattern /drafts/published/, 18 bytes: the longest matching pattern wins, allow on a tie

url:       /private/x
path:      /private/x (rfc9309)
agent:     ExampleBot is named by user-agent line 7 (ExampleBot)
groups:    user-agent line 7
decision:  allowed: no rule matches
`
	if out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}

	// The global group, and a bad argument: reported as an argument,
	// explained as the semantics reads it, status 1.
	status, out, errs = cli(t, "", "explain", "--robots", exampleRobots, "--agent", "OtherBot", "--semantics", "google", "nope", "/private/x")
	if status != 1 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "robotstxt: argument 1: not a URL or path: nope (explained as the path ") {
		t.Errorf("status %d, stderr %q", status, errs)
	}
	if !strings.HasPrefix(out, "url:       nope\n") || strings.Count(out, "url:") != 2 {
		t.Errorf("want both arguments explained:\n%s", out)
	}
	if !strings.Contains(out, `the "*" group applies (user-agent line 2)`) || !strings.Contains(out, "disallowed by line 3: disallow /private/") || !strings.Contains(out, "(google)") {
		t.Errorf("output:\n%s", out)
	}
}

func TestExplain_Usage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"explain", "--agent", "x", "/a"}, "--robots FILE is required"},
		{[]string{"explain", "--robots", exampleRobots, "/a"}, "--agent TOKEN or --user-agent HEADER is required"},
		{[]string{"explain", "--robots", exampleRobots, "--agent", "x"}, "no URL given"},
		{[]string{"explain", "--robots", "no-such-file", "--agent", "x", "/a"}, "no-such-file"},
		{[]string{"explain", "--robots", exampleRobots, "--agent", "x", "--semantics", "y", "/a"}, `unknown semantics "y"`},
	} {
		status, out, errs := cli(t, "", c.args...)
		if status != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2 and %q", c.args, status, out, errs, c.want)
		}
	}
	if status, out, _ := cli(t, "", "help", "explain"); status != 0 || !strings.HasPrefix(out, "Usage: robotstxt explain") {
		t.Errorf("help explain: %d %q", status, out)
	}
}

package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersion_NamesTheBuild: issue 49 found that 'robotstxt version'
// printed "(devel)" for a build from a clone, so that a bug report could
// not name a commit. It prints the module version when there is one, else
// the commit with its time and "+dirty", else "(devel)".
func TestVersion_NamesTheBuild(t *testing.T) {
	const modulePath = "github.com/seed-275a9bd5/robotstxt"
	vcs := func(rev, time, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.time", Value: time}, {Key: "vcs.modified", Value: modified}}
	}
	const rev = "0123456789abcdef0123456789abcdef01234567"
	for _, tc := range []struct {
		name string
		bi   *debug.BuildInfo
		want string
		json string
	}{
		{"installed from the module path", &debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "v1.2.3"}},
			"v1.2.3", `{"version":"v1.2.3","revision":"","time":"","modified":false}`},
		{"a checkout, before Go 1.24", &debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "(devel)"}, Settings: vcs(rev, "2026-01-02T03:04:05Z", "true")},
			"0123456789ab+dirty (2026-01-02T03:04:05Z)", `{"version":"(devel)","revision":"` + rev + `","time":"2026-01-02T03:04:05Z","modified":true}`},
		{"a clean checkout, before Go 1.24", &debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "(devel)"}, Settings: vcs(rev, "2026-01-02T03:04:05Z", "false")},
			"0123456789ab (2026-01-02T03:04:05Z)", `{"version":"(devel)","revision":"` + rev + `","time":"2026-01-02T03:04:05Z","modified":false}`},
		{"a checkout, Go 1.24 and later", &debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "v0.0.0-20260102030405-0123456789ab+dirty"}, Settings: vcs(rev, "2026-01-02T03:04:05Z", "true")},
			"v0.0.0-20260102030405-0123456789ab+dirty", `{"version":"v0.0.0-20260102030405-0123456789ab+dirty","revision":"` + rev + `","time":"2026-01-02T03:04:05Z","modified":true}`},
		{"no version, no VCS (-buildvcs=false)", &debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "(devel)"}},
			"(devel)", `{"version":"(devel)","revision":"","time":"","modified":false}`},
		{"no build information", nil,
			"(devel)", `{"version":"(devel)","revision":"","time":"","modified":false}`},
	} {
		b := readBuildInfo(tc.bi)
		if got := b.String(); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
		if got, _ := json.Marshal(b); string(got) != tc.json {
			t.Errorf("%s: JSON %s, want %s", tc.name, got, tc.json)
		}
	}
}

// TestVersion_GitCheckoutBuild builds the command in this git checkout as
// a user does (with VCS stamping on, which CI turns off in GOFLAGS) and
// wants 'version' to name the checkout's commit, and 'version --json' its
// revision and whether the tree was modified.
func TestVersion_GitCheckoutBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	gotool := goTool(t)
	git := func(args ...string) (string, error) {
		out, err := exec.Command("git", append([]string{"-C", "../.."}, args...)...).Output()
		return strings.TrimSpace(string(out)), err
	}
	head, err := git("rev-parse", "HEAD")
	if err != nil {
		t.Skipf("not a git checkout (git rev-parse HEAD: %v)", err)
	}
	// Go stamps a build only where .git is a directory: a linked worktree
	// (.git is a file) gets no VCS information (golang/go#58218).
	top, err := git("rev-parse", "--show-toplevel")
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(filepath.Join(top, ".git")); err != nil || !st.IsDir() {
		t.Skipf("%s is a linked git worktree, which go build does not stamp (golang/go#58218)", top)
	}
	status, err := git("status", "--porcelain")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "robotstxt")
	cmd := exec.Command(gotool, "build", "-buildvcs=true", "-o", bin, "./cmd/robotstxt")
	cmd.Dir = "../.."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build -buildvcs=true: %v\n%s", err, out)
	}
	text, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(text), "robotstxt ") || !strings.Contains(string(text), head[:12]) {
		t.Errorf("version printed %q, want the commit %s", text, head[:12])
	}
	out, err := exec.Command(bin, "version", "--json").Output()
	if err != nil {
		t.Fatal(err)
	}
	var b buildInfo
	if err := json.Unmarshal(out, &b); err != nil {
		t.Fatalf("version --json printed %q: %v", out, err)
	}
	if b.Revision != head || b.Time == "" || b.Modified != (status != "") {
		t.Errorf("version --json printed %s, want revision %s, a time and modified %v", out, head, status != "")
	}
}

// TestVersion_DevelSaysHow: a build that recorded no version and no
// commit (go run, -buildvcs=false: this test binary) prints "(devel)" and
// says on standard error how to find the revision (issue 55).
func TestVersion_DevelSaysHow(t *testing.T) {
	if build().String() != devel {
		t.Skip("this test binary recorded a version or a commit")
	}
	var stdout, stderr strings.Builder
	if st := runVersion(nil, &stdout, &stderr); st != exitOK {
		t.Fatalf("status %d", st)
	}
	if stdout.String() != "robotstxt (devel)\n" || !strings.Contains(stderr.String(), "git rev-parse HEAD") {
		t.Errorf("stdout %q, stderr %q: want (devel) and how to find the revision", stdout.String(), stderr.String())
	}
}

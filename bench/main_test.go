package bench

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/klauspost/cpuid/v2"

	"github.com/seed-275a9bd5/robotstxt/internal/corpus"
)

// TestMain prints the machine report once per run, runs the tests and
// benchmarks, then lists what was skipped for overrunning its time cap or
// failing, and removes the temporary files. With $ROBOTSTXT_BENCH_HELPER set
// the binary is a helper process instead (see runHelper). A
// $ROBOTSTXT_CORPUS that names no corpus directory stops the run at once.
func TestMain(m *testing.M) {
	if spec := os.Getenv(helperEnv); spec != "" {
		flag.Parse()
		os.Exit(runHelper(spec))
	}
	if _, err := corpus.Find(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	machineReport(os.Stdout)
	code := m.Run()
	if lines := skipReport(); len(lines) > 0 {
		fmt.Printf("skipped (over a time cap, rejected or panicked), %d:\n", len(lines))
		for _, l := range lines {
			fmt.Printf("    %s\n", l)
		}
	}
	cleanupTemp()
	os.Exit(code)
}

// machineReport writes the CPU model, core counts and features
// (klauspost/cpuid), GOOS/GOARCH, the Go version and each peer library's
// module version from go.mod ("library-NAME: MODULE VERSION"), as "key: value" lines
// that benchstat keeps as configuration (scripts/benchtable.py names the
// versions in its tables).
func machineReport(w io.Writer) {
	c := cpuid.CPU
	fmt.Fprintf(w, "cpuid-brand: %s\n", c.BrandName)
	vendor := c.VendorString
	if c.HypervisorVendorString != "" {
		vendor += " (hypervisor " + c.HypervisorVendorString + ")"
	}
	fmt.Fprintf(w, "cpuid-vendor: %s family %d model %d\n", vendor, c.Family, c.Model)
	fmt.Fprintf(w, "cpuid-cores: physical %d, logical %d, threads/core %d; NumCPU %d, GOMAXPROCS %d\n",
		c.PhysicalCores, c.LogicalCores, c.ThreadsPerCore, runtime.NumCPU(), runtime.GOMAXPROCS(0))
	fmt.Fprintf(w, "cpuid-features: %s\n", strings.Join(c.FeatureSet(), ","))
	fmt.Fprintf(w, "go-runtime: %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	versions := libraryVersions()
	for _, lib := range Libraries[1:] {
		fmt.Fprintf(w, "library-%s: %s %s\n", lib.Name, lib.Module, versions[lib.Name])
	}
}

// libraryVersions returns the version of each peer library's module that
// go.mod requires, by library name. (A test binary's build information lists
// no dependencies, so go.mod, in the package directory where tests run, is
// read instead; go.mod has no replace for any peer.)
func libraryVersions() map[string]string {
	v := map[string]string{}
	data, err := os.ReadFile("go.mod")
	if err != nil {
		return v
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
		if len(f) < 2 {
			continue
		}
		for _, lib := range Libraries {
			if lib.Module != "" && f[0] == lib.Module {
				v[lib.Name] = f[1]
			}
		}
	}
	return v
}

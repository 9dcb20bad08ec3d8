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
)

// TestMain prints the machine report once per run, runs the tests and
// benchmarks, then lists what was skipped for overrunning its time cap or
// failing, and removes the temporary files. With $ROBOTSTXT_BENCH_HELPER set
// the binary is a helper process instead (see runHelper).
func TestMain(m *testing.M) {
	if spec := os.Getenv(helperEnv); spec != "" {
		flag.Parse()
		os.Exit(runHelper(spec))
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
// (klauspost/cpuid), GOOS/GOARCH and the Go version, as "key: value" lines
// that benchstat keeps as configuration.
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
}

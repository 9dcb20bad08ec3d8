package netfetch

import (
	"testing"

	"github.com/seed-275a9bd5/robotstxt/engine/fetch"
	"github.com/seed-275a9bd5/robotstxt/internal/cli"
)

// TestDefaultTimeout: fetch's --timeout default is engine/fetch's, which
// package cli cannot import.
func TestDefaultTimeout(t *testing.T) {
	if cli.DefaultFetchTimeout != fetch.DefaultTimeout {
		t.Errorf("cli.DefaultFetchTimeout %v, fetch.DefaultTimeout %v", cli.DefaultFetchTimeout, fetch.DefaultTimeout)
	}
}

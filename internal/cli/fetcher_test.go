package cli_test

import (
	"github.com/seed-275a9bd5/robotstxt/internal/cli"
	"github.com/seed-275a9bd5/robotstxt/internal/cli/netfetch"
)

// The package's tests run the fetch command in-process, as cmd/robotstxt
// does: with netfetch's Fetcher. (An external test package may import
// netfetch, which imports cli; the package's own tests may not.)
func init() { cli.SetFetcher(netfetch.Fetcher{}) }

// Command robotstxt-fetch is the fetch command of robotstxt: it fetches the
// robots.txt that governs a site as a crawler does (redirects, status
// codes, size limit), prints what was found, and decides the paths or URLs
// given. robotstxt fetch runs it, found beside robotstxt or on PATH; it
// takes the same arguments:
//
//	robotstxt-fetch [--agent TOKEN ...] [--user-agent HEADER] [--agent-chain] [--semantics S] [--explain] [--extensions] [--timeout DURATION] SITE_URL [PATH_OR_URL ...]
//
// "robotstxt-fetch help" prints that usage and "robotstxt-fetch version
// [--json]" the build, as robotstxt does.
//
// It is a program of its own so that robotstxt does not link net/http and
// crypto/tls, whose start-up would cost every check, lint, explain and dump
// about 6 ms; see the robotstxt command's documentation for fetch's output
// and exit status.
package main

import (
	"os"

	"github.com/seed-275a9bd5/robotstxt/internal/cli"
	"github.com/seed-275a9bd5/robotstxt/internal/cli/netfetch"
)

func main() {
	cli.SetFetcher(netfetch.Fetcher{})
	args := append([]string{"fetch"}, os.Args[1:]...)
	if len(os.Args) >= 2 { // help and version are never a SITE_URL: they have no scheme
		switch os.Args[1] {
		case "help":
			if len(os.Args) == 2 {
				args = []string{"help", "fetch"}
			}
		case "version", "-version", "--version":
			args = append([]string{"version"}, os.Args[2:]...)
		}
	}
	os.Exit(cli.Main(args))
}

package main

import (
	"os"

	"github.com/seed-275a9bd5/robotstxt/internal/cli"
	"github.com/seed-275a9bd5/robotstxt/internal/cli/netfetch"
)

func main() {
	cli.SetFetcher(netfetch.Fetcher{})
	os.Exit(cli.Main(os.Args[1:]))
}

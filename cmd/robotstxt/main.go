package main

import (
	"os"

	"github.com/seed-275a9bd5/robotstxt/internal/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:])) }

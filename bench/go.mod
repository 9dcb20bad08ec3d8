module github.com/seed-275a9bd5/robotstxt/bench

go 1.22

replace github.com/seed-275a9bd5/robotstxt => ../

require (
	github.com/benjaminestes/robots/v2 v2.0.5
	github.com/jimsmart/grobotstxt v1.0.3
	github.com/klauspost/cpuid/v2 v2.3.0
	github.com/samclarke/robotstxt v0.0.0-20171127213916-2817654b7988
	github.com/seed-275a9bd5/robotstxt v0.0.0-00010101000000-000000000000
	github.com/slyrz/robots v0.0.0-20150806122829-7ebb2b6fc59f
	github.com/temoto/robotstxt v1.1.2
)

require (
	github.com/dunglas/httpsfv v1.1.2 // indirect
	golang.org/x/net v0.35.0 // indirect
	golang.org/x/sys v0.30.0 // indirect
	golang.org/x/text v0.22.0 // indirect
)

module github.com/seed-275a9bd5/robotstxt/bench

go 1.22

replace github.com/seed-275a9bd5/robotstxt => ../

require (
	github.com/jimsmart/grobotstxt v1.0.3
	github.com/klauspost/cpuid/v2 v2.3.0
	github.com/seed-275a9bd5/robotstxt v0.0.0-00010101000000-000000000000
	github.com/temoto/robotstxt v1.1.2
)

require golang.org/x/sys v0.30.0 // indirect

module github.com/seed-275a9bd5/robotstxt/capi

go 1.24.0

replace github.com/seed-275a9bd5/robotstxt => ../

require github.com/seed-275a9bd5/robotstxt v0.0.0-00010101000000-000000000000

require (
	github.com/dunglas/httpsfv v1.1.2 // indirect
	golang.org/x/net v0.35.0 // indirect
)

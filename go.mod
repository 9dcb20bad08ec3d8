module github.com/seed-275a9bd5/robotstxt

go 1.22

require (
	github.com/dunglas/httpsfv v1.1.2
	github.com/google/go-cmp v0.7.0
	golang.org/x/net v0.35.0
	golang.org/x/sync v0.11.0
)

require golang.org/x/text v0.22.0 // indirect

module github.com/seed-275a9bd5/robotstxt

go 1.22

require (
	github.com/google/go-cmp v0.7.0 // indirect
	golang.org/x/net v0.35.0 // indirect
	golang.org/x/sync v0.11.0 // indirect
)

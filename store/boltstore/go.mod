module github.com/seed-275a9bd5/robotstxt/store/boltstore

go 1.25.0

replace github.com/seed-275a9bd5/robotstxt => ../..

require (
	github.com/seed-275a9bd5/robotstxt v0.0.0-00010101000000-000000000000
	go.etcd.io/bbolt v1.5.0
)

require (
	github.com/dunglas/httpsfv v1.1.2 // indirect
	golang.org/x/net v0.35.0 // indirect
	golang.org/x/sync v0.20.0 // indirect
	golang.org/x/sys v0.45.0 // indirect
	golang.org/x/text v0.22.0 // indirect
)

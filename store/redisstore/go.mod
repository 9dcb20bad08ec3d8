module github.com/seed-275a9bd5/robotstxt/store/redisstore

go 1.26.0

replace github.com/seed-275a9bd5/robotstxt => ../..

require (
	github.com/redis/go-redis/v9 v9.23.0
	github.com/seed-275a9bd5/robotstxt v0.0.0-00010101000000-000000000000
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/dunglas/httpsfv v1.1.2 // indirect
	go.uber.org/atomic v1.12.0 // indirect
	golang.org/x/net v0.35.0 // indirect
	golang.org/x/sync v0.11.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
	golang.org/x/text v0.22.0 // indirect
)

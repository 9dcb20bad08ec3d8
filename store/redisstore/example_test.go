package redisstore_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/redis/go-redis/v9"

	"github.com/seed-275a9bd5/robotstxt/engine/fetch"
	"github.com/seed-275a9bd5/robotstxt/store/redisstore"
)

// Every node of a crawler fleet runs this, with the fleet's Redis: the
// fleet fetches each robots.txt once, and paces each site by its
// crawl-delay across all nodes. (It needs a Redis server, so it has no
// output to check.)
func Example() {
	rdb := redis.NewUniversalClient(&redis.UniversalOptions{
		Addrs:                 []string{"localhost:6379"}, // several for a Cluster; MasterName for Sentinel
		ContextTimeoutEnabled: true,
	})
	defer rdb.Close()
	opts := redisstore.Options{Prefix: "crawl:"} // one prefix per fleet

	client := fetch.New(fetch.Options{UserAgent: "FooBot/1.0", Store: redisstore.New(rdb, opts)})
	defer client.Close()
	hc := &http.Client{Transport: &fetch.Transport{
		Client: client, Agent: "FooBot", CrawlDelay: true,
		Pacer: redisstore.NewPacer(rdb, opts),
	}}

	resp, err := hc.Get("https://example.com/page")
	var d *fetch.DisallowedError
	switch {
	case errors.As(err, &d):
		fmt.Println("robots.txt disallows it:", d.Decision.Rule.Line)
	case err != nil:
		fmt.Println(err)
	default:
		resp.Body.Close()
	}
	st := client.Stats()
	fmt.Println(st.Fetches, st.StoreHits, st.StoreErrors) // fetched here, taken from Redis, Redis errors
}

// A Store alone, under a Client: a lookup that misses the Client's own
// cache asks Redis before it fetches.
func ExampleNew() {
	rdb := redis.NewClient(&redis.Options{Addr: "localhost:6379", ContextTimeoutEnabled: true})
	defer rdb.Close()
	client := fetch.New(fetch.Options{Store: redisstore.New(rdb, redisstore.Options{Prefix: "crawl:"})})
	res, err := client.Lookup(context.Background(), "https://example.com/")
	fmt.Println(res.Source, err) // "fetched" on the first node, "cached" on the others
}

// A Pacer alone: the requests of every process that shares the prefix go
// to a site at least its crawl-delay apart.
func ExampleNewPacer() {
	rdb := redis.NewClient(&redis.Options{Addr: "localhost:6379", ContextTimeoutEnabled: true})
	defer rdb.Close()
	t := &fetch.Transport{
		Client:     fetch.New(fetch.Options{}),
		Agent:      "FooBot",
		CrawlDelay: true,
		Pacer:      redisstore.NewPacer(rdb, redisstore.Options{Prefix: "crawl:"}),
	}
	_ = &http.Client{Transport: t}
}

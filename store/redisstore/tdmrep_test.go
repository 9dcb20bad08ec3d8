package redisstore

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed-275a9bd5/robotstxt/engine/fetch"
	"github.com/seed-275a9bd5/robotstxt/engine/page"
)

// TestFleet_TDMRepOnce checks that two Clients on one Redis, asking at
// once, fetch an origin's tdmrep.json once between them (one holds the
// lease while the other waits for its record), that both read its rules,
// and that its record sits beside the origin's robots.txt record, each
// under its own key.
func TestFleet_TDMRepOnce(t *testing.T) {
	srv := startRedis(t)
	var tdmFetches atomic.Int64
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			_, _ = io.WriteString(w, robotsBody)
		case "/.well-known/tdmrep.json":
			tdmFetches.Add(1)
			time.Sleep(50 * time.Millisecond) // long enough for the other node to find the lease taken
			_, _ = io.WriteString(w, `[{"location": "/news/*", "tdm-reservation": 1}, {"location": "/", "tdm-reservation": 0}]`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(s.Close)

	want := page.TDM{Reservation: page.TDMReserved, From: page.Origin{Source: page.SourceTDMFile, Line: 1}}
	var nodes [2]*fetch.Client
	var wg sync.WaitGroup
	for i := range nodes {
		nodes[i] = fetch.New(fetch.Options{Store: New(srv.Client(), Options{})})
		defer nodes[i].Close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			got, err := fetch.NewTDMReps(nodes[i]).Rule(ctx, s.URL+"/news/a", "FooBot")
			if err != nil || got != want {
				t.Errorf("node %d: Rule = %+v, %v; want %+v", i, got, err, want)
			}
		}()
	}
	wg.Wait()
	if n := tdmFetches.Load(); n != 1 {
		t.Errorf("tdmrep.json fetched %d times, want once", n)
	}
	a, b := nodes[0].Stats(), nodes[1].Stats()
	if a.StoreHits+b.StoreHits != 1 || a.StoreSaves+b.StoreSaves != 1 || a.StoreErrors+b.StoreErrors != 0 {
		t.Errorf("Stats = %+v and %+v, want one store hit and one save between them", a, b)
	}

	lookup(t, nodes[0], s.URL+"/")
	ctx := context.Background()
	for _, k := range []string{DefaultPrefix + "{" + s.URL + "}:record", DefaultPrefix + "{" + s.URL + "/.well-known/tdmrep.json}:record"} {
		if n := srv.Client().Exists(ctx, k).Val(); n != 1 {
			t.Errorf("no key %s", k)
		}
	}
	if k := srv.Client().Keys(ctx, DefaultPrefix+"*:lease").Val(); len(k) != 0 {
		t.Errorf("leases %q left, want none (released)", k)
	}
}

package boltstore_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"

	"github.com/seed-275a9bd5/robotstxt/engine/fetch"
	"github.com/seed-275a9bd5/robotstxt/store/boltstore"
)

// A crawler node keeps its robots.txt records in a file, so that after a
// restart it decides without fetching them again.
func Example() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
	}))
	defer site.Close()
	dir, _ := os.MkdirTemp("", "robots")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "robots.db")

	for run := 1; run <= 2; run++ { // the node starts, crawls, stops; twice
		st, err := boltstore.Open(path, boltstore.Options{})
		if err != nil {
			fmt.Println(err)
			return
		}
		client := fetch.New(fetch.Options{Store: st})
		ok, res, _ := client.Allowed(context.Background(), "FooBot", site.URL+"/private/report")
		fmt.Printf("run %d: allowed %v (robots.txt %s)\n", run, ok, res.Source)
		client.Close()
		st.Close()
	}
	// Output:
	// run 1: allowed false (robots.txt fetched)
	// run 2: allowed false (robots.txt cached)
}

package boltstore

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/seed-275a9bd5/robotstxt/engine/fetch"
)

// site is a loopback site whose robots.txt disallows /private, counting
// its robots.txt fetches.
func site(t *testing.T) (*httptest.Server, *atomic.Int64) {
	var fetches atomic.Int64
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fetches.Add(1)
			_, _ = io.WriteString(w, "User-agent: *\nDisallow: /private\n")
		}
	}))
	t.Cleanup(s.Close)
	return s, &fetches
}

func open(t *testing.T, path string) *Store {
	t.Helper()
	st, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestStore_Restart checks what the Store is for: a node that restarts
// (its Client and Store made anew on the same file) fetches nothing that
// the file has, and decides as before.
func TestStore_Restart(t *testing.T) {
	s, fetches := site(t)
	path := filepath.Join(t.TempDir(), "robots.db")
	for run := 0; run < 3; run++ {
		st := open(t, path)
		c := fetch.New(fetch.Options{Store: st})
		res, err := c.Lookup(context.Background(), s.URL+"/")
		if err != nil {
			t.Fatal(err)
		}
		want := fetch.Cached
		if run == 0 {
			want = fetch.Fetched
		}
		if res.Source != want || res.Allowed("FooBot", "/private/x") || !res.Allowed("FooBot", "/x") {
			t.Errorf("run %d: %v, want %v with /private disallowed", run, res.Source, want)
		}
		c.Close()
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if n := fetches.Load(); n != 1 {
		t.Errorf("robots.txt fetched %d times over three runs, want 1", n)
	}
}

// TestStore_Calls checks Load and Save: a record within its TTL is
// returned, an expired one is not and is swept at Open, one over the bound
// is refused, and a value too short for its expiry is an empty record.
func TestStore_Calls(t *testing.T) {
	path := filepath.Join(t.TempDir(), "robots.db")
	st := open(t, path)
	ctx := context.Background()
	if b, err := st.Load(ctx, "http://a.test", 100); b != nil || err != nil {
		t.Errorf("Load of nothing = %q, %v", b, err)
	}
	_ = st.Save(ctx, "http://a.test", []byte("record"), time.Hour)
	_ = st.Save(ctx, "http://b.test", []byte("gone"), time.Nanosecond)
	if b, err := st.Load(ctx, "http://a.test", 100); string(b) != "record" || err != nil {
		t.Errorf("Load = %q, %v", b, err)
	}
	time.Sleep(time.Millisecond)
	if b, err := st.Load(ctx, "http://b.test", 100); b != nil || err != nil {
		t.Errorf("Load of an expired record = %q, %v", b, err)
	}
	if _, err := st.Load(ctx, "http://a.test", 3); !errors.Is(err, fetch.ErrRecordTooLarge) {
		t.Errorf("Load over the bound: %v, want fetch.ErrRecordTooLarge", err)
	}
	_ = st.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucket).Put([]byte("http://c.test"), []byte("x")) })
	if b, err := st.Load(ctx, "http://c.test", 100); b == nil || len(b) != 0 || err != nil {
		t.Errorf("Load of a short value = %q, %v; want an empty record", b, err)
	}
	st.Close()

	st = open(t, path)
	defer st.Close()
	var keys []string
	_ = st.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucket).ForEach(func(k, _ []byte) error { keys = append(keys, string(k)); return nil })
	})
	if len(keys) != 1 || keys[0] != "http://a.test" {
		t.Errorf("after Open, the file holds %q; want the live record alone", keys)
	}
}

// TestStore_OneProcess checks that a second Open of a file in use fails
// after OpenTimeout instead of waiting for ever.
func TestStore_OneProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "robots.db")
	st := open(t, path)
	defer st.Close()
	if _, err := Open(path, Options{OpenTimeout: 50 * time.Millisecond}); err == nil {
		t.Error("a second Open of a file in use succeeded")
	}
}

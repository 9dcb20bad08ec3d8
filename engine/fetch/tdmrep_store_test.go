package fetch

import (
	"context"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed-275a9bd5/robotstxt/engine/page"
)

// tdmRepBody is the tdmrep.json of the shared-Store tests: /news/ is
// reserved, the rest not.
const tdmRepBody = `[{"location": "/news/*", "tdm-reservation": 1}, {"location": "/", "tdm-reservation": 0}]`

// tdmSite is an origin with robots.txt (robotsBody) and tdmrep.json
// (tdmRepBody, with ETag "t1"; a request with that validator is answered
// 304). It counts its tdmrep.json requests: full and 304, and delays each
// by delay.
type tdmSite struct {
	*server
	full, notModified atomic.Int64
	delay             time.Duration
}

func newTDMSite(t *testing.T) *tdmSite {
	s := &tdmSite{}
	s.server = newServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			_, _ = io.WriteString(w, robotsBody)
		case tdmRepPath:
			time.Sleep(s.delay)
			if r.Header.Get("If-None-Match") == `"t1"` {
				s.notModified.Add(1)
				w.WriteHeader(http.StatusNotModified)
				return
			}
			s.full.Add(1)
			w.Header().Set("ETag", `"t1"`)
			_, _ = io.WriteString(w, tdmRepBody)
		default:
			http.NotFound(w, r)
		}
	})
	return s
}

// wantTDMRules fails the test unless reps answers the site's rules for
// /news/a (reserved, line 1) and /about (not reserved, line 2).
func wantTDMRules(t *testing.T, reps *TDMReps, origin string) {
	t.Helper()
	for path, want := range map[string]page.TDM{
		"/news/a": {Reservation: page.TDMReserved, From: page.Origin{Source: page.SourceTDMFile, Line: 1}},
		"/about":  {Reservation: page.TDMNotReserved, From: page.Origin{Source: page.SourceTDMFile, Line: 2}},
	} {
		if got, err := reps.Rule(context.Background(), origin+path, "FooBot"); err != nil || got != want {
			t.Errorf("Rule(%s) = %+v, %v; want %+v", path, got, err, want)
		}
	}
}

// TestTDMRep_SharedStore checks that two Clients sharing a Store fetch an
// origin's tdmrep.json once: the second answers from the first's record,
// with the same rules; and that an origin without one (404) is shared too.
func TestTDMRep_SharedStore(t *testing.T) {
	s := newTDMSite(t)
	none := newServer(t, http.NotFound)
	store := newMemStore()
	a, b := New(Options{Store: store}), New(Options{Store: store})
	defer a.Close()
	defer b.Close()
	ra, rb := NewTDMReps(a), NewTDMReps(b)
	wantTDMRules(t, ra, s.URL)
	wantTDMRules(t, rb, s.URL)
	for _, reps := range []*TDMReps{ra, rb} {
		if got, err := reps.Rule(context.Background(), none.URL+"/a", ""); err != nil || got != (page.TDM{}) {
			t.Errorf("an origin without tdmrep.json: %+v, %v", got, err)
		}
	}
	if n := s.full.Load(); n != 1 {
		t.Errorf("tdmrep.json fetched %d times, want once", n)
	}
	if n := none.requests.Load(); n != 1 {
		t.Errorf("the origin without tdmrep.json saw %d requests, want 1", n)
	}
	if st := b.Stats(); st.StoreHits != 2 || st.Fetches != 0 {
		t.Errorf("second node's Stats = %+v, want two store hits and no fetch", st)
	}
	if st := a.Stats(); st.StoreSaves != 2 || st.StoreErrors != 0 || st.StoreRejected != 0 {
		t.Errorf("first node's Stats = %+v, want two saves", st)
	}
}

// TestTDMRep_SharedStoreConcurrent checks the lease: two Clients that ask
// at once fetch tdmrep.json once between them, the second waiting for the
// first's record (unless it was scheduled after the 50 ms fetch ended:
// then it finds the record at once).
func TestTDMRep_SharedStoreConcurrent(t *testing.T) {
	s := newTDMSite(t)
	s.delay = 50 * time.Millisecond
	store := newMemStore()
	var wg sync.WaitGroup
	var clients [2]*Client
	for i := range clients {
		clients[i] = New(Options{Store: store})
		defer clients[i].Close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			wantTDMRules(t, NewTDMReps(clients[i]), s.URL)
		}()
	}
	wg.Wait()
	if n := s.full.Load(); n != 1 {
		t.Errorf("tdmrep.json fetched %d times, want once", n)
	}
	a, b := clients[0].Stats(), clients[1].Stats()
	if a.StoreWaits+b.StoreWaits > 1 || a.StoreHits+b.StoreHits != 1 {
		t.Errorf("Stats = %+v and %+v, want one store hit (after at most one wait) between them", a, b)
	}
}

// TestTDMRep_SharedStoreBadRecord checks that a tdmrep.json record that
// fails the checks (garbage, or a record of the origin's robots.txt put
// under its key) is ignored: the node fetches and saves a good one over it.
func TestTDMRep_SharedStoreBadRecord(t *testing.T) {
	s := newTDMSite(t)
	key := s.URL + tdmRepPath
	robots := testRecord(t, s.URL, robotsBody, Options{})
	for name, bad := range map[string][]byte{
		"garbage":       []byte("not a record at all"),
		"robots-record": robots,
	} {
		t.Run(name, func(t *testing.T) {
			store := newMemStore()
			store.set(key, bad)
			before := s.full.Load()
			c := New(Options{Store: store})
			defer c.Close()
			wantTDMRules(t, NewTDMReps(c), s.URL)
			if n := s.full.Load() - before; n != 1 {
				t.Errorf("tdmrep.json fetched %d times, want once", n)
			}
			// Read twice: before the lease and after it was taken.
			if st := c.Stats(); st.StoreRejected != 2 || st.StoreHits != 0 || st.StoreSaves != 1 {
				t.Errorf("Stats = %+v, want the record rejected twice and one saved", st)
			}
			rec, err := decodeRecord(store.get(key))
			if err != nil || c.checkRecord(rec, key) != nil {
				t.Errorf("the bad record was not replaced: %v", err)
			}
		})
	}
}

// TestTDMRep_SharedStoreDown checks that a node whose Store fails fetches
// tdmrep.json on its own.
func TestTDMRep_SharedStoreDown(t *testing.T) {
	s := newTDMSite(t)
	store := newMemStore()
	store.fail.Store(true)
	c := New(Options{Store: store})
	defer c.Close()
	wantTDMRules(t, NewTDMReps(c), s.URL)
	if n := s.full.Load(); n != 1 {
		t.Errorf("tdmrep.json fetched %d times, want once", n)
	}
	if st := c.Stats(); st.StoreErrors != 1 || st.Fetches != 1 {
		t.Errorf("Stats = %+v, want one store error and one fetch", st)
	}
}

// TestTDMRep_SharedStoreBesideRobots checks that an origin's robots.txt
// and tdmrep.json records are kept apart: after one node read both, a
// second reads both from the Store, and fetches nothing.
func TestTDMRep_SharedStoreBesideRobots(t *testing.T) {
	s := newTDMSite(t)
	store := newMemStore()
	a := New(Options{Store: store})
	defer a.Close()
	wantSource(t, lookup(t, a, s.URL+"/"), Fetched)
	wantTDMRules(t, NewTDMReps(a), s.URL)
	if store.get(s.URL) == nil || store.get(s.URL+tdmRepPath) == nil {
		t.Fatal("the two records were not both saved")
	}
	b := New(Options{Store: store})
	defer b.Close()
	res := lookup(t, b, s.URL+"/")
	wantSource(t, res, Cached)
	wantAllowed(t, res, map[string]bool{"/private/x": false, "/public": true})
	wantTDMRules(t, NewTDMReps(b), s.URL)
	if st := b.Stats(); st.StoreHits != 2 || st.Fetches != 0 || st.StoreRejected != 0 {
		t.Errorf("second node's Stats = %+v, want two store hits and no fetch", st)
	}
	if n := s.requests.Load(); n != 2 {
		t.Errorf("the server saw %d requests, want 2", n)
	}
}

// TestTDMRep_SharedStoreRevalidation checks that a node that finds an
// expired record of tdmrep.json fetches it conditionally: the 304 renews
// the copy, and the renewed record is fresh for the other node too.
func TestTDMRep_SharedStoreRevalidation(t *testing.T) {
	s := newTDMSite(t)
	clk := newClock()
	store := newMemStore()
	a := New(Options{Store: store, Now: clk.Now})
	defer a.Close()
	wantTDMRules(t, NewTDMReps(a), s.URL)
	clk.Advance(DefaultTTL)
	b := New(Options{Store: store, Now: clk.Now})
	defer b.Close()
	wantTDMRules(t, NewTDMReps(b), s.URL)
	if st := b.Stats(); st.Revalidated != 1 || st.StoreSaves != 1 {
		t.Errorf("second node's Stats = %+v, want one revalidation and one save", st)
	}
	wantTDMRules(t, NewTDMReps(a), s.URL) // a new cache: from the renewed record
	if full, nm := s.full.Load(), s.notModified.Load(); full != 1 || nm != 1 {
		t.Errorf("%d full fetches and %d 304s, want 1 and 1", full, nm)
	}
	if st := a.Stats(); st.StoreHits != 1 {
		t.Errorf("first node's Stats = %+v, want one store hit", st)
	}
}

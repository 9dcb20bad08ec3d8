package redisstore

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/seed-275a9bd5/robotstxt/engine/fetch"
)

// The fleet tests run crawler nodes as separate processes: the test binary
// run again with fleetWorkerEnv set to a workerSpec (see TestMain), each
// with its own fetch.Client and fetch.Transport on one redis-server,
// crawling loopback sites that count what they receive.

// fleetWorkerEnv names the environment variable that makes the test binary
// a fleet worker (runWorker) instead of running tests.
const fleetWorkerEnv = "ROBOTSTXT_FLEET_WORKER"

// fleetNodes is the number of worker processes in a fleet test.
const fleetNodes = 4

// fleetRequestTimeout bounds each request of a worker: every request must
// be answered (sent, disallowed, or refused for its crawl-delay turn)
// within it, Redis or not.
const fleetRequestTimeout = 20 * time.Second

// fleetTestTimeout bounds a whole fleet test: workers still running then
// are killed and the test fails.
const fleetTestTimeout = 2 * time.Minute

func TestMain(m *testing.M) {
	if spec := os.Getenv(fleetWorkerEnv); spec != "" {
		os.Exit(runWorker(spec))
	}
	os.Exit(m.Run())
}

// workerSpec is what a worker crawls: the URLs of each phase, in order.
// The worker writes a line with Ready set when it has started, and waits
// for a line on stdin before each phase, so that the nodes of a fleet
// start each phase together.
type workerSpec struct {
	Redis   string
	Cluster []string // the nodes of a Redis Cluster, in place of Redis
	Prefix  string
	Phases  [][]string
}

// fleetRedis is the Redis of a fleet test: one server, or a cluster.
type fleetRedis interface {
	// spec returns the spec of workers that crawl phases on it.
	spec(phases ...[]string) workerSpec
	// KillFor kills the server, or the master of a cluster that holds the
	// keys of origin (whose calls then fail, as all do once the cluster
	// finds the master failing).
	KillFor(origin string)
	// Whole reports whether the server is the whole of it: when it is
	// killed, every call fails at once.
	Whole() bool
	// RestartKilled restarts it, empty, and waits until it answers.
	RestartKilled()
	// Keys returns the keys that match pattern.
	Keys(pattern string) []string
}

func (s *redisServer) spec(phases ...[]string) workerSpec {
	return workerSpec{Redis: s.addr, Prefix: "fleet:", Phases: phases}
}
func (s *redisServer) KillFor(string) { s.Kill() }
func (s *redisServer) Whole() bool    { return true }
func (s *redisServer) RestartKilled() { s.Restart() }
func (s *redisServer) Keys(pattern string) []string {
	return s.Client().Keys(context.Background(), pattern).Val()
}

func (c *redisCluster) spec(phases ...[]string) workerSpec {
	return workerSpec{Cluster: c.Addrs(), Prefix: "fleet:", Phases: phases}
}

// workerLine is one line a worker writes to stdout: the answer to a
// request, or the end of a phase with the node's counters.
type workerLine struct {
	Phase  int    `json:"phase"`
	URL    string `json:"url,omitempty"`
	Answer string `json:"answer,omitempty"` // sent, disallowed, too-soon, error
	Err    string `json:"err,omitempty"`
	Went   int64  `json:"went,omitempty"` // when the request went to Base, Unix ns

	Ready     bool                  `json:"ready,omitempty"`
	Done      bool                  `json:"done,omitempty"`
	Client    *fetch.Stats          `json:"client,omitempty"`
	Transport *fetch.TransportStats `json:"transport,omitempty"`
	Pacer     *PacerStats           `json:"pacer,omitempty"`
}

// wentHeader carries, on a response, when its request went to Base.
const wentHeader = "X-Fleet-Went"

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// runWorker is a worker process's main: it crawls the phases of spec
// through a fetch.Transport with a Redis Store and Pacer, four requests at
// a time, and reports each answer.
func runWorker(specJSON string) int {
	var spec workerSpec
	if err := json.Unmarshal([]byte(specJSON), &spec); err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		return 2
	}
	var rdb redis.UniversalClient
	if len(spec.Cluster) > 0 {
		rdb = redis.NewClusterClient(&redis.ClusterOptions{Addrs: spec.Cluster})
	} else {
		rdb = redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{spec.Redis}})
	}
	defer rdb.Close()
	opts := Options{Prefix: spec.Prefix}
	client := fetch.New(fetch.Options{Store: loggingStore{New(rdb, opts)}})
	defer client.Close()
	pacer := NewPacer(rdb, opts)
	base := http.DefaultTransport.(*http.Transport).Clone()
	tr := &fetch.Transport{Client: client, Agent: "FooBot", CrawlDelay: true, Pacer: pacer,
		Base: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			went := time.Now().UnixNano()
			resp, err := base.RoundTrip(r)
			if resp != nil {
				resp.Header.Set(wentHeader, strconv.FormatInt(went, 10))
			}
			return resp, err
		})}
	hc := &http.Client{Transport: tr}

	var mu sync.Mutex
	enc := json.NewEncoder(os.Stdout)
	write := func(l workerLine) {
		mu.Lock()
		defer mu.Unlock()
		_ = enc.Encode(l)
	}
	in := bufio.NewReader(os.Stdin)
	write(workerLine{Ready: true})
	for phase, urls := range spec.Phases {
		if _, err := in.ReadString('\n'); err != nil {
			fmt.Fprintln(os.Stderr, "worker: stdin:", err)
			return 2
		}
		next := make(chan string)
		var wg sync.WaitGroup
		for g := 0; g < 4; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for u := range next {
					write(request(hc, phase, u))
				}
			}()
		}
		for _, u := range urls {
			next <- u
		}
		close(next)
		wg.Wait()
		cs, ts, ps := client.Stats(), tr.Stats(), pacer.Stats()
		write(workerLine{Phase: phase, Done: true, Client: &cs, Transport: &ts, Pacer: &ps})
	}
	return 0
}

// loggingStore is a Store that writes the errors of its calls to stderr,
// which the test shows when a worker fails.
type loggingStore struct{ *Store }

func (s loggingStore) log(what, origin string, start time.Time, err error) {
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s %s %s after %v: %v\n", time.Now().Format("15:04:05.000"), what, origin, time.Since(start), err)
	}
}

func (s loggingStore) Load(ctx context.Context, origin string, max int) ([]byte, error) {
	start := time.Now()
	b, err := s.Store.Load(ctx, origin, max)
	s.log("load", origin, start, err)
	return b, err
}

func (s loggingStore) Save(ctx context.Context, origin string, record []byte, ttl time.Duration) error {
	start := time.Now()
	err := s.Store.Save(ctx, origin, record, ttl)
	s.log("save", origin, start, err)
	return err
}

func (s loggingStore) Lease(ctx context.Context, origin, token string, ttl time.Duration) (bool, error) {
	start := time.Now()
	took, err := s.Store.Lease(ctx, origin, token, ttl)
	s.log("lease", origin, start, err)
	return took, err
}

func (s loggingStore) Release(ctx context.Context, origin, token string) error {
	start := time.Now()
	err := s.Store.Release(ctx, origin, token)
	s.log("release", origin, start, err)
	return err
}

// request sends a GET for u and says how it was answered.
func request(hc *http.Client, phase int, u string) workerLine {
	l := workerLine{Phase: phase, URL: u}
	ctx, cancel := context.WithTimeout(context.Background(), fleetRequestTimeout)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	resp, err := hc.Do(req)
	var d *fetch.DisallowedError
	var cd *fetch.CrawlDelayError
	switch {
	case errors.As(err, &d):
		l.Answer = "disallowed"
	case errors.As(err, &cd):
		l.Answer = "too-soon"
	case err != nil:
		l.Answer, l.Err = "error", err.Error()
	default:
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		l.Answer = "sent"
		l.Went, _ = strconv.ParseInt(resp.Header.Get(wentHeader), 10, 64)
		if resp.StatusCode != http.StatusOK {
			l.Answer, l.Err = "error", resp.Status
		}
	}
	return l
}

// robotsLatency is how long a fleet site takes to serve its robots.txt.
const robotsLatency = 50 * time.Millisecond

// fleetSite is a loopback site of a fleet test: it counts its robots.txt
// fetches, and the requests it received that its robots.txt disallows.
type fleetSite struct {
	*httptest.Server
	mu         sync.Mutex
	robots     int
	disallowed []string
	pages      []time.Time // when each page request arrived
}

// newFleetSite starts a site whose robots.txt disallows /private to every
// crawler, with a crawl-delay when delay > 0.
func newFleetSite(t *testing.T, delay time.Duration) *fleetSite {
	robots := "User-agent: *\nDisallow: /private\n"
	if delay > 0 {
		robots += "Crawl-delay: " + strconv.FormatFloat(delay.Seconds(), 'f', -1, 64) + "\n"
	}
	s := &fleetSite{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		switch {
		case r.URL.Path == "/robots.txt":
			s.robots++
			s.mu.Unlock()
			// A fetch that takes a while, as on the web, so that the
			// nodes that start together all miss while it runs.
			time.Sleep(robotsLatency)
			s.mu.Lock()
			_, _ = io.WriteString(w, robots)
			return
		case strings.HasPrefix(r.URL.Path, "/private"):
			s.disallowed = append(s.disallowed, r.URL.Path)
		}
		s.pages = append(s.pages, time.Now())
		_, _ = io.WriteString(w, "ok")
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *fleetSite) robotsFetches() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.robots
}

// worker is a running worker process, as the test sees it.
type worker struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan workerLine
	errs  strings.Builder
}

// startFleet starts n workers on spec and waits until each is ready.
func startFleet(ctx context.Context, t *testing.T, n int, spec workerSpec) []*worker {
	t.Helper()
	b, _ := json.Marshal(spec)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var ws []*worker
	for i := 0; i < n; i++ {
		w := &worker{lines: make(chan workerLine, 1024)}
		w.cmd = exec.CommandContext(ctx, exe, "-test.run=^$")
		w.cmd.Env = append(os.Environ(), fleetWorkerEnv+"="+string(b))
		w.cmd.Stderr = &w.errs
		stdout, err := w.cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if w.stdin, err = w.cmd.StdinPipe(); err != nil {
			t.Fatal(err)
		}
		if err := w.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() {
			defer close(w.lines)
			dec := json.NewDecoder(stdout)
			for {
				var l workerLine
				if err := dec.Decode(&l); err != nil {
					return
				}
				w.lines <- l
			}
		}()
		ws = append(ws, w)
	}
	for i, w := range ws {
		if l, ok := <-w.lines; !ok || !l.Ready {
			t.Fatalf("worker %d did not start: %s", i, w.errs.String())
		}
	}
	return ws
}

// phase collects the lines of every worker up to the end of the phase:
// the answers, and each worker's last line (ends[i] is worker i's). Each
// line is also handed to seen, when not nil, as it arrives.
func phase(t *testing.T, ws []*worker, seen func(workerLine)) (answers []workerLine, ends []workerLine) {
	t.Helper()
	var mu sync.Mutex
	var wg sync.WaitGroup
	ends = make([]workerLine, len(ws))
	for i, w := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for l := range w.lines {
				if seen != nil {
					seen(l)
				}
				mu.Lock()
				if l.Done {
					ends[i] = l
					mu.Unlock()
					return
				}
				answers = append(answers, l)
				mu.Unlock()
			}
			t.Errorf("worker %d ended before the phase did: %v", i, w.errs.String())
		}()
	}
	wg.Wait()
	return answers, ends
}

// proceed tells the workers to go on to their next phase.
func proceed(t *testing.T, ws []*worker) {
	t.Helper()
	for _, w := range ws {
		if _, err := io.WriteString(w.stdin, "go\n"); err != nil {
			t.Fatal(err)
		}
	}
}

// wait waits for every worker to exit, and fails the test for each that
// did not exit 0: no process may be lost.
func wait(t *testing.T, ws []*worker) {
	t.Helper()
	for i, w := range ws {
		w.stdin.Close()
		if err := w.cmd.Wait(); err != nil {
			t.Errorf("worker %d: %v: %s", i, err, w.errs.String())
		}
	}
}

// checkAnswers fails the test unless every request was answered as the
// sites' robots.txt says (sent for /page, disallowed for /private, or
// refused for its crawl-delay turn when tooSoonOK), and no site received a
// disallowed request.
func checkAnswers(t *testing.T, answers []workerLine, want int, tooSoonOK bool, sites ...*fleetSite) {
	t.Helper()
	if len(answers) != want {
		t.Errorf("%d answers, want %d", len(answers), want)
	}
	for _, a := range answers {
		wantAnswer := "sent"
		if strings.Contains(a.URL, "/private") {
			wantAnswer = "disallowed"
		}
		if a.Answer != wantAnswer && !(tooSoonOK && a.Answer == "too-soon") {
			t.Errorf("%s: %s (%s), want %s", a.URL, a.Answer, a.Err, wantAnswer)
		}
	}
	for _, s := range sites {
		s.mu.Lock()
		if len(s.disallowed) > 0 {
			t.Errorf("%s received disallowed requests: %q", s.URL, s.disallowed)
		}
		s.mu.Unlock()
	}
}

// fleetURLs returns the URLs a worker crawls on sites: perSite pages and
// as many disallowed pages of each.
func fleetURLs(sites []*fleetSite, perSite int) []string {
	var urls []string
	for _, s := range sites {
		for j := 0; j < perSite; j++ {
			urls = append(urls, fmt.Sprintf("%s/page/%d", s.URL, j), fmt.Sprintf("%s/private/%d", s.URL, j))
		}
	}
	return urls
}

// smallestGap returns the smallest gap between the times the requests in answers
// went (Unix ns, from every worker), and how many there were.
func smallestGap(answers []workerLine, site *fleetSite) (time.Duration, int) {
	var went []int64
	for _, a := range answers {
		if a.Answer == "sent" && strings.HasPrefix(a.URL, site.URL+"/") {
			went = append(went, a.Went)
		}
	}
	sort.Slice(went, func(i, j int) bool { return went[i] < went[j] })
	gap := time.Duration(1<<63 - 1)
	for i := 1; i < len(went); i++ {
		gap = min(gap, time.Duration(went[i]-went[i-1]))
	}
	return gap, len(went)
}

// serverGap returns the smallest gap between page requests as site saw
// them arrive (the network and the server's scheduling included).
func serverGap(site *fleetSite) time.Duration {
	site.mu.Lock()
	defer site.mu.Unlock()
	gap := time.Duration(1<<63 - 1)
	for i := 1; i < len(site.pages); i++ {
		gap = min(gap, site.pages[i].Sub(site.pages[i-1]))
	}
	return gap
}

// TestFleet_OneFetchPerSite runs a fleet of four processes on one Redis
// against loopback sites, twice (a restart of every node): each robots.txt
// is fetched once in all, none after the restart, and the requests of all
// nodes to a site with a crawl-delay go at least the delay apart.
func TestFleet_OneFetchPerSite(t *testing.T) { fleetOneFetchPerSite(t, startRedis(t)) }

// TestFleet_Cluster_OneFetchPerSite is TestFleet_OneFetchPerSite on a Redis
// Cluster of three masters.
func TestFleet_Cluster_OneFetchPerSite(t *testing.T) { fleetOneFetchPerSite(t, startCluster(t)) }

func fleetOneFetchPerSite(t *testing.T, srv fleetRedis) {
	const sites, delay = 12, 150 * time.Millisecond
	var plain []*fleetSite
	for i := 0; i < sites; i++ {
		plain = append(plain, newFleetSite(t, 0))
	}
	slow := newFleetSite(t, delay)
	urls := append(fleetURLs(plain, 1), fleetURLs([]*fleetSite{slow}, 2)...)
	spec := srv.spec(urls)
	ctx, cancel := context.WithTimeout(context.Background(), fleetTestTimeout)
	defer cancel()
	all := append([]*fleetSite{slow}, plain...)
	fetches := func() (n int) {
		for _, s := range all {
			n += s.robotsFetches()
		}
		return n
	}

	for _, name := range []string{"first run", "after every node restarted"} {
		slow.mu.Lock()
		slow.pages = nil // the gaps of this run only
		slow.mu.Unlock()
		ws := startFleet(ctx, t, fleetNodes, spec)
		proceed(t, ws)
		answers, ends := phase(t, ws, nil)
		wait(t, ws)
		checkAnswers(t, answers, fleetNodes*len(urls), false, all...)
		gap, n := smallestGap(answers, slow)
		if n != fleetNodes*2 || gap < delay {
			t.Errorf("%s: %d requests to the crawl-delayed site, smallest gap %v; want %d, at least %v", name, n, gap, fleetNodes*2, delay)
		}
		var hits, waits, saves, fetched, retried int64
		for _, e := range ends {
			if e.Client == nil {
				continue // the worker failed: reported
			}
			hits, waits, saves, fetched = hits+e.Client.StoreHits, waits+e.Client.StoreWaits, saves+e.Client.StoreSaves, fetched+e.Client.Fetches
			retried += e.Pacer.Retried
			if e.Client.StoreErrors != 0 || e.Transport.PacerFallbacks != 0 {
				t.Errorf("%s: a node met Redis errors: %+v %+v", name, e.Client, e.Transport)
			}
		}
		for _, w := range ws {
			if w.errs.Len() > 0 {
				t.Logf("%s: a node said: %s", name, w.errs.String())
			}
		}
		// Once in all: the restarted nodes fetch none.
		if got := fetches(); got != len(all) {
			t.Errorf("%s: robots.txt fetched %d times in all for %d sites, want %d", name, got, len(all), len(all))
		}
		t.Logf("%s: %d nodes, %d sites: %d robots.txt fetches in all (nodes: %d fetches, %d store hits, %d waits, %d saves); "+
			"crawl-delay %v: smallest gap %v between %d requests as the nodes sent them, %v as the site saw them (%d turns asked again)",
			name, fleetNodes, len(all), fetches(), fetched, hits, waits, saves, delay, gap, n, serverGap(slow), retried)
	}
}

// TestFleet_RedisKilledMidRun kills Redis while a fleet of four processes
// crawls: every request is still answered within its timeout as the sites'
// robots.txt says, and no process is lost; each node fetches and paces on
// its own meanwhile. Redis then restarts empty, and the nodes share again
// by themselves.
func TestFleet_RedisKilledMidRun(t *testing.T) { fleetRedisKilled(t, startRedis(t)) }

// TestFleet_Cluster_MasterKilledMidRun is TestFleet_RedisKilledMidRun on a
// Redis Cluster of three masters, one of which is killed, the one that
// holds the crawl-delayed site's turns: the calls for its slots fail at
// once, and every call once the others find it failing, and the nodes go
// on alone as with a dead server.
func TestFleet_Cluster_MasterKilledMidRun(t *testing.T) { fleetRedisKilled(t, startCluster(t)) }

func fleetRedisKilled(t *testing.T, srv fleetRedis) {
	const delay = 100 * time.Millisecond
	var before, after []*fleetSite
	for i := 0; i < 8; i++ {
		before = append(before, newFleetSite(t, 0))
		after = append(after, newFleetSite(t, 0))
	}
	slow := newFleetSite(t, delay)
	first := append(fleetURLs(before, 2), fleetURLs([]*fleetSite{slow}, 2)...)
	second := fleetURLs(after, 1)
	spec := srv.spec(first, second)
	ctx, cancel := context.WithTimeout(context.Background(), fleetTestTimeout)
	defer cancel()
	ws := startFleet(ctx, t, fleetNodes, spec)
	proceed(t, ws)

	// Kill Redis once a quarter of the first phase is answered.
	var mu sync.Mutex
	answered, killed := 0, false
	answers, ends := phase(t, ws, func(l workerLine) {
		mu.Lock()
		defer mu.Unlock()
		if answered++; !killed && answered >= fleetNodes*len(first)/4 {
			srv.KillFor(slow.URL)
			killed = true
		}
	})
	checkAnswers(t, answers, fleetNodes*len(first), true, append(before, slow)...)
	var errs, fallbacks, fetched int64
	for _, e := range ends {
		if e.Client == nil {
			t.FailNow() // the worker failed: reported
		}
		errs, fallbacks, fetched = errs+e.Client.StoreErrors, fallbacks+e.Transport.PacerFallbacks, fetched+e.Client.Fetches
	}
	switch {
	case srv.Whole() && errs == 0:
		t.Errorf("no node counted a Store error after Redis was killed: %+v", ends)
	case !srv.Whole() && fallbacks == 0: // the lookups after the kill may all be answered by the other masters
		t.Errorf("no node paced by itself after the master of the crawl-delayed site's turns was killed: %+v", ends)
	}
	t.Logf("Redis killed after %d of %d answers: all %d answered, %d store errors, %d pacer fallbacks, %d robots.txt fetches by the nodes for %d sites",
		fleetNodes*len(first)/4, fleetNodes*len(first), len(answers), errs, fallbacks, fetched, len(before)+1)

	// Redis restarts empty; once the nodes' back-off (two seconds) has
	// passed, they share again.
	srv.RestartKilled()
	time.Sleep(pacerDownFor + 500*time.Millisecond)
	proceed(t, ws)
	answers, ends2 := phase(t, ws, nil)
	wait(t, ws)
	checkAnswers(t, answers, fleetNodes*len(second), false, after...)
	for i, e := range ends2 {
		if e.Client == nil {
			continue // the worker failed: reported
		}
		if e.Client.StoreHits+e.Client.StoreSaves == ends[i].Client.StoreHits+ends[i].Client.StoreSaves {
			t.Errorf("a node did not use Redis after its restart: before %+v, after %+v", ends[i].Client, e.Client)
		}
	}
	var fetches int
	for _, s := range after {
		fetches += s.robotsFetches()
	}
	// The records of the new sites are all there (a cluster's masters that
	// were not killed also keep some of the first phase's).
	keys := srv.Keys("fleet:*:record")
	saved := 0
	for _, k := range keys {
		for _, s := range after {
			if k == key("fleet:", s.URL, "record") {
				saved++
			}
		}
	}
	if saved != len(after) {
		t.Errorf("the restarted Redis holds records of %d of the %d new sites", saved, len(after))
	}
	t.Logf("after the restart: %d robots.txt fetches in all for %d new sites, %d records in Redis, %d of them the new sites'", fetches, len(after), len(keys), saved)
}

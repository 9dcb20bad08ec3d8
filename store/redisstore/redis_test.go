package redisstore

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// requireRedisEnv names the environment variable that, set to 1, makes the
// tests that need a redis-server fail instead of skipping when it cannot
// start: .ci/run sets it, so that CI never passes without them.
const requireRedisEnv = "ROBOTSTXT_REQUIRE_REDIS"

// redisStartTimeout bounds how long a test waits for a redis-server it
// started to answer: it starts in milliseconds, and ten seconds cover a
// machine busy with other test binaries.
const redisStartTimeout = 10 * time.Second

// redisServer is a redis-server that a test started on a free loopback
// port, without persistence (--save "" --appendonly no), so that a
// restart starts it empty. Cleanup kills it.
type redisServer struct {
	t    *testing.T
	path string
	dir  string
	addr string
	args []string // more arguments of redis-server (a cluster node's)

	mu  sync.Mutex
	cmd *exec.Cmd
	out *bytes.Buffer
}

// startRedis starts a redis-server for t, or skips t (fails it, with
// ROBOTSTXT_REQUIRE_REDIS=1) when there is none.
func startRedis(t *testing.T) *redisServer {
	t.Helper()
	return newRedisServer(t, redisPath(t))
}

// redisPath returns the path of redis-server, or skips t (fails it, with
// ROBOTSTXT_REQUIRE_REDIS=1) when there is none.
func redisPath(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv(requireRedisEnv) == "1" {
			t.Fatalf("redis-server is not installed, and %s=1: install it (apt-get install -y redis-server)", requireRedisEnv)
		}
		t.Skip("redis-server is not installed (apt-get install -y redis-server); set " + requireRedisEnv + "=1 to fail instead")
	}
	return path
}

// newRedisServer starts the redis-server at path with args on a free
// loopback port, in a directory of its own.
func newRedisServer(t *testing.T, path string, args ...string) *redisServer {
	t.Helper()
	s := &redisServer{t: t, path: path, dir: t.TempDir(), args: args}
	t.Cleanup(s.Kill)
	for try := 0; ; try++ {
		s.addr = freeAddr(t)
		err := s.start()
		if err == nil {
			return s
		}
		if try == 2 { // the port was taken between freeAddr and the start, three times
			t.Fatalf("redis-server did not start: %v", err)
		}
	}
}

// freeAddr returns a loopback address with a port that was free a moment
// ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// start starts redis-server on s.addr and waits until it answers.
func (s *redisServer) start() error {
	_, port, _ := net.SplitHostPort(s.addr)
	cmd := exec.Command(s.path, append([]string{"--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
		"--daemonize", "no", "--dir", s.dir, "--loglevel", "warning"}, s.args...)...)
	out := &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	setPdeathsig(cmd)
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	s.mu.Lock()
	s.cmd, s.out = cmd, out
	s.mu.Unlock()

	rdb := redis.NewClient(&redis.Options{Addr: s.addr, DialTimeout: 100 * time.Millisecond, MaxRetries: -1})
	defer rdb.Close()
	deadline := time.Now().Add(redisStartTimeout)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		err := rdb.Ping(ctx).Err()
		cancel()
		if err == nil {
			go func() { <-exited }()
			return nil
		}
		select {
		case err := <-exited:
			return fmt.Errorf("redis-server exited (%v): %s", err, out.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			return fmt.Errorf("redis-server did not answer within %v: %s", redisStartTimeout, out.String())
		}
	}
}

// Kill kills the server, as a crash would.
func (s *redisServer) Kill() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		_ = s.cmd.Process.Signal(syscall.SIGCONT) // a stopped server dies too
		_ = s.cmd.Process.Kill()
		s.cmd = nil
	}
}

// Restart starts the server again on the same address, empty.
func (s *redisServer) Restart() {
	s.t.Helper()
	s.Kill()
	deadline := time.Now().Add(redisStartTimeout)
	for {
		err := s.start()
		if err == nil {
			return
		}
		if time.Now().After(deadline) { // the killed server's port may take a moment to free
			s.t.Fatalf("redis-server did not restart on %s: %v", s.addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Stop stops the server (SIGSTOP): it holds its connections and answers
// nothing, as a server that is stuck does. Cont resumes it.
func (s *redisServer) Stop() { s.signal(syscall.SIGSTOP) }

// Cont resumes a stopped server.
func (s *redisServer) Cont() { s.signal(syscall.SIGCONT) }

func (s *redisServer) signal(sig syscall.Signal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		_ = s.cmd.Process.Signal(sig)
	}
}

// Client returns a client of the server, closed by Cleanup, that bounds
// each call by its context.
func (s *redisServer) Client() *redis.Client {
	rdb := redis.NewClient(&redis.Options{Addr: s.addr, ContextTimeoutEnabled: true})
	s.t.Cleanup(func() { rdb.Close() })
	return rdb
}

// Package boltstore keeps the robots.txt records of one crawler node in a
// file, so that the node fetches nothing again when it restarts that the
// file still has: a fetch.Store on bbolt (go.etcd.io/bbolt), an embedded
// key-value database. It is a module of its own, so that the library's
// go.mod needs no database.
//
//	st, err := boltstore.Open("robots.db", boltstore.Options{})
//	if err != nil { ... }
//	defer st.Close()
//	client := fetch.New(fetch.Options{Store: st})
//
// A file is open in one process at a time (bbolt locks it), so the Store
// serves one node; a fleet shares a Redis (package store/redisstore). Its
// leases always succeed: the Client's own single flight is all one process
// needs.
//
// Each record is kept with its expiry (the TTL the Client gives it: 30
// days after the site last answered, with the defaults); an expired one is
// not returned, and expired ones are deleted when the Store opens and every
// few hundred saves.
package boltstore

import (
	"context"
	"encoding/binary"
	"fmt"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/seed-275a9bd5/robotstxt/engine/fetch"
)

// DefaultOpenTimeout bounds how long Open waits for the file's lock
// (Options.OpenTimeout): a second is more than a process that is closing
// it needs, while another process that keeps it open would hold Open for
// ever.
const DefaultOpenTimeout = time.Second

// sweepEvery is the number of saves between two sweeps of the expired
// records: a sweep reads every record's expiry (a few milliseconds for
// 10,000 records), and a crawler saves a record per robots.txt fetch, so
// a thousand keeps the sweeps rare and the file within a thousand dead
// records of its live ones.
const sweepEvery = 1000

// bucket holds the records: key the Client's (an origin, or an origin's
// tdmrep.json URL), value the expiry (8 bytes, Unix
// ns, big-endian) and the record.
var bucket = []byte("robotstxt-records")

// Options configure Open. The zero value is valid.
type Options struct {
	// OpenTimeout bounds the wait for the file's lock (DefaultOpenTimeout).
	OpenTimeout time.Duration
	// NoSync skips the fsync after each save: faster, and a crash of the
	// machine (not of the process) may lose the last saves, which are
	// fetched again.
	NoSync bool
}

// Store is a fetch.Store in a bbolt file. It is safe for concurrent use.
type Store struct {
	db    *bolt.DB
	saves atomic.Int64
}

var _ fetch.Store = (*Store)(nil)

// Open opens (or creates) the file at path and deletes its expired
// records. It fails when another process holds the file past
// Options.OpenTimeout, or when the file is not a bbolt database.
func Open(path string, opts Options) (*Store, error) {
	timeout := opts.OpenTimeout
	if timeout <= 0 {
		timeout = DefaultOpenTimeout
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: timeout, NoSync: opts.NoSync})
	if err != nil {
		return nil, fmt.Errorf("boltstore: opening %s: %w", path, err)
	}
	s := &Store{db: db}
	if err := db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucket)
		if err != nil {
			return err
		}
		return sweep(b, time.Now())
	}); err != nil {
		db.Close()
		return nil, fmt.Errorf("boltstore: %s: %w", path, err)
	}
	return s, nil
}

// Close closes the file. Calls after Close fail.
func (s *Store) Close() error { return s.db.Close() }

// Load returns the record saved for origin, nil when there is none or it
// expired. A record longer than max bytes is not returned: the error wraps
// fetch.ErrRecordTooLarge. A value too short to hold an expiry is returned
// as an empty record, which the Client rejects.
func (s *Store) Load(ctx context.Context, origin string, max int) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var rec []byte
	err := s.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucket).Get([]byte(origin))
		switch {
		case v == nil:
			return nil
		case len(v) < 8:
			rec = []byte{}
			return nil
		case time.Now().UnixNano() >= int64(binary.BigEndian.Uint64(v)):
			return nil // expired
		case len(v)-8 > max:
			return fmt.Errorf("%w: %d bytes for %s, more than %d", fetch.ErrRecordTooLarge, len(v)-8, origin, max)
		}
		rec = append([]byte{}, v[8:]...) // v is valid only inside the transaction
		return nil
	})
	return rec, err
}

// Save saves record for origin, for ttl.
func (s *Store) Save(ctx context.Context, origin string, record []byte, ttl time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	now := time.Now()
	v := binary.BigEndian.AppendUint64(make([]byte, 0, 8+len(record)), uint64(now.Add(ttl).UnixNano()))
	v = append(v, record...)
	sweepNow := s.saves.Add(1)%sweepEvery == 0
	return s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucket)
		if err := b.Put([]byte(origin), v); err != nil {
			return err
		}
		if sweepNow {
			return sweep(b, now)
		}
		return nil
	})
}

// Lease reports true: one process uses the file, and the Client's single
// flight covers it.
func (s *Store) Lease(ctx context.Context, origin, token string, ttl time.Duration) (bool, error) {
	return true, ctx.Err()
}

// Release does nothing: see Lease.
func (s *Store) Release(ctx context.Context, origin, token string) error { return nil }

// sweep deletes b's records that expired by now (and values too short to
// hold an expiry).
func sweep(b *bolt.Bucket, now time.Time) error {
	var dead [][]byte
	err := b.ForEach(func(k, v []byte) error {
		if len(v) < 8 || now.UnixNano() >= int64(binary.BigEndian.Uint64(v)) {
			dead = append(dead, append([]byte{}, k...))
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, k := range dead {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

package fetch

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"strconv"
	"time"

	"github.com/seed-275a9bd5/robotstxt/engine"
)

// The record of an origin, as a Client saves it in a Store: one byte
// string, the same for every Store, so that nodes of two releases and two
// kinds of store read each other's records.
//
//	"RTXR"              4 bytes, the magic
//	version             1 byte, recordVersion
//	fields              tag (uvarint), length (uvarint), value; in any order
//	CRC-32C             4 bytes, big-endian, of everything before it
//
// A reader skips the tags it does not know, so a release that adds a field
// keeps its records readable by the release before; a change that an older
// reader could not skip takes a new version, and a reader ignores a record
// of a version it does not know (Stats.StoreRejected) and fetches itself.
// The checksum makes a record cut short or altered in the store a record
// that is ignored, never one that is misread: a bad record never becomes
// allow-all.
const (
	recordMagic   = "RTXR"
	recordVersion = 1
)

// recordOverhead bounds what a record holds besides the body: its robots.txt
// URL (under 300 bytes: maxHostLength and a port), two URLs cut to
// MaxURLLength, an error text cut to MaxErrorLength, two validators cut to
// maxValidatorLength, and a few numbers with their tags: under 10 KiB, so 16
// KiB. A record is at most the body read (the file size limit plus one
// byte) and this; the Client passes that bound to Store.Load, and a longer
// record is not read.
const recordOverhead = 16 << 10

// maxRecordFailures bounds the count of failed fetches in a row that a
// record may say: a million is more than a retry a minute for the longest
// MaxStale anyone sets, and the count only lengthens the retry wait, which
// MaxRetryTTL caps anyway.
const maxRecordFailures = 1 << 20

// Record field tags. The current result (tags 1 to 13) and, when the
// origin has one, the last fetched copy (tags 20 to 27, present with 20).
const (
	tagFileURL = 1 + iota
	tagSemantics
	tagSource
	tagStatus
	tagFinalURL
	tagRedirects
	tagExpires
	tagErr
	tagAt
	tagReached
	tagDownSince
	tagFailures
	tagErrKinds
)

const (
	tagBody = 20 + iota
	tagTruncated
	tagGoodFetched
	tagGoodStatus
	tagGoodFinalURL
	tagGoodRedirects
	tagETag
	tagLastModified
	tagMax // the first tag not known
)

var crc32c = crc32.MakeTable(crc32.Castagnoli)

// Why a record is ignored; each counts in Stats.StoreRejected.
var (
	errRecordCorrupt   = errors.New("corrupt record")
	errRecordVersion   = errors.New("record of another format version")
	errRecordSemantics = errors.New("record of another semantics")
	errRecordOrigin    = errors.New("record of another origin")
)

// record is a decoded record: the current result and what the entry
// remembers across fetches (see entry), with the last fetched copy.
type record struct {
	fileURL   string // the file's URL: the origin's robots.txt, or its tdmrep.json (TDMReps)
	semantics engine.Semantics
	source    Source
	status    int
	finalURL  string
	redirects int
	expires   time.Time
	err       string
	errKinds  uint64    // which of keptSentinels the error is (bit i: keptSentinels[i])
	at        time.Time // when the attempt that made the current result was made
	reached   time.Time
	downSince time.Time
	failures  int

	hasGood      bool
	body         []byte
	truncated    bool
	goodFetched  time.Time
	goodStatus   int
	goodFinalURL string
	goodRedirect int
	etag         string
	lastModified string
}

// encodeRecord returns the record of an entry whose current state is cur
// and last fetched copy good (nil when none).
func encodeRecord(rec *record) []byte {
	n := 5 + 4 + len(rec.fileURL) + len(rec.finalURL) + len(rec.err) + len(rec.goodFinalURL) +
		len(rec.etag) + len(rec.lastModified) + len(rec.body) + 20*binary.MaxVarintLen64
	b := make([]byte, 0, n)
	b = append(b, recordMagic...)
	b = append(b, recordVersion)
	b = appendString(b, tagFileURL, rec.fileURL)
	b = appendUint(b, tagSemantics, uint64(rec.semantics))
	b = appendUint(b, tagSource, uint64(rec.source))
	b = appendUint(b, tagStatus, uint64(max(rec.status, 0)))
	b = appendString(b, tagFinalURL, rec.finalURL)
	b = appendUint(b, tagRedirects, uint64(max(rec.redirects, 0)))
	b = appendTime(b, tagExpires, rec.expires)
	b = appendString(b, tagErr, rec.err)
	b = appendTime(b, tagAt, rec.at)
	b = appendTime(b, tagReached, rec.reached)
	b = appendTime(b, tagDownSince, rec.downSince)
	b = appendUint(b, tagFailures, uint64(max(rec.failures, 0)))
	b = appendUint(b, tagErrKinds, rec.errKinds)
	if rec.hasGood {
		b = binary.AppendUvarint(b, tagBody)
		b = binary.AppendUvarint(b, uint64(len(rec.body)))
		b = append(b, rec.body...)
		if rec.truncated {
			b = appendUint(b, tagTruncated, 1)
		}
		b = appendTime(b, tagGoodFetched, rec.goodFetched)
		b = appendUint(b, tagGoodStatus, uint64(max(rec.goodStatus, 0)))
		b = appendString(b, tagGoodFinalURL, rec.goodFinalURL)
		b = appendUint(b, tagGoodRedirects, uint64(max(rec.goodRedirect, 0)))
		b = appendString(b, tagETag, rec.etag)
		b = appendString(b, tagLastModified, rec.lastModified)
	}
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b, crc32c))
}

// appendString appends a string field; an empty string is left out.
func appendString(b []byte, tag uint64, s string) []byte {
	if s == "" {
		return b
	}
	b = binary.AppendUvarint(b, tag)
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// appendUint appends a number field; zero is left out.
func appendUint(b []byte, tag, v uint64) []byte {
	if v == 0 {
		return b
	}
	var buf [binary.MaxVarintLen64]byte
	n := binary.PutUvarint(buf[:], v)
	b = binary.AppendUvarint(b, tag)
	b = binary.AppendUvarint(b, uint64(n))
	return append(b, buf[:n]...)
}

// appendTime appends a time field, in Unix nanoseconds; the zero time is
// left out.
func appendTime(b []byte, tag uint64, t time.Time) []byte {
	if t.IsZero() {
		return b
	}
	var buf [binary.MaxVarintLen64]byte
	n := binary.PutVarint(buf[:], t.UnixNano())
	b = binary.AppendUvarint(b, tag)
	b = binary.AppendUvarint(b, uint64(n))
	return append(b, buf[:n]...)
}

// decodeRecord reads a record's fields. It checks the frame (magic,
// version, checksum, field lengths) and that each known field appears at
// most once with a value of its type; checkRecord checks what the fields
// say. rec keeps no reference to b but its body.
func decodeRecord(b []byte) (*record, error) {
	if len(b) < len(recordMagic)+1+4 || string(b[:len(recordMagic)]) != recordMagic {
		return nil, errRecordCorrupt
	}
	body, sum := b[:len(b)-4], binary.BigEndian.Uint32(b[len(b)-4:])
	if crc32.Checksum(body, crc32c) != sum {
		return nil, errRecordCorrupt
	}
	if v := body[len(recordMagic)]; v != recordVersion {
		return nil, errors.New(errRecordVersion.Error() + " (" + strconv.Itoa(int(v)) + ", this release reads " + strconv.Itoa(recordVersion) + ")")
	}
	rec := &record{}
	var seen [tagMax]bool
	p := body[len(recordMagic)+1:]
	for len(p) > 0 {
		tag, n := binary.Uvarint(p)
		if n <= 0 {
			return nil, errRecordCorrupt
		}
		p = p[n:]
		size, n := binary.Uvarint(p)
		if n <= 0 || size > uint64(len(p)-n) {
			return nil, errRecordCorrupt
		}
		v := p[n : n+int(size)]
		p = p[n+int(size):]
		if tag >= tagMax {
			continue // a field of a later release
		}
		if seen[tag] {
			return nil, errRecordCorrupt
		}
		seen[tag] = true
		if !rec.set(tag, v) {
			return nil, errRecordCorrupt
		}
	}
	return rec, nil
}

// set stores the field tag of value v in rec; it reports false when v is
// not a value of the field's type.
func (rec *record) set(tag uint64, v []byte) bool {
	switch tag {
	case tagFileURL:
		rec.fileURL = string(v)
	case tagFinalURL:
		rec.finalURL = string(v)
	case tagErr:
		rec.err = string(v)
	case tagGoodFinalURL:
		rec.goodFinalURL = string(v)
	case tagETag:
		rec.etag = string(v)
	case tagLastModified:
		rec.lastModified = string(v)
	case tagBody:
		rec.hasGood, rec.body = true, v
	case tagExpires:
		return timeField(v, &rec.expires)
	case tagAt:
		return timeField(v, &rec.at)
	case tagReached:
		return timeField(v, &rec.reached)
	case tagDownSince:
		return timeField(v, &rec.downSince)
	case tagGoodFetched:
		return timeField(v, &rec.goodFetched)
	case tagSemantics:
		return uintField(v, &rec.semantics)
	case tagSource:
		return uintField(v, &rec.source)
	case tagStatus:
		return uintField(v, &rec.status)
	case tagRedirects:
		return uintField(v, &rec.redirects)
	case tagFailures:
		return uintField(v, &rec.failures)
	case tagErrKinds:
		return uintField(v, &rec.errKinds)
	case tagTruncated:
		var n uint8
		ok := uintField(v, &n)
		rec.truncated = n != 0
		return ok
	case tagGoodStatus:
		return uintField(v, &rec.goodStatus)
	case tagGoodRedirects:
		return uintField(v, &rec.goodRedirect)
	default: // a number this release does not use (tags 0, 14 to 19)
		var n uint64
		return uintField(v, &n)
	}
	return true
}

// timeField reads a time field (a varint of Unix nanoseconds) into t.
func timeField(v []byte, t *time.Time) bool {
	n, k := binary.Varint(v)
	if k != len(v) || k == 0 {
		return false
	}
	*t = time.Unix(0, n)
	return true
}

// uintField reads a number field (a uvarint, at most 2^31) into p.
func uintField[T ~int | ~uint8 | ~uint64](v []byte, p *T) bool {
	n, k := binary.Uvarint(v)
	if k != len(v) || k == 0 || n > 1<<31 {
		return false
	}
	*p = T(n)
	return true
}

// checkRecord checks what a decoded record says against the Client that
// reads it, for the file at fileURL (a robots.txt or a tdmrep.json): its
// URL, semantics, a source a
// Client saves with what that source needs (a copy for Fetched and Stale;
// ForbiddenDefault only in Koster1996), texts within their limits, and the
// times set that the source needs. It cuts a body longer than this
// Client's file size limit (as a fetch would have) and the freshness to the
// longest this Client gives, counted from the fetch or from now, whichever
// is earlier (a node whose clock is ahead cannot make a record fresh for
// longer).
func (c *Client) checkRecord(rec *record, fileURL string) error {
	switch {
	case rec.fileURL != fileURL:
		return errRecordOrigin
	case rec.semantics != c.engineOpts.Semantics:
		return errors.New(errRecordSemantics.Error() + " (" + rec.semantics.String() + ")")
	}
	switch rec.source {
	case Fetched, Stale:
		if !rec.hasGood || rec.goodFetched.IsZero() {
			return errRecordCorrupt
		}
	case UnreachableDefault, UnavailableDefault:
	case ForbiddenDefault:
		if c.engineOpts.Semantics != engine.Koster1996 {
			return errRecordCorrupt
		}
	default:
		return errRecordCorrupt
	}
	if rec.expires.IsZero() || rec.at.IsZero() || rec.failures > maxRecordFailures ||
		rec.redirects > 1<<10 || rec.goodRedirect > 1<<10 ||
		len(rec.finalURL) > MaxURLLength || len(rec.goodFinalURL) > MaxURLLength ||
		len(rec.err) > MaxErrorLength || len(rec.etag) > maxValidatorLength || len(rec.lastModified) > maxValidatorLength {
		return errRecordCorrupt
	}
	if limit := c.maxFileSize + 1; len(rec.body) > limit {
		rec.body, rec.truncated = rec.body[:limit], true
	}
	// Counted from the fetch, or from now when the writer's clock was
	// ahead of this node's.
	from := rec.at
	if now := c.now(); now.Before(from) {
		from = now
	}
	if end := from.Add(max(c.ttl, c.maxTTL, c.maxRetryTTL)); rec.expires.After(end) {
		rec.expires = end
	}
	return nil
}

// snapshot is what a record is made of, taken from an entry under the
// Client's lock: the states are immutable, the rest is copied.
type snapshot struct {
	fileURL            string
	st, good           *state
	reached, downSince time.Time
	failures           int
}

// record returns the record of s for semantics sem.
func (s *snapshot) record(sem engine.Semantics) *record {
	res := &s.st.res
	rec := &record{
		fileURL: s.fileURL, semantics: sem, source: res.Source,
		status: res.Status, finalURL: res.FinalURL, redirects: res.Redirects,
		expires: res.Expires, at: s.st.at,
		reached: s.reached, downSince: s.downSince, failures: s.failures,
	}
	if res.Err != nil {
		rec.err = res.Err.Error()
		for i, k := range keptSentinels {
			if errors.Is(res.Err, k) {
				rec.errKinds |= 1 << i
			}
		}
	}
	if g := s.good; g != nil && g.body != nil {
		rec.hasGood, rec.body, rec.truncated = true, g.body, g.res.Truncated
		rec.goodFetched, rec.goodStatus = g.res.Fetched, g.res.Status
		rec.goodFinalURL, rec.goodRedirect = g.res.FinalURL, g.res.Redirects
		rec.etag, rec.lastModified = g.etag, g.lastModified
	}
	return rec
}

// keep returns how long rec is worth keeping in a Store after now: while it
// is fresh, while its copy may be used stale, and while the 30-day rule
// counts from when the site last answered (or first failed); 0 when it is
// worth nothing.
func (c *Client) keep(rec *record, now time.Time) time.Duration {
	end := rec.expires
	if rec.hasGood {
		end = later(end, rec.goodFetched.Add(c.maxStale))
	}
	if since := rec.reached; !since.IsZero() || !rec.downSince.IsZero() {
		if since.IsZero() {
			since = rec.downSince
		}
		end = later(end, since.Add(c.maxStale))
	}
	return max(end.Sub(now), 0)
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// recordError is the error of a result read from a record: its text, and
// the sentinels of keptSentinels that kinds names (a DNS or certificate
// error's details are not kept).
func recordError(text string, kinds uint64) error {
	if text == "" {
		return nil
	}
	e := &fetchError{text: text}
	for i, k := range keptSentinels {
		if kinds&(1<<i) != 0 {
			e.causes = append(e.causes, k)
		}
	}
	return e
}

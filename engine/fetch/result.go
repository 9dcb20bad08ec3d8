package fetch

import (
	"strconv"
	"time"

	"github.com/seed-275a9bd5/robotstxt/engine"
)

// Source says where the rules of a Result came from, so that a crawler can
// log why it may or may not crawl a site.
type Source uint8

const (
	// NoSource is the zero Source: the lookup failed (bad URL, cancelled
	// context) and the Result holds no rules.
	NoSource Source = iota
	// Fetched: the robots.txt was fetched by this lookup (or by the
	// concurrent lookup it waited for) with a 2xx status and parsed, or
	// the copy in hand was renewed by a 304 Not Modified to a conditional
	// request (Result.Status is then 304).
	Fetched
	// Cached: a fresh copy of a fetched robots.txt was in the cache, or
	// in the Client's Store (fetched by another node or before a restart).
	Cached
	// Stale: the robots.txt is unreachable now, and the last copy fetched
	// within Options.MaxStale (30 days unless set) is used, as RFC 9309
	// sections 2.3.1.4 and 2.4 allow.
	// Result.Err says why the fetch failed; Result.Fetched is when the copy was
	// fetched.
	Stale
	// UnreachableDefault: the robots.txt is unreachable (429, 5xx, an
	// undefined status such as a final 1xx, timeout, DNS, connection, TLS or
	// transfer error) and there is no usable copy: everything is disallowed
	// until the next attempt.
	UnreachableDefault
	// UnavailableDefault: there is no robots.txt (4xx other than 429, a 3xx
	// that was not followed, more than Options.MaxRedirects redirects), or it
	// has been unreachable for longer than Options.MaxStale with no copy
	// (then Result.Err is set): everything is allowed.
	UnavailableDefault
	// ForbiddenDefault: in Koster1996 semantics only, the server answered
	// 401 or 403: everything is disallowed (the 1996 draft's reading).
	ForbiddenDefault
)

var sourceNames = [...]string{
	NoSource:           "none",
	Fetched:            "fetched",
	Cached:             "cached",
	Stale:              "stale",
	UnreachableDefault: "unreachable-default",
	UnavailableDefault: "unavailable-default",
	ForbiddenDefault:   "forbidden-default",
}

// String returns the source's short name: "fetched", "cached", "stale",
// "unreachable-default", "unavailable-default", "forbidden-default" or
// "none".
func (s Source) String() string {
	if int(s) < len(sourceNames) {
		return sourceNames[s]
	}
	return "Source(" + strconv.Itoa(int(s)) + ")"
}

// Result is the outcome of one lookup: the rules to apply and where they came
// from. It is a plain value; Robots and Matcher are immutable and safe for
// concurrent use.
type Result struct {
	// Robots holds the rules: the parsed robots.txt for Fetched, Cached and
	// Stale, engine.AllowAll for UnavailableDefault, engine.DisallowAll for
	// UnreachableDefault and ForbiddenDefault. It is nil with NoSource, and
	// when the Client has Options.Agents (Matcher holds the rules then).
	Robots *engine.Robots
	// Matcher holds the rules when the Client has Options.Agents: the
	// matcher of the Client's crawler, compiled by engine.CompileFor from
	// the robots.txt for Fetched, Cached and Stale, of engine.AllowAll or
	// engine.DisallowAll for the defaults (as for Robots). It is nil with
	// NoSource, and when Options.Agents is not set.
	Matcher *engine.Matcher
	// Source says where the rules came from.
	Source Source
	// Hit reports whether the lookup was answered from the cache, or from
	// the Client's Store, without a request (Cached, and cached Stale or
	// default results).
	Hit bool
	// RobotsURL is the robots.txt URL, the cache key (see RobotsURL).
	RobotsURL string
	// FinalURL is the URL the last response came from, after redirects; ""
	// when no response was received. It is cut to MaxURLLength (ending in
	// "...") when longer.
	FinalURL string
	// Redirects is the number of redirects followed.
	Redirects int
	// Status is the HTTP status of the last response, 0 when there was none
	// (timeout, DNS, connection or TLS error). For Stale it is the status of
	// the failed fetch.
	Status int
	// Size is the number of body bytes parsed, at most the file size
	// limit (of a Stale result: of the copy).
	Size int
	// Truncated reports whether the body was longer than the file size limit
	// (only the first part was read and parsed).
	Truncated bool
	// Warnings say what a crawler should know about the file as a whole
	// (engine.Robots.Warnings: UTF-16, binary bytes, an HTML page or JSON
	// document served as robots.txt, a cut file, no user-agent line), for
	// Fetched, Cached and Stale (of the copy); nil for the defaults, for
	// most files, and with Options.Agents (engine.CompileFor reads none).
	// It is shared: callers must not modify it.
	Warnings []engine.Warning
	// Fetched is when the rules were fetched: for Stale, when the copy was
	// fetched; for defaults, when the attempt that led to them was made.
	Fetched time.Time
	// Expires is when the rules stop being fresh: the next lookup after it
	// fetches again.
	Expires time.Time
	// Err is why the fetch failed (Stale, UnreachableDefault, and
	// UnavailableDefault after a redirect that was not followed or too long
	// unreachable); nil otherwise. Its text is at most MaxErrorLength bytes
	// whatever the server sent; errors.Is finds context.DeadlineExceeded,
	// context.Canceled and ErrClosed, and errors.As a *net.DNSError or
	// *tls.CertificateVerificationError (small copies: the error net/http
	// returned is not kept). Of a result read from a Store, the text and
	// what errors.Is finds are kept; errors.As finds nothing.
	Err error
}

// Allowed reports whether r's rules allow the crawler with product token
// agent to fetch pageURL. It reports false when r holds no rules, and when
// it holds only a crawler's Matcher (Options.Agents) and agent is another
// crawler (engine.Matcher.IsFor): that matcher holds none of the other
// crawler's groups, so it fails closed rather than answer for it.
func (r *Result) Allowed(agent, pageURL string) bool {
	if r.Robots != nil {
		return r.Robots.Allowed(agent, pageURL)
	}
	if r.Matcher != nil && r.Matcher.IsFor(agent) {
		return r.Matcher.Allowed(pageURL)
	}
	return false
}

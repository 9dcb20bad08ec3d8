package engine

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/seed-275a9bd5/robotstxt/compile"
)

// MaxCrawlDelay caps the crawl-delay Extensions.CrawlDelay returns: five
// minutes, the default up to which Heritrix (the Internet Archive's crawler)
// honours crawl-delay. At that pace a crawler still fetches 288 URLs a day
// from the site; a larger value ("Crawl-delay: 86400", or a number too large
// for a time.Duration) would stall a fetch queue for hours and is more
// likely a mistake or a way of saying "go away", which Disallow says
// better. A crawler that wants another cap uses CrawlDelayAtMost.
const MaxCrawlDelay = 5 * time.Minute

// Extensions are the extension lines of the groups selected for a crawler,
// read into types (docs/SEMANTICS.md gives each key's sources). They never
// change a decision: a crawler may use them to pace itself and to
// canonicalise URLs.
//
// Each list keeps every valid line of its key, in file order, with its line
// number. A line of a known key whose value cannot be read is in Invalid
// (the parser reports a crawl-delay that is no number; package engine/lint
// reports the others); lines of other keys are in Other, as written.
type Extensions struct {
	CrawlDelays    []CrawlDelay
	RequestRates   []RequestRate
	VisitTimes     []VisitTime
	Hosts          []Host
	CleanParams    []CleanParam
	ContentSignals []ContentSignal // one per key=value pair
	Invalid        []Extension
	Other          []Extension
}

// CrawlDelay is a crawl-delay line: the seconds to wait between two fetches,
// as written (not capped).
type CrawlDelay struct {
	Delay time.Duration
	Line  int
}

// RequestRate is a request-rate line, "Request-rate: N/PERIOD [HHMM-HHMM]"
// as Seznam and (formerly) Yandex read it: at most Requests fetches every
// Per, during Window (UTC) when there is one. PERIOD is a number with an
// optional unit s, m, h or d (seconds when none): "1/10s", "1/10",
// "100/1h", "1/10s 0600-0845".
type RequestRate struct {
	Requests int
	Per      time.Duration
	// Window is when the rate applies; the zero TimeWindow (no window
	// written) means all day.
	Window TimeWindow
	Line   int
}

// Interval returns the time between two fetches that r allows: Per /
// Requests.
func (r RequestRate) Interval() time.Duration { return r.Per / time.Duration(r.Requests) }

// VisitTime is a visit-time line, "Visit-time: HHMM-HHMM": the time of day
// (UTC) in which the site prefers to be crawled.
type VisitTime struct {
	Window TimeWindow
	Line   int
}

// TimeWindow is a time of day range in UTC, from Start up to End, as
// offsets from midnight. End before Start wraps past midnight ("2200-0600").
// The zero TimeWindow stands for all day.
type TimeWindow struct {
	Start, End time.Duration
}

// IsZero reports whether w is the zero TimeWindow (all day).
func (w TimeWindow) IsZero() bool { return w == TimeWindow{} }

// Contains reports whether the time of day of t, in UTC, is in w. The zero
// TimeWindow contains every time.
func (w TimeWindow) Contains(t time.Time) bool {
	if w.IsZero() {
		return true
	}
	t = t.UTC()
	d := time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute +
		time.Duration(t.Second())*time.Second + time.Duration(t.Nanosecond())
	if w.Start <= w.End {
		return w.Start <= d && d < w.End
	}
	return d >= w.Start || d < w.End
}

// String returns w as written in robots.txt, "HHMM-HHMM", or "" for the
// zero TimeWindow.
func (w TimeWindow) String() string {
	if w.IsZero() {
		return ""
	}
	hhmm := func(d time.Duration) string {
		m := int(d / time.Minute)
		return string([]byte{byte('0' + m/600), byte('0' + m/60%10), byte('0' + m%60/10), byte('0' + m%10)})
	}
	return hhmm(w.Start) + "-" + hhmm(w.End)
}

// Host is a host line (Yandex's preferred mirror): a host name, possibly
// with a scheme and a port, as written.
type Host struct {
	Host string
	Line int
}

// CleanParam is a clean-param line, "Clean-param: p1&p2 [PREFIX]" as Yandex
// documents it: the query parameters Params do not change the page of any
// URL whose path starts with Prefix, so a crawler may drop them (see
// Extensions.CleanURL). Prefix may contain '*' (any run of bytes); it always
// matches as a prefix, as if a '*' ended it. An empty Prefix matches every
// path.
type CleanParam struct {
	Params []string
	Prefix string
	Line   int
}

// ContentSignal is one key=value pair of a content-signal line
// ("Content-Signal: search=yes, ai-train=no", Cloudflare's Content Signals
// Policy): how the site wants its content used once fetched. Key is lower
// case; Value is as written ("yes", "no").
type ContentSignal struct {
	Key, Value string
	Line       int
}

// Extensions returns the typed extension lines of the groups m applies (see
// ParseExtensions). It allocates; a crawler calls it once per site and keeps
// the result.
func (m *Matcher) Extensions() Extensions { return ParseExtensions(m.sel.Extensions.Slice()) }

// ParseExtensions reads extension lines (for example Selection.Extensions.Slice())
// into Extensions. Keys are compared lower case, as the parser gives them.
func ParseExtensions(exts []Extension) Extensions {
	var e Extensions
	for _, x := range exts {
		ok := true
		switch x.Key {
		case "crawl-delay":
			var d time.Duration
			if d, ok = compile.ParseCrawlDelay(x.Value); ok {
				e.CrawlDelays = append(e.CrawlDelays, CrawlDelay{Delay: d, Line: x.Line})
			}
		case "request-rate":
			var r RequestRate
			if r, ok = parseRequestRate(x.Value); ok {
				r.Line = x.Line
				e.RequestRates = append(e.RequestRates, r)
			}
		case "visit-time":
			var w TimeWindow
			if w, ok = parseTimeWindow(x.Value); ok {
				e.VisitTimes = append(e.VisitTimes, VisitTime{Window: w, Line: x.Line})
			}
		case "host":
			if ok = x.Value != "" && !strings.ContainsAny(x.Value, " \t"); ok {
				e.Hosts = append(e.Hosts, Host{Host: x.Value, Line: x.Line})
			}
		case "clean-param":
			var c CleanParam
			if c, ok = parseCleanParam(x.Value); ok {
				c.Line = x.Line
				e.CleanParams = append(e.CleanParams, c)
			}
		case "content-signal":
			before := len(e.ContentSignals)
			if e.ContentSignals, ok = appendContentSignals(e.ContentSignals, x.Value, x.Line); !ok {
				e.ContentSignals = e.ContentSignals[:before]
			}
		default:
			e.Other = append(e.Other, x)
		}
		if !ok {
			e.Invalid = append(e.Invalid, x)
		}
	}
	return e
}

// CrawlDelay returns the largest crawl-delay of the selected groups, at most
// MaxCrawlDelay, and whether there is one. When merged groups disagree the
// largest is the polite reading.
func (e Extensions) CrawlDelay() (time.Duration, bool) { return e.CrawlDelayAtMost(MaxCrawlDelay) }

// CrawlDelayAtMost is CrawlDelay with the cap limit instead of MaxCrawlDelay.
func (e Extensions) CrawlDelayAtMost(limit time.Duration) (time.Duration, bool) {
	if len(e.CrawlDelays) == 0 {
		return 0, false
	}
	d := time.Duration(0)
	for _, c := range e.CrawlDelays {
		d = max(d, c.Delay)
	}
	return min(d, limit), true
}

// Host returns the first host line's value, and whether there is one
// (Yandex uses the first).
func (e Extensions) Host() (string, bool) {
	if len(e.Hosts) == 0 {
		return "", false
	}
	return e.Hosts[0].Host, true
}

// ContentSignal returns the value of the first content signal named key
// (ignoring ASCII case, as the signals' decision does), and whether there
// is one.
func (e Extensions) ContentSignal(key string) (string, bool) {
	for _, s := range e.ContentSignals {
		if equalFoldASCII(key, s.Key) { // s.Key is lower case
			return s.Value, true
		}
	}
	return "", false
}

// CleanURL returns url without the query parameters that a clean-param line
// names for its path, so that URLs that differ only in those parameters
// compare equal. url is absolute or a path; its path (without query) is
// compared with each line's prefix as written, byte for byte. A parameter is
// dropped when its name (the part before '=') equals a named parameter
// exactly; the order of the others, the fragment and the rest of url are
// kept, and a query left empty loses its '?'. CleanURL returns url itself
// when it drops nothing.
func (e Extensions) CleanURL(url string) string {
	if len(e.CleanParams) == 0 {
		return url
	}
	rest, frag := url, ""
	if i := strings.IndexByte(url, '#'); i >= 0 {
		rest, frag = url[:i], url[i:]
	}
	q := strings.IndexByte(rest, '?')
	if q < 0 {
		return url
	}
	head, query := rest[:q], rest[q+1:]
	path := compile.ExtractPath(head, compile.RFC9309)
	var drop []string
	for _, c := range e.CleanParams {
		if prefixGlob(path, c.Prefix) {
			drop = append(drop, c.Params...)
		}
	}
	if drop == nil {
		return url
	}
	parts := strings.Split(query, "&")
	kept := parts[:0]
	for _, p := range parts {
		if name, _, _ := strings.Cut(p, "="); !contains(drop, name) {
			kept = append(kept, p)
		}
	}
	switch len(kept) {
	case len(parts):
		return url
	case 0:
		return head + frag
	}
	return head + "?" + strings.Join(kept, "&") + frag
}

func contains(list []string, s string) bool {
	for _, t := range list {
		if t == s {
			return true
		}
	}
	return false
}

// prefixGlob reports whether path starts with a match of prefix, where '*'
// in prefix matches any run of bytes. Because the match is a prefix (as if
// prefix ended with '*'), taking the leftmost match of each literal piece is
// correct, and the test is linear in len(path) per piece.
func prefixGlob(path, prefix string) bool {
	first, rest, star := strings.Cut(prefix, "*")
	if !strings.HasPrefix(path, first) {
		return false
	}
	path = path[len(first):]
	for star {
		var piece string
		piece, rest, star = strings.Cut(rest, "*")
		i := strings.Index(path, piece)
		if i < 0 {
			return false
		}
		path = path[i+len(piece):]
	}
	return true
}

// parseRequestRate reads a request-rate value (see RequestRate); Line is
// left 0. It reports false for anything else, also for 0 requests or a zero
// period.
func parseRequestRate(value string) (RequestRate, bool) {
	fields := strings.Fields(value)
	window := ""
	if n := len(fields); n > 1 && strings.IndexByte(fields[n-1], '-') >= 0 {
		window, fields = fields[n-1], fields[:n-1]
	}
	n, per, ok := strings.Cut(strings.Join(fields, ""), "/")
	if !ok || !isDigits(n) {
		return RequestRate{}, false
	}
	requests, err := strconv.Atoi(n)
	if err != nil || requests <= 0 {
		return RequestRate{}, false
	}
	period, ok := parsePeriod(per)
	if !ok || period <= 0 {
		return RequestRate{}, false
	}
	r := RequestRate{Requests: requests, Per: period}
	if window != "" {
		if r.Window, ok = parseTimeWindow(window); !ok {
			return RequestRate{}, false
		}
	}
	return r, true
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// parsePeriod reads "10", "10s", "1.5m", "1h", "1d".
func parsePeriod(s string) (time.Duration, bool) {
	factor := time.Duration(1)
	if s != "" {
		switch s[len(s)-1] | 0x20 {
		case 's':
			s = s[:len(s)-1]
		case 'm':
			s, factor = s[:len(s)-1], 60
		case 'h':
			s, factor = s[:len(s)-1], 60*60
		case 'd':
			s, factor = s[:len(s)-1], 24*60*60
		}
	}
	d, ok := compile.ParseCrawlDelay(s) // a number of seconds
	if !ok || d > math.MaxInt64/factor {
		return 0, false
	}
	return d * factor, true
}

// parseTimeWindow reads a time window "HHMM-HHMM" (or "HH:MM-HH:MM"),
// hours 00-23 (24 for an end of 2400), minutes 00-59, in UTC. It reports
// false for anything else, and for a window whose start equals its end.
func parseTimeWindow(value string) (TimeWindow, bool) {
	from, to, ok := strings.Cut(strings.TrimSpace(value), "-")
	if !ok {
		return TimeWindow{}, false
	}
	start, ok1 := parseHHMM(strings.TrimSpace(from), false)
	end, ok2 := parseHHMM(strings.TrimSpace(to), true)
	if !ok1 || !ok2 || start == end {
		return TimeWindow{}, false
	}
	if end == 24*time.Hour && start == 0 {
		return TimeWindow{}, true // all day
	}
	if end == 24*time.Hour {
		end = 0 // wraps to midnight
	}
	return TimeWindow{Start: start, End: end}, true
}

func parseHHMM(s string, end bool) (time.Duration, bool) {
	if len(s) == 5 && s[2] == ':' {
		s = s[:2] + s[3:]
	}
	if len(s) != 4 || !isDigits(s) {
		return 0, false
	}
	h := int(s[0]-'0')*10 + int(s[1]-'0')
	m := int(s[2]-'0')*10 + int(s[3]-'0')
	if m > 59 || h > 24 || h == 24 && (!end || m != 0) {
		return 0, false
	}
	return time.Duration(h)*time.Hour + time.Duration(m)*time.Minute, true
}

// parseCleanParam reads a clean-param value, "p1&p2 [PREFIX]" (see
// CleanParam); Line is left 0. It reports false when there is no parameter,
// a parameter name is empty, there is more than one prefix, or the prefix
// does not start with '/' or '*' (a full URL is not a prefix).
func parseCleanParam(value string) (CleanParam, bool) {
	fields := strings.Fields(value)
	if len(fields) == 0 || len(fields) > 2 {
		return CleanParam{}, false
	}
	params := strings.Split(fields[0], "&")
	for _, p := range params {
		if p == "" {
			return CleanParam{}, false
		}
	}
	c := CleanParam{Params: params}
	if len(fields) == 2 {
		c.Prefix = fields[1]
		if c.Prefix[0] != '/' && c.Prefix[0] != '*' {
			return CleanParam{}, false
		}
	}
	return c, true
}

// appendContentSignals appends the key=value pairs of a content-signal
// value, separated by commas, and reports whether every pair was one.
func appendContentSignals(dst []ContentSignal, value string, line int) ([]ContentSignal, bool) {
	if !validContentSignals(value) {
		return dst, false
	}
	eachContentSignal(value, func(k, v string) {
		dst = append(dst, ContentSignal{Key: strings.ToLower(k), Value: v, Line: line})
	})
	return dst, true
}

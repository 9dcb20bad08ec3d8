package engine

import "github.com/seed-275a9bd5/robotstxt/internal/semantics"

// FromResponse returns the rules that an HTTP answer to a robots.txt request
// stands for, for a crawler that fetches robots.txt with its own HTTP
// client instead of package engine/fetch (docs/SEMANTICS.md gives each
// rule's sources):
//
//   - 2xx: body is compiled with opts (only the first opts.MaxFileSize bytes
//     are read; the caller need not read more).
//   - 3xx: the caller must follow redirects before calling FromResponse:
//     at least five in a row, also to other hosts, and the file found applies
//     to the original URL's scheme, host and port (RFC 9309 section 2.3.1.2).
//     A 3xx that reaches FromResponse is one that could not be followed (no
//     Location, one that cannot be parsed or names no host, a scheme other
//     than http and https, 304, more than five redirects): the robots.txt is
//     unavailable and everything is allowed, as RFC 9309 lets a crawler
//     assume and Google does (it treats it as a 404). A caller that sent a
//     conditional request should use its cached copy on 304 instead.
//   - 4xx other than 429: the robots.txt is unavailable; everything is
//     allowed (RFC 9309 section 2.3.1.3). In Koster1996 semantics 401 and 403
//     disallow everything, as the 1996 draft recommends (section 3.1).
//   - 429 and 5xx: the robots.txt is unreachable; everything is disallowed
//     (RFC 9309 section 2.3.1.4; Google counts 429 with the 5xx).
//   - Any other status (1xx as a final answer, below 100, 600 and up): an
//     undefined status, which RFC 9309 section 2.3.1.4 says to treat as
//     unreachable: everything is disallowed.
//
// A request that got no answer (time-out, DNS, connection, TLS or transfer
// error) is unreachable too: use DisallowAll(opts). While a robots.txt is
// unreachable a crawler may keep using the last copy it fetched, for up to 30
// days after it was fetched (RFC 9309 sections 2.3.1.4 and 2.4); FromResponse
// keeps no copies, which is the caller's (or engine/fetch's) business.
//
// For statuses 200 to 599 FromResponse answers as engine/fetch does for the
// same response. It never fails; the result is safe for concurrent use.
func FromResponse(status int, body []byte, opts Options) *Robots {
	switch semantics.ClassifyStatus(opts.Semantics, status) {
	case semantics.StatusFile:
		return Compile(body, opts)
	case semantics.StatusRedirect, semantics.StatusUnavailable:
		return AllowAll(opts)
	}
	return DisallowAll(opts)
}

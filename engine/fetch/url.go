package fetch

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/idna"
)

// defaultPorts are the ports RobotsURL drops, per scheme (docs/SEMANTICS.md
// section 5.1): a robots.txt URL names the authority exactly once.
var defaultPorts = map[string]string{"http": "80", "https": "443", "ftp": "21"}

// robotsPath is the well-known location of the file (RFC 9309 section 2.3).
const robotsPath = "/robots.txt"

// maxHostLength bounds the host of a robots.txt URL, so that a cache key
// and the URLs made from it stay short whatever link a crawler follows: DNS
// names are at most 255 octets (RFC 1035 section 2.3.4), and an IPv6
// literal, with brackets and a zone, is far shorter. A longer host names no
// site: RobotsURL fails.
const maxHostLength = 255

// RobotsURL returns the URL of the robots.txt that governs pageURL:
// scheme://host[:port]/robots.txt, which governs that scheme, host and port
// only (RFC 9309 section 2.3). The scheme
// and the host are lower-cased, the default port of the scheme (http 80,
// https 443, ftp 21) is dropped, an internationalised host is converted to
// punycode (IDNA 2008, UTS #46 lookup mapping), an IPv6 literal is kept in
// brackets, and the userinfo, path, query and fragment are dropped.
//
// Only the scheme and the authority need to be well-formed: a path such as
// "/100%" is no error. RobotsURL returns an error saying what is wrong for a
// URL whose scheme or authority cannot be parsed, that has no authority
// ("/a/b", "mailto:x@y", "http:opaque"), an empty host, a port that is not a
// number from 0 to 65535, a host that is not a valid internationalised
// domain name or is longer than 255 bytes, or a scheme other than http,
// https and ftp. Note that Client fetches http and https only.
func RobotsURL(pageURL string) (string, error) {
	o, err := origin(pageURL)
	if err != nil {
		return "", err
	}
	return o + robotsPath, nil
}

// origin returns scheme://host[:port] for pageURL, canonical as RobotsURL
// describes it.
func origin(pageURL string) (string, error) {
	// Only the scheme and authority are parsed: a malformed path, query
	// or fragment ("/100%") does not hide which site the URL is on.
	head := pageURL
	if i := strings.Index(head, "://"); i >= 0 {
		if j := strings.IndexAny(head[i+3:], "/?#"); j >= 0 {
			head = head[:i+3+j]
		}
	}
	u, err := url.Parse(head)
	if err != nil {
		return "", fmt.Errorf("robots.txt URL of %q: %w", pageURL, unwrapURLError(err))
	}
	scheme := u.Scheme // url.Parse lower-cases it
	if scheme == "" {
		return "", fmt.Errorf("robots.txt URL of %q: no scheme (want an absolute URL such as https://example.com/page)", pageURL)
	}
	if _, ok := defaultPorts[scheme]; !ok {
		return "", fmt.Errorf("robots.txt URL of %q: unsupported scheme %q (want http, https or ftp)", pageURL, scheme)
	}
	if u.Opaque != "" || u.Host == "" {
		return "", fmt.Errorf("robots.txt URL of %q: no host (want %s://HOST/...)", pageURL, scheme)
	}
	host, err := canonicalHost(u.Hostname())
	if err != nil {
		return "", fmt.Errorf("robots.txt URL of %q: %w", cutText(pageURL, MaxURLLength), err)
	}
	if len(host) > maxHostLength {
		return "", fmt.Errorf("robots.txt URL of %q: the host is longer than %d bytes", cutText(pageURL, MaxURLLength), maxHostLength)
	}
	port := u.Port() // "" also for "http://example.com:/": the default port
	if port != "" {
		n, err := strconv.ParseUint(port, 10, 16)
		if err != nil {
			return "", fmt.Errorf("robots.txt URL of %q: port %q is not a number from 0 to 65535", pageURL, port)
		}
		port = strconv.FormatUint(n, 10) // "080" is port 80
		if port == defaultPorts[scheme] {
			port = ""
		}
	}
	var b strings.Builder
	b.Grow(len(scheme) + 3 + len(host) + 1 + len(port))
	b.WriteString(scheme)
	b.WriteString("://")
	b.WriteString(host)
	if port != "" {
		b.WriteByte(':')
		b.WriteString(port)
	}
	return b.String(), nil
}

// unwrapURLError drops the "parse URL:" wrapping of a *url.Error, whose
// message repeats the URL.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// canonicalHost returns host (as url.URL.Hostname returns it: without
// brackets or port) lower-cased, in brackets if it is an IPv6 literal, and in
// punycode if it has non-ASCII characters.
func canonicalHost(host string) (string, error) {
	if host == "" {
		return "", errors.New("empty host")
	}
	if strings.IndexByte(host, ':') >= 0 { // IPv6 literal, possibly with a zone
		addr, zone, _ := strings.Cut(host, "%")
		s := "[" + strings.ToLower(addr)
		if zone != "" {
			s += "%25" + zone // the zone is case-sensitive
		}
		return s + "]", nil
	}
	ascii := true
	for i := 0; i < len(host); i++ {
		if host[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		// Plain ASCII names are only lower-cased, not validated: hosts
		// such as "my_host.example" exist and must keep working.
		return strings.ToLower(host), nil
	}
	h, err := idna.Lookup.ToASCII(host)
	if err != nil {
		return "", fmt.Errorf("host %q is not a valid internationalised domain name: %v", host, err)
	}
	return h, nil
}

// fastOrigin returns the origin of pageURL as a substring of it, without
// allocating, when pageURL is already canonical: a lower-case http or https
// scheme, then a host of lower-case ASCII letters, digits, '.', '-' and '_',
// and an optional port of digits that is not the default one and has no
// leading zero, ended by '/', '?', '#' or the end of the string. Anything
// else (userinfo, upper case, IPv6, IDN, percent escapes, default ports)
// reports ok == false, and the caller falls back to origin.
func fastOrigin(pageURL string) (o string, ok bool) {
	var i int
	switch {
	case strings.HasPrefix(pageURL, "https://"):
		i = len("https://")
	case strings.HasPrefix(pageURL, "http://"):
		i = len("http://")
	default:
		return "", false
	}
	scheme := i // end of "scheme://"
	for i < len(pageURL) {
		c := pageURL[i]
		if 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '.' || c == '-' || c == '_' {
			i++
			continue
		}
		break
	}
	if i == scheme || i-scheme > maxHostLength {
		return "", false // empty or too long: origin says why
	}
	if i < len(pageURL) && pageURL[i] == ':' {
		p := i + 1
		j := p
		for j < len(pageURL) && '0' <= pageURL[j] && pageURL[j] <= '9' {
			j++
		}
		port := pageURL[p:j]
		if port == "" || port[0] == '0' || len(port) > 5 {
			return "", false
		}
		if scheme == len("http://") && port == "80" || scheme == len("https://") && port == "443" {
			return "", false
		}
		if len(port) == 5 && port > "65535" {
			return "", false
		}
		i = j
	}
	if i < len(pageURL) {
		switch pageURL[i] {
		case '/', '?', '#':
		default:
			return "", false
		}
	}
	return pageURL[:i], true
}

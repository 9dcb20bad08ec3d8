// Package page decides what a fetched page says to a crawler about what it
// may do with it: index it, follow its links, show a snippet or a preview,
// keep a copy, translate it, train AI on it. robots.txt says what a
// crawler may fetch (package engine); Read gives the rest of the answer
// from the response header, the HTML and the site's robots.txt:
//
//	m := robots.Matcher("Googlebot")              // the site's engine.Robots
//	a := page.Read(page.Input{Header: resp.Header, HTML: body,
//		Robots: page.RobotsFor(m, url)}, "Googlebot")
//	if a.NoIndex { ... }
//	if a.AITrain.Answer == engine.UsageDisallowed { ... }
//
// Its sources are every X-Robots-Tag field line; the HTML's <meta> tags
// named robots or like one of the crawler's product tokens, anywhere in
// the document; the TDM Reservation Protocol's tdm-reservation and
// tdm-policy (header, meta, and the origin's tdmrep.json rule when the
// caller has one); the Content-Usage header; robots.txt's Content-Usage
// and Content-Signal lines for the URL. A value is split at commas into
// directives compared as whole words, ignoring ASCII case; in a header,
// "NAME: rest" whose NAME is no directive that takes a value names an
// agent, for the directives after it on that line. Every directive that
// applies to the crawler counts, from header and meta alike, and the most
// restrictive wins: a specific "index" never undoes a generic "noindex".
// TDMRep instead overrides: tdmrep.json, then the header, then the meta,
// the last stating 0 or 1 winning. AI training is no if any source says
// no (Content-Usage, Content-Signal, noai or noimageai, a TDM reservation),
// else yes if any says yes; search likewise. Each answer names what
// decided it. docs/SEMANTICS.md says every rule and its source.
//
// The HTML is read by golang.org/x/net/html's tokenizer, no tree built, up
// to Input.MaxHTMLBytes (DefaultMaxHTMLBytes when 0): any bytes give an
// answer, in time linear in the bytes read and memory bounded by them.
// Reading a directive allocates nothing. Read is safe for concurrent use.
package page

import (
	"strconv"
	"time"

	"github.com/seed-275a9bd5/robotstxt/engine"
)

// DefaultMaxHTMLBytes is how much of the HTML Read reads when
// Input.MaxHTMLBytes is 0: 15 MiB, the size of an HTML file of which
// Googlebot reads the start for indexing. A robots meta tag in the body
// counts for Google, so a smaller limit would miss tags Google obeys; the
// tokenizer's time is linear (about 8 ms a MiB on a 2-core machine), and
// its buffer holds one token, the longest at most this long. Bytes past the limit
// are not read, and Answer.Truncated says so.
const DefaultMaxHTMLBytes = 15 << 20

// Input is what Read reads: the response and what the site's robots.txt
// says of its URL. Every field may be left zero.
type Input struct {
	// Header is the response's header, an http.Header (a map of field
	// names in canonical form, as net/http keeps them, to their field
	// lines): X-Robots-Tag, Tdm-Reservation, Tdm-Policy and Content-Usage
	// are read from it. The type is the map itself so that a program that
	// reads pages need not link net/http.
	Header map[string][]string
	// HTML is the response body when it is an HTML document, or its
	// start. Read reads at most MaxHTMLBytes of it.
	HTML []byte
	// MaxHTMLBytes bounds the HTML read; 0 means DefaultMaxHTMLBytes.
	MaxHTMLBytes int
	// Robots is what robots.txt says of the URL (RobotsFor).
	Robots Robots
	// TDMFile is the rule of the origin's /.well-known/tdmrep.json that
	// governs the URL, when the caller has one: the lowest of TDMRep's
	// sources, overridden by the header and the meta.
	TDMFile TDM
}

// Robots is what a site's robots.txt says of one URL for a crawler.
type Robots struct {
	// Usage is the crawler's content-usage preferences for the URL
	// (engine.Matcher.Usage). When they are engine.UsageNotApplicable, the
	// URL may not be fetched and Read gives no answer (Answer.Disallowed).
	Usage engine.Usage
	// Signals are the crawler's content signals (engine.Matcher.Signals).
	Signals engine.Signals
}

// RobotsFor returns what m, a crawler's matcher of a site's robots.txt,
// says of url: its usage preferences and content signals.
func RobotsFor(m *engine.Matcher, url string) Robots {
	return Robots{Usage: m.Usage(url), Signals: m.Signals()}
}

// NoLimit is the MaxSnippet and MaxVideoPreview of a page that sets no
// limit (-1, as the directives write it).
const NoLimit = -1

// Answer is what a page says to one crawler. Read fills every field; the
// zero Answer is not one Read returns.
type Answer struct {
	// Disallowed reports that robots.txt disallows the URL: there is no
	// answer (the crawler should not have the page), and every other
	// field is zero.
	Disallowed bool

	NoIndex  bool // noindex or none: do not show the page in results
	NoFollow bool // nofollow or none: do not follow its links
	// NoArchive: noarchive or nocache, keep no copy to show.
	NoArchive bool
	// MaxSnippet is the longest text snippet in characters: 0 for
	// nosnippet, NoLimit when no directive limits it.
	MaxSnippet int
	// MaxImagePreview is the largest image preview.
	MaxImagePreview ImagePreview
	// MaxVideoPreview is the longest video preview in seconds: 0 for
	// nosnippet or a static image only, NoLimit when none limits it.
	MaxVideoPreview int
	NoImageIndex    bool // noimageindex: do not index the page's images
	NoTranslate     bool // notranslate: offer no translation
	// IndexIfEmbedded: indexifembedded with noindex, the content may be
	// indexed where another page embeds it.
	IndexIfEmbedded bool
	// UnavailableAfter is the earliest unavailable_after date, in UTC,
	// the zero Time when none: after it the page should not be shown. It
	// does not change NoIndex; the crawler compares it with its clock.
	UnavailableAfter time.Time
	// NoAI and NoImageAI: the page carries noai or noimageai, which ask
	// that it be left out of AI training.
	NoAI, NoImageAI bool

	// TDM is the TDM Reservation Protocol's answer.
	TDM TDM
	// Signals are robots.txt's content signals (Input.Robots.Signals),
	// ai-input and use= among them.
	Signals engine.Signals

	// AITrain and Search are the answers for AI training and for search,
	// combined from every source.
	AITrain, Search Category

	// Why holds, for each directive answer, the directive that decided it.
	Why Why

	// Truncated reports that the HTML was longer than the limit, and its
	// end was not read.
	Truncated bool
}

// Why says which directive decided each answer: of the directives that
// give the answer's value, the first read (header lines before the HTML,
// each in order). An answer that no directive restricts has the zero
// Origin.
type Why struct {
	NoIndex, NoFollow, NoArchive                 Origin
	MaxSnippet, MaxImagePreview, MaxVideoPreview Origin
	NoImageIndex, NoTranslate, IndexIfEmbedded   Origin
	UnavailableAfter, NoAI, NoImageAI            Origin
}

// ImagePreview is a max-image-preview setting. A larger value is more
// restrictive; the zero value, ImagePreviewLarge, is no limit.
type ImagePreview uint8

const (
	// ImagePreviewLarge: a preview up to the viewport's width (and what a
	// page that sets no limit, or an unknown setting, allows).
	ImagePreviewLarge ImagePreview = iota
	// ImagePreviewStandard: a preview of the default size.
	ImagePreviewStandard
	// ImagePreviewNone: no image preview.
	ImagePreviewNone
)

var imagePreviewNames = [...]string{"large", "standard", "none"}

// String returns "large", "standard" or "none".
func (p ImagePreview) String() string {
	if int(p) < len(imagePreviewNames) {
		return imagePreviewNames[p]
	}
	return "ImagePreview(?)"
}

// Reservation is a tdm-reservation value. The zero value is TDMUnset.
type Reservation uint8

const (
	// TDMUnset: no source states 0 or 1.
	TDMUnset Reservation = iota
	// TDMNotReserved: tdm-reservation 0, text and data mining rights are
	// not reserved.
	TDMNotReserved
	// TDMReserved: tdm-reservation 1, they are reserved (EU DSM
	// Directive Article 4): no mining without the rightsholder's consent.
	TDMReserved
)

var reservationNames = [...]string{"unset", "0", "1"}

// String returns "0", "1" or "unset".
func (r Reservation) String() string {
	if int(r) < len(reservationNames) {
		return reservationNames[r]
	}
	return "Reservation(?)"
}

// TDM is a TDM Reservation Protocol answer: the reservation, the policy
// given beside it (a URL, not fetched; "" when none), and where they come
// from.
type TDM struct {
	Reservation Reservation
	Policy      string
	From        Origin
}

// Category is an answer for one use of the page (AI training, search),
// combined from its sources, with each source's own answer.
type Category struct {
	// Answer is engine.UsageDisallowed if any source says no, else
	// engine.UsageAllowed if any says yes, else engine.UsageUnknown.
	Answer engine.Preference
	// From is the source that decided Answer: the first in the order of
	// the fields below that gives it; the zero Origin for unknown.
	From Origin
	// ContentUsage is robots.txt's Content-Usage line for the URL,
	// UsageHeader the response's Content-Usage header.
	ContentUsage, UsageHeader Vote
	// ContentSignal is robots.txt's Content-Signal (ai-train or search).
	ContentSignal Vote
	// NoAI is noai or noimageai (no for AI training; unknown for search).
	NoAI Vote
	// TDMRep is the TDM reservation: 1 is no, 0 is yes (unknown for
	// search: a reservation says nothing of it).
	TDMRep Vote
}

// Vote is one source's answer for a category, and where it comes from.
type Vote struct {
	Preference engine.Preference
	From       Origin
}

// Source is a kind of place an answer comes from.
type Source uint8

const (
	SourceNone          Source = iota // nothing decided
	SourceXRobotsTag                  // an X-Robots-Tag field line
	SourceMeta                        // a <meta> robots or agent tag
	SourceRobotsUsage                 // a robots.txt Content-Usage line
	SourceUsageHeader                 // the Content-Usage header
	SourceContentSignal               // a robots.txt Content-Signal line
	SourceTDMFile                     // a rule of the origin's tdmrep.json
	SourceTDMHeader                   // the tdm-reservation header
	SourceTDMMeta                     // a tdm-reservation <meta> tag
)

var sourceNames = [...]string{"", "X-Robots-Tag", "meta", "robots.txt Content-Usage", "Content-Usage header", "robots.txt Content-Signal", "tdmrep.json", "tdm-reservation header", "tdm-reservation meta"}

// String names the source as the text output does.
func (s Source) String() string {
	if int(s) < len(sourceNames) {
		return sourceNames[s]
	}
	return "Source(?)"
}

// Origin is where an answer comes from: the kind of source, the line, and
// the crawler's product token the directive was addressed to ("" for one
// addressed to every crawler). Line is, for a header, the field line's
// number among that field's lines (1 for the first); for a <meta> tag,
// the line of the HTML it starts on; for robots.txt, the file's line; for
// tdmrep.json, the rule's number in its array (1 for the first).
type Origin struct {
	Source Source
	Line   int
	Agent  string
}

// String describes o for a log line: "X-Robots-Tag line 2 (googlebot)",
// "meta at line 12", "" for the zero Origin.
func (o Origin) String() string {
	if o.Source == SourceNone {
		return ""
	}
	s := o.Source.String()
	switch o.Source {
	case SourceUsageHeader:
	case SourceTDMFile:
		s += " rule " + strconv.Itoa(o.Line)
	default:
		s += " line " + strconv.Itoa(o.Line)
	}
	if o.Agent != "" {
		s += " (" + o.Agent + ")"
	}
	return s
}

package page

import (
	"math"

	"github.com/seed-275a9bd5/robotstxt/engine"
)

// The header fields Read reads.
const (
	fieldRobotsTag      = "X-Robots-Tag"
	fieldTDMReservation = "Tdm-Reservation"
	fieldTDMPolicy      = "Tdm-Policy"
	fieldContentUsage   = "Content-Usage"
)

// Read returns what the page in says to the crawler whose product tokens
// are tokens (compared with agent names ignoring ASCII case; none: only
// directives addressed to every crawler apply). It never panics, reads at
// most in.MaxHTMLBytes of the HTML, and takes time linear in the bytes it
// reads.
func Read(in Input, tokens ...string) Answer {
	if !in.Robots.Usage.Applicable() {
		return Answer{Disallowed: true}
	}
	r := reader{
		a:      Answer{MaxSnippet: NoLimit, MaxVideoPreview: NoLimit, Signals: in.Robots.Signals},
		tokens: tokens,
	}
	for i, v := range values(in.Header, fieldRobotsTag) {
		r.value(v, Origin{Source: SourceXRobotsTag, Line: i + 1}, true)
	}
	// TDMRep: the file, overridden by the header, overridden by the meta.
	var tdm TDM
	if in.TDMFile.Reservation != TDMUnset {
		tdm = in.TDMFile
	}
	if h := headerTDM(in.Header); h.Reservation != TDMUnset {
		tdm = h
	}
	html := in.HTML
	limit := in.MaxHTMLBytes
	if limit <= 0 {
		limit = DefaultMaxHTMLBytes
	}
	if len(html) > limit {
		html, r.a.Truncated = html[:limit], true
	}
	if len(html) > 0 {
		if metaTDM := r.html(html); metaTDM.Reservation != TDMUnset {
			tdm = metaTDM
		}
	}
	r.a.TDM = tdm
	if r.ieSeen && r.a.NoIndex {
		r.a.IndexIfEmbedded = true
	} else {
		r.a.Why.IndexIfEmbedded = Origin{}
	}
	r.a.AITrain, r.a.Search = categories(in, &r.a, r.noAI)
	return r.a
}

// headerTDM returns the TDMRep answer of a response's header: the last
// tdm-reservation field line that states 0 or 1, with the last non-empty
// tdm-policy.
func headerTDM(h map[string][]string) TDM {
	var t TDM
	for i, v := range values(h, fieldTDMReservation) {
		if res := reservation(v); res != TDMUnset {
			t = TDM{Reservation: res, From: Origin{Source: SourceTDMHeader, Line: i + 1}}
		}
	}
	if t.Reservation != TDMUnset {
		for _, v := range values(h, fieldTDMPolicy) {
			if v = trim(v); v != "" {
				t.Policy = v
			}
		}
	}
	return t
}

// categories returns the AI-training and search answers of a.
// noAI is the first noai or noimageai read.
func categories(in Input, a *Answer, noAI Origin) (train, search Category) {
	u, s := in.Robots.Usage, in.Robots.Signals
	train.ContentUsage = vote(u.TrainAI, Origin{Source: SourceRobotsUsage, Line: u.TrainAILine})
	search.ContentUsage = vote(u.Search, Origin{Source: SourceRobotsUsage, Line: u.SearchLine})
	if h := values(in.Header, fieldContentUsage); len(h) > 0 {
		o := Origin{Source: SourceUsageHeader}
		train.UsageHeader = vote(engine.StatementPreference(engine.CategoryTrainAI, h...), o)
		search.UsageHeader = vote(engine.StatementPreference(engine.CategorySearch, h...), o)
	}
	train.ContentSignal = vote(s.AITrain, Origin{Source: SourceContentSignal, Line: s.AITrainLine})
	search.ContentSignal = vote(s.Search, Origin{Source: SourceContentSignal, Line: s.SearchLine})
	if a.NoAI || a.NoImageAI {
		train.NoAI = Vote{engine.UsageDisallowed, noAI}
	}
	switch a.TDM.Reservation {
	case TDMReserved:
		train.TDMRep = Vote{engine.UsageDisallowed, a.TDM.From}
	case TDMNotReserved:
		train.TDMRep = Vote{engine.UsageAllowed, a.TDM.From}
	}
	train.combine()
	search.combine()
	return train, search
}

// vote is a source's vote: its origin only when it states something.
func vote(p engine.Preference, o Origin) Vote {
	if p != engine.UsageAllowed && p != engine.UsageDisallowed {
		return Vote{}
	}
	return Vote{p, o}
}

// combine sets c's answer: the most restrictive vote, the first of them
// deciding.
func (c *Category) combine() {
	for _, v := range [...]Vote{c.ContentUsage, c.UsageHeader, c.ContentSignal, c.NoAI, c.TDMRep} {
		if v.Preference > c.Answer {
			c.Answer, c.From = v.Preference, v.From
		}
	}
}

// reservation reads a tdm-reservation value: 0 or 1 after trimming
// blanks; any other value is unset.
func reservation[T text](v T) Reservation {
	switch v = trim(v); {
	case len(v) == 1 && v[0] == '0':
		return TDMNotReserved
	case len(v) == 1 && v[0] == '1':
		return TDMReserved
	}
	return TDMUnset
}

// reader accumulates the directives that apply to a crawler.
type reader struct {
	a      Answer
	tokens []string
	// ieSeen: an indexifembedded applies; Why.IndexIfEmbedded is the
	// first.
	ieSeen bool
	// noAI is the first noai or noimageai.
	noAI Origin
}

// text is a header's value or a meta's content.
type text interface{ ~string | ~[]byte }

// value reads one header field line or meta content, of origin o. In a
// header (agents), "NAME: rest" whose NAME takes no value names an agent
// for the directives after it on the line.
func (r *reader) value(v string, o Origin, agents bool) { readValue(r, v, o, agents) }

func readValue[T text](r *reader, v T, o Origin, agents bool) {
	applies := true
	for i := 0; i <= len(v); {
		j := indexByte(v, ',', i, len(v))
		ds, de := trimSpan(v, i, j)
		i = j + 1
		c := indexByte(v, ':', ds, de)
		if c < de && valued(v[ds:trimRight(v, ds, c)]) == dirNone {
			if !agents {
				continue // an unknown directive
			}
			o.Agent = tokenOf(r.tokens, v[ds:trimRight(v, ds, c)])
			applies = o.Agent != ""
			ds, de = trimSpan(v, c+1, de)
			if c = indexByte(v, ':', ds, de); c < de && valued(v[ds:trimRight(v, ds, c)]) == dirNone {
				continue // "a: b: c" is no directive
			}
		}
		if !applies || ds == de {
			continue
		}
		if c == de {
			flag(r, v[ds:de], o)
			continue
		}
		vs, ve := trimSpan(v, c+1, de)
		switch valued(v[ds:trimRight(v, ds, c)]) {
		case dirMaxSnippet:
			if n, ok := limit(v[vs:ve]); ok {
				setLimit(&r.a.MaxSnippet, &r.a.Why.MaxSnippet, n, o)
			}
		case dirMaxVideoPreview:
			if n, ok := limit(v[vs:ve]); ok {
				setLimit(&r.a.MaxVideoPreview, &r.a.Why.MaxVideoPreview, n, o)
			}
		case dirMaxImagePreview:
			if p := imagePreview(v[vs:ve]); p > r.a.MaxImagePreview {
				r.a.MaxImagePreview, r.a.Why.MaxImagePreview = p, o
			}
		case dirUnavailableAfter:
			t, ok := parseDate(v[vs:ve])
			if !ok && j < len(v) && isWeekday(v[vs:ve]) {
				// "Wed, 03 Dec 2025 13:09:53 GMT": the comma is the
				// date's when the date then ends with the next piece.
				k := indexByte(v, ',', j+1, len(v))
				if t, ok = parseDate(v[vs:trimRight(v, j+1, k)]); ok {
					i = k + 1
				}
			}
			if ok && (r.a.UnavailableAfter.IsZero() || t.Before(r.a.UnavailableAfter)) {
				r.a.UnavailableAfter, r.a.Why.UnavailableAfter = t, o
			}
		}
	}
}

// Directives that take a value.
const (
	dirNone = iota
	dirMaxSnippet
	dirMaxImagePreview
	dirMaxVideoPreview
	dirUnavailableAfter
)

// valued returns which directive that takes a value name is, or dirNone.
func valued[T text](name T) int {
	switch {
	case equalFold(name, "max-snippet"):
		return dirMaxSnippet
	case equalFold(name, "max-image-preview"):
		return dirMaxImagePreview
	case equalFold(name, "max-video-preview"):
		return dirMaxVideoPreview
	case equalFold(name, "unavailable_after"):
		return dirUnavailableAfter
	}
	return dirNone
}

// flag applies a directive without a value; an unknown one is ignored.
func flag[T text](r *reader, name T, o Origin) {
	a, w := &r.a, &r.a.Why
	switch {
	case equalFold(name, "noindex"):
		setFlag(&a.NoIndex, &w.NoIndex, o)
	case equalFold(name, "nofollow"):
		setFlag(&a.NoFollow, &w.NoFollow, o)
	case equalFold(name, "none"):
		setFlag(&a.NoIndex, &w.NoIndex, o)
		setFlag(&a.NoFollow, &w.NoFollow, o)
	case equalFold(name, "nosnippet"):
		setLimit(&a.MaxSnippet, &w.MaxSnippet, 0, o)
		setLimit(&a.MaxVideoPreview, &w.MaxVideoPreview, 0, o)
	case equalFold(name, "noarchive"), equalFold(name, "nocache"):
		setFlag(&a.NoArchive, &w.NoArchive, o)
	case equalFold(name, "noimageindex"):
		setFlag(&a.NoImageIndex, &w.NoImageIndex, o)
	case equalFold(name, "notranslate"):
		setFlag(&a.NoTranslate, &w.NoTranslate, o)
	case equalFold(name, "indexifembedded"):
		if !r.ieSeen {
			r.ieSeen, w.IndexIfEmbedded = true, o
		}
	case equalFold(name, "noai"):
		if !a.NoAI && !a.NoImageAI {
			r.noAI = o
		}
		setFlag(&a.NoAI, &w.NoAI, o)
	case equalFold(name, "noimageai"):
		if !a.NoAI && !a.NoImageAI {
			r.noAI = o
		}
		setFlag(&a.NoImageAI, &w.NoImageAI, o)
	}
}

func setFlag(f *bool, why *Origin, o Origin) {
	if !*f {
		*f, *why = true, o
	}
}

// setLimit lowers *l to n, NoLimit being the highest.
func setLimit(l *int, why *Origin, n int, o Origin) {
	if n != NoLimit && (*l == NoLimit || n < *l) {
		*l, *why = n, o
	}
}

// maxLimit is where a max-snippet or max-video-preview number stops
// growing: a larger one is no practical limit, and it keeps the sum in an
// int on every platform.
const maxLimit = math.MaxInt32

// limit reads a max-snippet or max-video-preview number: -1, or decimal
// digits (at most maxLimit). Anything else does not parse.
func limit[T text](v T) (int, bool) {
	if len(v) == 2 && v[0] == '-' && v[1] == '1' {
		return NoLimit, true
	}
	if len(v) == 0 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = min(n*10+int(c-'0'), maxLimit)
	}
	return n, true
}

// imagePreview reads a max-image-preview setting; an unknown one sets no
// limit.
func imagePreview[T text](v T) ImagePreview {
	switch {
	case equalFold(v, "none"):
		return ImagePreviewNone
	case equalFold(v, "standard"):
		return ImagePreviewStandard
	}
	return ImagePreviewLarge
}

// tokenOf returns the crawler's token that name is, ignoring ASCII case,
// or "" when it is none of them.
func tokenOf[T text](tokens []string, name T) string {
	for _, t := range tokens {
		if t != "" && equalFold(name, t) {
			return t
		}
	}
	return ""
}

// values returns the field lines of the header field key, a canonical
// name, as http.Header.Values does.
func values(h map[string][]string, key string) []string { return h[key] }

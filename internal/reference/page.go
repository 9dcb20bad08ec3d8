package reference

import (
	"bytes"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/html"

	"github.com/seed-275a9bd5/robotstxt/compile"
)

// This file is the reference's reading of what a page says
// (docs/SEMANTICS.md section 8), written again from the text and sharing
// no code with package engine/page: every directive is collected into a
// list first, then each answer is found by a plain loop over the list.
// The HTML is read by golang.org/x/net/html's tokenizer, as the package
// reads it (a tag is what that tokenizer says it is: the definition, not
// something to check), but through its allocating Token API.

// PageInput is what the reference reads for a page.
type PageInput struct {
	Agents []string
	Header http.Header
	HTML   []byte
	// MaxHTML is the number of bytes of HTML read; 0 reads all of it.
	MaxHTML int
	// Robots, when HasRobots, is the site's robots.txt, read in RFC9309;
	// URL is the page's URL.
	Robots    []byte
	HasRobots bool
	URL       string
	// TDMFile, when not nil, is the tdmrep.json rule that governs the
	// URL: its tdm-reservation (any number) and its tdm-policy, and its
	// number in the file's array.
	TDMFile *TDMFileRule
}

// TDMFileRule is the rule of a tdmrep.json that governs a URL.
type TDMFileRule struct {
	Reservation int    `json:"tdm-reservation"`
	Policy      string `json:"tdm-policy"`
	Rule        int    `json:"rule"`
}

// PageAnswer is a page answer in the form of the page command's JSON
// output (robotstxt page --format json).
type PageAnswer struct {
	Disallowed       bool   `json:"disallowed"`
	Index            bool   `json:"index"`
	Follow           bool   `json:"follow"`
	Archive          bool   `json:"archive"`
	Snippet          int    `json:"snippet"`
	ImagePreview     string `json:"image_preview"`
	VideoPreview     int    `json:"video_preview"`
	ImageIndex       bool   `json:"image_index"`
	Translate        bool   `json:"translate"`
	IndexIfEmbedded  bool   `json:"index_if_embedded"`
	UnavailableAfter string `json:"unavailable_after"`
	NoAI             bool   `json:"noai"`
	NoImageAI        bool   `json:"noimageai"`
	AITrain          string `json:"ai_train"`
	Search           string `json:"search"`
	TDMReservation   *int   `json:"tdm_reservation"`
	TDMPolicy        string `json:"tdm_policy"`
	// Decided names, for each answer a source restricts or states, what
	// decided it (as page.Origin.String writes it); a key is absent when
	// nothing did.
	Decided map[string]string `json:"decided"`
}

// DefaultPageAnswer is the answer of a page that says nothing.
func DefaultPageAnswer() PageAnswer {
	return PageAnswer{
		Index: true, Follow: true, Archive: true, Snippet: -1, ImagePreview: "large", VideoPreview: -1,
		ImageIndex: true, Translate: true, AITrain: PrefUnknown, Search: PrefUnknown, Decided: map[string]string{},
	}
}

// DisallowedPageAnswer is the answer for a URL robots.txt disallows.
func DisallowedPageAnswer() PageAnswer {
	return PageAnswer{Disallowed: true, AITrain: PrefNotApplicable, Search: PrefNotApplicable, Decided: map[string]string{}}
}

// directive is one directive that applies to the crawler, and where it
// was read.
type directive struct {
	name  string // lower case
	value string // trimmed; "" for one without a value
	from  string // as page.Origin.String writes it
}

// htmlSpace are the blanks trimmed around names and values.
const htmlSpace = " \t\n\r\f"

func trimSpace(s string) string { return strings.Trim(s, htmlSpace) }

// lowerASCII returns s with ASCII upper-case letters in lower case, and
// every other byte as it is.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

// valuedDirectives are the directives that take a value: "NAME: x" with
// any other NAME names an agent, in a header.
var valuedDirectives = map[string]bool{"max-snippet": true, "max-image-preview": true, "max-video-preview": true, "unavailable_after": true}

// agentToken returns the crawler's agent name equals (ASCII case
// ignored), or "".
func agentToken(agents []string, name string) string {
	for _, a := range agents {
		if a != "" && lowerASCII(a) == lowerASCII(name) {
			return a
		}
	}
	return ""
}

// readDirectives returns the directives of one header line or meta content
// that apply to the crawler; where is the origin's text without the agent.
func readDirectives(value string, agents []string, header bool, where string) []directive {
	var out []directive
	parts := strings.Split(value, ",")
	agent, applies := "", true
	for k := 0; k < len(parts); k++ {
		p := trimSpace(parts[k])
		if before, after, ok := strings.Cut(p, ":"); ok && !valuedDirectives[lowerASCII(trimSpace(before))] {
			if !header {
				continue
			}
			agent = agentToken(agents, trimSpace(before))
			applies = agent != ""
			p = trimSpace(after)
			if before, _, ok := strings.Cut(p, ":"); ok && !valuedDirectives[lowerASCII(trimSpace(before))] {
				continue
			}
		}
		if !applies || p == "" {
			continue
		}
		from := where
		if agent != "" {
			from += " (" + agent + ")"
		}
		name, value, _ := strings.Cut(p, ":")
		d := directive{name: lowerASCII(trimSpace(name)), value: trimSpace(value), from: from}
		if d.name == "unavailable_after" && strings.Contains(p, ":") {
			if _, ok := refDate(d.value); !ok && k+1 < len(parts) {
				joined := trimSpace(d.value + "," + parts[k+1])
				if _, ok := refDate(joined); ok {
					d.value = joined
					k++
				}
			}
		}
		if !strings.Contains(p, ":") {
			d.value = ""
			d.name = lowerASCII(p)
		} else {
			d.name += ":"
		}
		out = append(out, d)
	}
	return out
}

// Page returns the reference's answer for the page in.
func Page(in PageInput) PageAnswer {
	usage := UsageResult{Applicable: true, TrainAI: PrefUnknown, Search: PrefUnknown}
	var signals []UsageLine
	if in.HasRobots {
		f := Parse(in.Robots, compile.RFC9309)
		d := DecideFile(f, in.Agents, in.URL)
		if !d.Allowed {
			return DisallowedPageAnswer()
		}
		usage = UsageDecided(f, in.Agents, in.URL, d)
		for _, g := range selectGroups(f, in.Agents) {
			signals = append(signals, g.Signals...)
		}
		sort.SliceStable(signals, func(i, j int) bool { return signals[i].Line < signals[j].Line })
	}

	var dirs []directive
	for i, v := range in.Header.Values("X-Robots-Tag") {
		dirs = append(dirs, readDirectives(v, in.Agents, true, "X-Robots-Tag line "+strconv.Itoa(i+1))...)
	}

	// TDMRep: the file, then the header, then the meta; the last that
	// states 0 or 1 wins, with the policy given beside it.
	type tdmValue struct {
		res    int
		policy string
		from   string
	}
	var tdms []tdmValue
	if in.TDMFile != nil && (in.TDMFile.Reservation == 0 || in.TDMFile.Reservation == 1) {
		tdms = append(tdms, tdmValue{in.TDMFile.Reservation, in.TDMFile.Policy, "tdmrep.json rule " + strconv.Itoa(in.TDMFile.Rule)})
	}
	headerPolicy := ""
	for _, v := range in.Header.Values("Tdm-Policy") {
		if trimSpace(v) != "" {
			headerPolicy = trimSpace(v)
		}
	}
	for i, v := range in.Header.Values("Tdm-Reservation") {
		if r := trimSpace(v); r == "0" || r == "1" {
			tdms = append(tdms, tdmValue{int(r[0] - '0'), headerPolicy, "tdm-reservation header line " + strconv.Itoa(i+1)})
		}
	}

	page := in.HTML
	if in.MaxHTML > 0 && len(page) > in.MaxHTML {
		page = page[:in.MaxHTML]
	}
	var metaTDM []tdmValue
	metaPolicy := ""
	z := html.NewTokenizer(bytes.NewReader(page))
	line := 1
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		at := line
		line += strings.Count(string(z.Raw()), "\n")
		tok := z.Token()
		if (tt != html.StartTagToken && tt != html.SelfClosingTagToken) || tok.Data != "meta" {
			continue
		}
		name, content, hasName, hasContent := "", "", false, false
		for _, a := range tok.Attr {
			if a.Key == "name" && !hasName {
				name, hasName = trimSpace(a.Val), true
			}
			if a.Key == "content" && !hasContent {
				content, hasContent = a.Val, true
			}
		}
		if !hasName || !hasContent {
			continue
		}
		where := "meta line " + strconv.Itoa(at)
		switch lname := lowerASCII(name); {
		case lname == "robots":
			dirs = append(dirs, readDirectives(content, in.Agents, false, where)...)
		case lname == "tdm-reservation":
			if r := trimSpace(content); r == "0" || r == "1" {
				metaTDM = append(metaTDM, tdmValue{int(r[0] - '0'), "", "tdm-reservation meta line " + strconv.Itoa(at)})
			}
		case lname == "tdm-policy":
			if trimSpace(content) != "" {
				metaPolicy = trimSpace(content)
			}
		case agentToken(in.Agents, name) != "":
			dirs = append(dirs, readDirectives(content, in.Agents, false, where+" ("+agentToken(in.Agents, name)+")")...)
		}
	}
	for _, m := range metaTDM {
		m.policy = metaPolicy
		tdms = append(tdms, m)
	}

	a := DefaultPageAnswer()
	first := func(key string, names ...string) bool {
		for _, d := range dirs {
			for _, n := range names {
				if d.name == n {
					a.Decided[key] = d.from
					return true
				}
			}
		}
		return false
	}
	a.Index = !first("index", "noindex", "none")
	a.Follow = !first("follow", "nofollow", "none")
	a.Archive = !first("archive", "noarchive", "nocache")
	a.ImageIndex = !first("image_index", "noimageindex")
	a.Translate = !first("translate", "notranslate")
	a.NoAI = first("noai", "noai")
	a.NoImageAI = first("noimageai", "noimageai")
	if !a.Index && first("index_if_embedded", "indexifembedded") {
		a.IndexIfEmbedded = true
	}
	a.Snippet = smallestLimit(dirs, "max-snippet:", &a, "snippet")
	a.VideoPreview = smallestLimit(dirs, "max-video-preview:", &a, "video_preview")
	order := map[string]int{"large": 0, "standard": 1, "none": 2}
	for _, d := range dirs {
		if d.name == "max-image-preview:" {
			v := lowerASCII(d.value)
			if order[v] > order[a.ImagePreview] {
				a.ImagePreview, a.Decided["image_preview"] = v, d.from
			}
		}
	}
	var earliest time.Time
	for _, d := range dirs {
		if d.name == "unavailable_after:" {
			if t, ok := refDate(d.value); ok && (earliest.IsZero() || t.Before(earliest)) {
				earliest, a.Decided["unavailable_after"] = t, d.from
			}
		}
	}
	if !earliest.IsZero() {
		a.UnavailableAfter = earliest.UTC().Format(time.RFC3339Nano)
	}

	if len(tdms) > 0 {
		last := tdms[len(tdms)-1]
		r := last.res
		a.TDMReservation, a.TDMPolicy, a.Decided["tdm_reservation"] = &r, last.policy, last.from
	}

	// The categories: each source's vote in order, the most restrictive
	// winning, the first of them deciding.
	type vote struct{ pref, from string }
	var trainVotes, searchVotes []vote
	if usage.TrainAI != PrefUnknown {
		trainVotes = append(trainVotes, vote{usage.TrainAI, "robots.txt Content-Usage line " + strconv.Itoa(usage.TrainAILine)})
	}
	if usage.Search != PrefUnknown {
		searchVotes = append(searchVotes, vote{usage.Search, "robots.txt Content-Usage line " + strconv.Itoa(usage.SearchLine)})
	}
	if h := in.Header.Values("Content-Usage"); len(h) > 0 {
		st := strings.Join(h, ", ")
		if p := StatementPreference(st, CategoryTrainAI); p != PrefUnknown {
			trainVotes = append(trainVotes, vote{p, "Content-Usage header"})
		}
		if p := StatementPreference(st, CategorySearch); p != PrefUnknown {
			searchVotes = append(searchVotes, vote{p, "Content-Usage header"})
		}
	}
	if p, line := signalOf(signals, "ai-train"); p != PrefUnknown {
		trainVotes = append(trainVotes, vote{p, "robots.txt Content-Signal line " + strconv.Itoa(line)})
	}
	if p, line := signalOf(signals, "search"); p != PrefUnknown {
		searchVotes = append(searchVotes, vote{p, "robots.txt Content-Signal line " + strconv.Itoa(line)})
	}
	for _, d := range dirs {
		if d.name == "noai" || d.name == "noimageai" {
			trainVotes = append(trainVotes, vote{PrefDisallowed, d.from})
			break
		}
	}
	if a.TDMReservation != nil {
		p := PrefAllowed
		if *a.TDMReservation == 1 {
			p = PrefDisallowed
		}
		trainVotes = append(trainVotes, vote{p, a.Decided["tdm_reservation"]})
	}
	for _, c := range []struct {
		votes []vote
		out   *string
		key   string
	}{{trainVotes, &a.AITrain, "ai_train"}, {searchVotes, &a.Search, "search"}} {
		for _, want := range []string{PrefDisallowed, PrefAllowed} {
			for _, v := range c.votes {
				if v.pref == want && *c.out == PrefUnknown {
					*c.out, a.Decided[c.key] = want, v.from
				}
			}
		}
	}
	return a
}

// smallestLimit returns the most restrictive of the max-snippet (or
// max-video-preview) values and nosnippet's 0: the smallest that is not
// -1; -1 when there is none. It records the first directive that gives it.
func smallestLimit(dirs []directive, name string, a *PageAnswer, key string) int {
	best, from := -1, ""
	for _, d := range dirs {
		n := -1
		switch {
		case d.name == "nosnippet":
			n = 0
		case d.name == name:
			if d.value == "-1" {
				continue
			}
			if d.value == "" || strings.Trim(d.value, "0123456789") != "" {
				continue
			}
			n = 1<<31 - 1 // at most this: larger is no practical limit
			if v, err := strconv.Atoi(d.value); err == nil && v < n {
				n = v
			}
		default:
			continue
		}
		if best == -1 || n < best {
			best, from = n, d.from
		}
	}
	if from != "" {
		a.Decided[key] = from
	}
	return best
}

// signalOf returns what the content-signal lines say of key: n if a pair
// key=no (value and key ASCII case ignored) is in a valid line, else y
// for yes, else unknown; and the first line that gives it. A line is valid
// when every comma-separated piece is key=value with both non-empty once
// trimmed and no blank in the key.
func signalOf(lines []UsageLine, key string) (string, int) {
	best, at := PrefUnknown, 0
	for _, l := range lines {
		pairs := strings.Split(l.Value, ",")
		valid := strings.TrimSpace(l.Value) != ""
		for _, p := range pairs {
			k, v, ok := strings.Cut(p, "=")
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			if !ok || k == "" || v == "" || strings.ContainsAny(k, " \t") {
				valid = false
			}
		}
		if !valid {
			continue
		}
		for _, p := range pairs {
			k, v, _ := strings.Cut(p, "=")
			if lowerASCII(strings.TrimSpace(k)) != key {
				continue
			}
			pref := PrefUnknown
			switch lowerASCII(strings.TrimSpace(v)) {
			case "yes":
				pref = PrefAllowed
			case "no":
				pref = PrefDisallowed
			}
			if restrictiveness(pref) > restrictiveness(best) {
				best, at = pref, l.Line
			}
		}
	}
	return best, at
}

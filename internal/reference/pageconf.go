package reference

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
)

// PageCase is one entry of the page-signals conformance table
// (testdata/page/conformance.json): a response (header field lines, HTML),
// optionally the site's robots.txt and the URL, and a tdmrep.json rule, a
// crawler's product tokens, and the answer docs/SEMANTICS.md section 8
// requires.
type PageCase struct {
	Name   string   `json:"name"`
	Source string   `json:"source"` // the document and section the case comes from
	Agents []string `json:"agents"`
	// Header is the response's field lines, "Name: value" each.
	Header []string `json:"header,omitempty"`
	HTML   string   `json:"html,omitempty"`
	// MaxHTML, when set, is the number of bytes of HTML read.
	MaxHTML int `json:"max_html,omitempty"`
	// Robots, when set, is the site's robots.txt (read in RFC9309), URL
	// the page's URL.
	Robots  string       `json:"robots,omitempty"`
	URL     string       `json:"url,omitempty"`
	TDMFile *TDMFileRule `json:"tdm_file,omitempty"`
	Expect  PageExpect   `json:"expect"`
}

// PageExpect is the answer a PageCase requires, in the keys of
// PageAnswer: a key left out must have its value in a page that says
// nothing (DefaultPageAnswer), and decided, when given, must be exactly
// what decided each answer.
type PageExpect struct {
	Disallowed       *bool             `json:"disallowed"`
	Index            *bool             `json:"index"`
	Follow           *bool             `json:"follow"`
	Archive          *bool             `json:"archive"`
	Snippet          *int              `json:"snippet"`
	ImagePreview     *string           `json:"image_preview"`
	VideoPreview     *int              `json:"video_preview"`
	ImageIndex       *bool             `json:"image_index"`
	Translate        *bool             `json:"translate"`
	IndexIfEmbedded  *bool             `json:"index_if_embedded"`
	UnavailableAfter *string           `json:"unavailable_after"`
	NoAI             *bool             `json:"noai"`
	NoImageAI        *bool             `json:"noimageai"`
	AITrain          *string           `json:"ai_train"`
	Search           *string           `json:"search"`
	TDMReservation   *int              `json:"tdm_reservation"`
	TDMPolicy        *string           `json:"tdm_policy"`
	Decided          map[string]string `json:"decided"`
}

// Answer returns the whole answer e requires. Its Decided is nil when e
// does not say what decided: a comparison then leaves it out.
func (e PageExpect) Answer() PageAnswer {
	a := DefaultPageAnswer()
	if e.Disallowed != nil && *e.Disallowed {
		a = DisallowedPageAnswer()
	}
	set := func(dst *bool, src *bool) {
		if src != nil {
			*dst = *src
		}
	}
	setS := func(dst *string, src *string) {
		if src != nil {
			*dst = *src
		}
	}
	setI := func(dst *int, src *int) {
		if src != nil {
			*dst = *src
		}
	}
	set(&a.Index, e.Index)
	set(&a.Follow, e.Follow)
	set(&a.Archive, e.Archive)
	setI(&a.Snippet, e.Snippet)
	setS(&a.ImagePreview, e.ImagePreview)
	setI(&a.VideoPreview, e.VideoPreview)
	set(&a.ImageIndex, e.ImageIndex)
	set(&a.Translate, e.Translate)
	set(&a.IndexIfEmbedded, e.IndexIfEmbedded)
	setS(&a.UnavailableAfter, e.UnavailableAfter)
	set(&a.NoAI, e.NoAI)
	set(&a.NoImageAI, e.NoImageAI)
	setS(&a.AITrain, e.AITrain)
	setS(&a.Search, e.Search)
	a.TDMReservation = e.TDMReservation
	setS(&a.TDMPolicy, e.TDMPolicy)
	a.Decided = e.Decided
	return a
}

// HeaderOf returns field lines "Name: value" as an http.Header, in order.
func HeaderOf(lines []string) (http.Header, error) {
	h := http.Header{}
	for _, l := range lines {
		name, value, ok := strings.Cut(l, ":")
		if !ok || strings.TrimSpace(name) == "" {
			return nil, fmt.Errorf("header line %q: want Name: value", l)
		}
		h.Add(strings.TrimSpace(name), strings.Trim(value, " \t"))
	}
	return h, nil
}

// Input returns what the reference reads for c.
func (c PageCase) Input() PageInput {
	h, _ := HeaderOf(c.Header)
	return PageInput{
		Agents: c.Agents, Header: h, HTML: []byte(c.HTML), MaxHTML: c.MaxHTML,
		Robots: []byte(c.Robots), HasRobots: c.Robots != "", URL: c.URL, TDMFile: c.TDMFile,
	}
}

// LoadPageConformance reads the page-signals conformance table at path
// and validates every case: a unique name, a source, agents, header lines
// of the form "Name: value", a URL exactly when there is a robots.txt,
// and only known keys (a misspelt key is an error, not a lost
// expectation).
func LoadPageConformance(path string) ([]PageCase, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("page conformance table: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var cases []PageCase
	if err := dec.Decode(&cases); err != nil {
		return nil, fmt.Errorf("page conformance table %s: %w", path, err)
	}
	seen := map[string]bool{}
	for i, c := range cases {
		var err error
		switch _, herr := HeaderOf(c.Header); {
		case c.Name == "":
			err = fmt.Errorf("no name")
		case seen[c.Name]:
			err = fmt.Errorf("duplicate name")
		case c.Source == "":
			err = fmt.Errorf("no source")
		case len(c.Agents) == 0:
			err = fmt.Errorf("no agents")
		case herr != nil:
			err = herr
		case (c.Robots == "") != (c.URL == ""):
			err = fmt.Errorf("want a url exactly when there is a robots.txt")
		}
		if err != nil {
			return nil, fmt.Errorf("page conformance table %s: case %d (%q): %w", path, i, c.Name, err)
		}
		seen[c.Name] = true
	}
	return cases, nil
}

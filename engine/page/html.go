package page

import (
	"bytes"

	"golang.org/x/net/html"
)

// html reads the <meta> tags of b for the crawler: those named robots or
// like one of its tokens give directives, tdm-reservation and tdm-policy
// the TDMRep meta answer, which it returns. A tag is what the tokenizer
// reads as a start tag, anywhere in the document; the text of raw text
// elements (script, style, title, textarea, noscript...) and comments
// hold none. Of a tag's repeated attributes the first counts, as in an
// HTML parser.
func (r *reader) html(b []byte) TDM {
	z := html.NewTokenizer(bytes.NewReader(b))
	line := 1
	var tdm TDM
	var policy []byte
	policyLine := 0
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		at := line
		line += bytes.Count(z.Raw(), newline)
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		tag, more := z.TagName()
		if !more || string(tag) != "meta" {
			continue
		}
		var name, content []byte
		var hasName, hasContent bool
		for more {
			var k, v []byte
			k, v, more = z.TagAttr()
			switch {
			case !hasName && string(k) == "name":
				name, hasName = trim(v), true
			case !hasContent && string(k) == "content":
				content, hasContent = v, true
			}
		}
		if !hasName || !hasContent {
			continue
		}
		o := Origin{Source: SourceMeta, Line: at}
		switch {
		case equalFold(name, "robots"):
			readValue(r, content, o, false)
		case equalFold(name, "tdm-reservation"):
			if res := reservation(content); res != TDMUnset {
				tdm = TDM{Reservation: res, From: Origin{Source: SourceTDMMeta, Line: at}}
			}
		case equalFold(name, "tdm-policy"):
			if p := trim(content); len(p) > 0 {
				policy, policyLine = append(policy[:0], p...), at
			}
		default:
			if o.Agent = tokenOf(r.tokens, name); o.Agent != "" {
				readValue(r, content, o, false)
			}
		}
	}
	if tdm.Reservation != TDMUnset && policyLine > 0 {
		tdm.Policy = string(policy)
	}
	return tdm
}

var newline = []byte{'\n'}

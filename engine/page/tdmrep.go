package page

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/seed-275a9bd5/robotstxt/compile"
)

// MaxTDMRepRules bounds the rules of a tdmrep.json that ParseTDMRep keeps:
// a site reserves rights for a few paths, and a rule costs a pattern match
// per URL asked. Rules after it are dropped, and TDMRep.Truncated says so.
const MaxTDMRepRules = 1000

// MaxTDMRepBytes bounds the tdmrep.json ParseTDMRep reads: 1,000 rules of
// a few hundred bytes each. A longer file is refused.
const MaxTDMRepBytes = 512 << 10

// TDMRep is an origin's /.well-known/tdmrep.json (the TDM Reservation
// Protocol's file): its rules, in array order. It is safe for concurrent
// use.
type TDMRep struct {
	rules []tdmRule
	// Truncated reports that the file had more than MaxTDMRepRules rules.
	Truncated bool
}

type tdmRule struct {
	pattern     string // canonical (compile.NormalizePattern, RFC9309)
	reservation Reservation
	policy      string
	n           int // its number in the array, from 1
}

// ParseTDMRep reads a tdmrep.json: a JSON array of objects with a
// "location" (a robots.txt pattern: '*' any bytes, '$' the end, matched
// case-sensitively against the URL's path and query), a "tdm-reservation"
// (0 or 1) and an optional "tdm-policy" (a URL). A rule without a location
// or with a reservation other than 0 and 1 is a protocol error and is
// skipped. A file that is not such an array is an error: the origin then
// does not implement the protocol.
func ParseTDMRep(data []byte) (*TDMRep, error) {
	if len(data) > MaxTDMRepBytes {
		return nil, fmt.Errorf("tdmrep.json: %d bytes, more than %d", len(data), MaxTDMRepBytes)
	}
	var raw []map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, errors.New("tdmrep.json: not a JSON array of objects: " + err.Error())
	}
	f := &TDMRep{}
	for i, r := range raw {
		if len(f.rules) == MaxTDMRepRules {
			f.Truncated = true
			break
		}
		var loc, policy string
		var res json.Number
		if json.Unmarshal(r["location"], &loc) != nil || r["location"] == nil {
			continue
		}
		d := json.NewDecoder(strings.NewReader(string(r["tdm-reservation"])))
		d.UseNumber()
		if d.Decode(&res) != nil {
			continue
		}
		rule := tdmRule{pattern: compile.NormalizePattern(loc, compile.RFC9309), n: i + 1}
		switch res.String() {
		case "0":
			rule.reservation = TDMNotReserved
		case "1":
			rule.reservation = TDMReserved
		default:
			continue
		}
		if p, ok := r["tdm-policy"]; ok && json.Unmarshal(p, &policy) == nil {
			rule.policy = strings.TrimSpace(policy)
		}
		f.rules = append(f.rules, rule)
	}
	return f, nil
}

// Len returns the number of rules f keeps.
func (f *TDMRep) Len() int { return len(f.rules) }

// Rule returns the rule of f that governs url (an absolute URL or a path):
// the first in array order whose location matches its path, as an
// Input.TDMFile (From names the rule's number in the array); the zero TDM
// when none matches. The match costs at most the location's length times
// the path's, per rule.
func (f *TDMRep) Rule(url string) TDM {
	if f == nil || len(f.rules) == 0 {
		return TDM{}
	}
	path := string(compile.AppendPath(nil, compile.ExtractPath(url, compile.RFC9309), compile.RFC9309))
	for _, r := range f.rules {
		if globMatch(r.pattern, path) {
			return TDM{Reservation: r.reservation, Policy: r.policy, From: Origin{Source: SourceTDMFile, Line: r.n}}
		}
	}
	return TDM{}
}

// globMatch reports whether pattern, a robots.txt pattern, matches a
// prefix of path ('*' any bytes, a final '$' the end of path). It keeps
// one backtracking point, the last '*', so it costs at most
// len(pattern)*len(path) steps.
func globMatch(pattern, path string) bool {
	anchored := strings.HasSuffix(pattern, "$")
	if anchored {
		pattern = pattern[:len(pattern)-1]
	}
	p, s := 0, 0
	star, mark := -1, 0
	for {
		if p == len(pattern) && (!anchored || s == len(path)) {
			return true
		}
		switch {
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, s
			p++
		case p < len(pattern) && s < len(path) && pattern[p] == path[s]:
			p++
			s++
		case star >= 0 && mark < len(path):
			mark++
			p, s = star+1, mark
		default:
			return false
		}
	}
}

package compile

import "fmt"

// rec is one line of a File (doc.go: what a File keeps) in 12 bytes that
// hold no pointer, which the garbage collector does not scan. at is the
// offset in the file's text of its first string, line its line (a rule's
// kind in its top two bits: lineOf, kindOf), and a and b are lengths:
//
//	rule:      the value, a bytes at at; the pattern, b bytes after the
//	           value, or the value itself when b is 0 (normalising did
//	           not rewrite it)
//	agent:     the value, a bytes at at; its name, its first b bytes
//	           (AgentName's result is a prefix of the value)
//	extension: the key, a bytes at at (lower case); the value, b bytes
//	           after the key
//	usage:     the value, a bytes at at; its path's pattern, b bytes
//	           after the value, or the path itself (usagePath) when b is
//	           0
//	sitemap:   the URL, a bytes at at
//
// The widths hold for any file Parse reads: a value is at most
// MaxLineLength bytes and a pattern three times that (recLimits), a file
// at most LargestMaxFileSize bytes, so its text is shorter than 1<<32 and
// it has fewer than 1<<kindShift lines.
type rec struct {
	at, line uint32
	a, b     uint16
}

// kindShift is where a rule's kind starts in its record's line word.
const kindShift = 30

// These fail to compile if a value's or pattern's length may not fit a
// rec's uint16, or a line number (at most one a byte) the bits below the
// kind.
const (
	_ uint16 = 3 * MaxLineLength
	_ uint32 = 1<<kindShift - LargestMaxFileSize
)

// lineOf returns the line of r.
func (r rec) lineOf() int { return int(r.line & (1<<kindShift - 1)) }

// kindOf returns the kind of r, a rule's record (NoRule for other lines).
func (r rec) kindOf() RuleKind { return RuleKind(r.line >> kindShift) }

// records are what a File's views read: the text and the records.
type records struct {
	text string
	recs []rec
}

// str returns the n bytes of the text at at.
func (d *records) str(at uint32, n uint16) string { return d.text[at : at+uint32(n)] }

// run is n records of d from at: a group's lines of one kind, a
// file's sitemaps, or a selection's merged lines. The zero run is empty.
type run struct {
	d     *records
	at, n uint32
}

// Len returns the number of lines.
func (v run) Len() int { return int(v.n) }

// recs returns v's records (none for the zero run).
func (v run) recs() []rec {
	if v.d == nil {
		return nil
	}
	return v.d.recs[v.at : v.at+v.n]
}

// rec returns the i-th record of v. It panics if i is out of range.
func (v run) rec(i int) rec {
	if uint(i) >= uint(v.n) {
		panic("compile: line index out of range")
	}
	return v.d.recs[v.at+uint32(i)]
}

// sliceOf returns v's lines in a new slice, made by at, nil when there
// are none.
func sliceOf[T any](v run, at func(int) T) []T {
	if v.n == 0 {
		return nil
	}
	out := make([]T, v.n)
	for i := range out {
		out[i] = at(i)
	}
	return out
}

// equalRuns reports whether a and b hold equal lines, as at makes them.
func equalRuns[T comparable](a, b run, atA, atB func(int) T) bool {
	if a.n != b.n {
		return false
	}
	for i := range int(a.n) {
		if atA(i) != atB(i) {
			return false
		}
	}
	return true
}

// Rules are rules in file order: a group's, or the merged rules of a
// Selection. They are a view of a File's records: At makes a rule's Rule
// without allocating. The zero value holds no rules. Rules are immutable
// and safe for concurrent use.
type Rules struct{ run }

// ruleRec returns the record of a rule on line whose value of valLen
// bytes starts at offset at of the text, followed there by its pattern of
// patLen bytes when normalising rewrote it (0 when the pattern is the
// value).
func ruleRec(at, line int, kind RuleKind, valLen, patLen int) rec {
	return rec{at: uint32(at), line: uint32(line) | uint32(kind)<<kindShift, a: uint16(valLen), b: uint16(patLen)}
}

// At returns the i-th rule, in file order. It panics if i is out of range.
func (rs Rules) At(i int) Rule {
	r := rs.rec(i)
	return Rule{Kind: r.kindOf(), Pattern: rs.pattern(r), Value: rs.d.str(r.at, r.a), Line: r.lineOf()}
}

// Pattern returns the pattern of the i-th rule: At(i).Pattern, for a
// caller that wants no more of it, such as a matcher being built.
func (rs Rules) Pattern(i int) string { return rs.pattern(rs.rec(i)) }

// PatternSpan returns where the pattern of the i-th rule is in Text():
// Pattern(i) is Text()[start:end].
func (rs Rules) PatternSpan(i int) (start, end int) {
	r := rs.rec(i)
	if start, end, ok := r.rewritten(); ok {
		return start, end
	}
	return int(r.at), int(r.at) + int(r.a)
}

func (rs Rules) pattern(r rec) string {
	if r.b > 0 { // rewritten: it follows the value
		return rs.d.str(r.at+uint32(r.a), r.b)
	}
	return rs.d.str(r.at, r.a)
}

// rewritten returns where the pattern of r, a rule's or a content-usage
// line's record, is in the text when normalising rewrote it (it follows
// the value), and false when it did not.
func (r rec) rewritten() (start, end int, ok bool) {
	if r.b == 0 {
		return 0, 0, false
	}
	start = int(r.at) + int(r.a)
	return start, start + int(r.b), true
}

// Text returns the string of which every Pattern and Value of rs is a
// substring ("" when rs holds no rules): a matcher built from the
// patterns may keep offsets into it rather than copies of them
// (automaton.Options.Text).
func (rs Rules) Text() string {
	if rs.d == nil {
		return ""
	}
	return rs.d.text
}

// Kind returns the kind of the i-th rule: At(i).Kind, for a caller that
// wants no more of it, such as a decision.
func (rs Rules) Kind(i int) RuleKind { return rs.rec(i).kindOf() }

// Slice returns the rules in a new slice, for a caller that wants them
// all at once; At reads one without allocating.
func (rs Rules) Slice() []Rule { return sliceOf(rs.run, rs.At) }

// String formats the lines as a slice of them.
func (rs Rules) String() string { return fmt.Sprint(rs.Slice()) }

// Equal reports whether rs and o hold the same rules in the same order
// (go-cmp uses it to compare Files).
func (rs Rules) Equal(o Rules) bool { return equalRuns(rs.run, o.run, rs.At, o.At) }

// Agents are the user-agent lines of a group, in file order: a view of a
// File's records, as Rules are. The zero value holds none.
type Agents struct{ run }

// agentRec returns the record of a user-agent line whose value starts at
// offset at of the text.
func agentRec(at, line int, value, name string) rec {
	return rec{at: uint32(at), line: uint32(line), a: uint16(len(value)), b: uint16(len(name))}
}

// At returns the i-th user-agent line. It panics if i is out of range.
func (as Agents) At(i int) Agent {
	r := as.rec(i)
	return Agent{Name: as.d.str(r.at, r.b), Value: as.d.str(r.at, r.a), Line: r.lineOf()}
}

// Slice returns the lines in a new slice; At reads one without allocating.
func (as Agents) Slice() []Agent { return sliceOf(as.run, as.At) }

// String formats the lines as a slice of them.
func (as Agents) String() string { return fmt.Sprint(as.Slice()) }

// Equal reports whether as and o hold the same lines in the same order.
func (as Agents) Equal(o Agents) bool { return equalRuns(as.run, o.run, as.At, o.At) }

// Extensions are extension lines in file order (a group's, or a
// Selection's): a view of a File's records, as Rules are. The zero value
// holds none.
type Extensions struct{ run }

// extRec returns the record of an extension line whose key starts at
// offset at of the text, its value following it.
func extRec(at, line int, key, value string) rec {
	return rec{at: uint32(at), line: uint32(line), a: uint16(len(key)), b: uint16(len(value))}
}

// At returns the i-th extension line. It panics if i is out of range.
func (es Extensions) At(i int) Extension {
	r := es.rec(i)
	return Extension{Key: es.d.str(r.at, r.a), Value: es.d.str(r.at+uint32(r.a), r.b), Line: r.lineOf()}
}

// Slice returns the lines in a new slice; At reads one without allocating.
func (es Extensions) Slice() []Extension { return sliceOf(es.run, es.At) }

// String formats the lines as a slice of them.
func (es Extensions) String() string { return fmt.Sprint(es.Slice()) }

// Equal reports whether es and o hold the same lines in the same order.
func (es Extensions) Equal(o Extensions) bool { return equalRuns(es.run, o.run, es.At, o.At) }

// Usages are content-usage lines in file order (a group's, or a
// Selection's): a view of a File's records, as Rules are. The zero value
// holds none.
type Usages struct{ run }

// usageRec returns the record of a content-usage line whose value of
// valLen bytes starts at offset at of the text, followed there by its
// path's pattern of patLen bytes when normalising rewrote it (0 when the
// pattern is the path, or there is no path).
func usageRec(at, line, valLen, patLen int) rec {
	return rec{at: uint32(at), line: uint32(line), a: uint16(valLen), b: uint16(patLen)}
}

// At returns the i-th content-usage line. It panics if i is out of range.
func (us Usages) At(i int) Usage {
	r := us.rec(i)
	value := us.d.str(r.at, r.a)
	path := usagePath(value)
	return Usage{Pattern: us.pattern(r), Path: path, Statement: trimSpace(value[len(path):]), Value: value, Line: r.lineOf()}
}

// Pattern returns the pattern of the i-th line: At(i).Pattern.
func (us Usages) Pattern(i int) string { return us.pattern(us.rec(i)) }

// PatternSpan returns where the pattern of the i-th line is in Text():
// Pattern(i) is Text()[start:end], empty when the line has no path.
func (us Usages) PatternSpan(i int) (start, end int) { return us.span(us.rec(i)) }

func (us Usages) span(r rec) (start, end int) {
	if start, end, ok := r.rewritten(); ok {
		return start, end
	}
	return int(r.at), int(r.at) + len(usagePath(us.d.str(r.at, r.a)))
}

// Line returns the line of the i-th content-usage line: At(i).Line.
func (us Usages) Line(i int) int { return us.rec(i).lineOf() }

// Statement returns the statement of the i-th line: At(i).Statement.
func (us Usages) Statement(i int) string {
	r := us.rec(i)
	value := us.d.str(r.at, r.a)
	return trimSpace(value[len(usagePath(value)):])
}

func (us Usages) pattern(r rec) string {
	start, end := us.span(r)
	return us.d.text[start:end]
}

// Text returns the string of which every Pattern, Statement and Value of
// us is a substring ("" when us holds no lines), as Rules.Text does.
func (us Usages) Text() string {
	if us.d == nil {
		return ""
	}
	return us.d.text
}

// Slice returns the lines in a new slice; At reads one without allocating.
func (us Usages) Slice() []Usage { return sliceOf(us.run, us.At) }

// String formats the lines as a slice of them.
func (us Usages) String() string { return fmt.Sprint(us.Slice()) }

// Equal reports whether us and o hold the same lines in the same order.
func (us Usages) Equal(o Usages) bool { return equalRuns(us.run, o.run, us.At, o.At) }

// usagePath returns the path of a content-usage line's value: "" when
// the value does not start with '/' (the path is absent), else the value
// up to its first space or tab (draft-ietf-aipref-attach section 3.2).
func usagePath(value string) string {
	if value == "" || value[0] != '/' {
		return ""
	}
	if i := indexSpace(value); i >= 0 {
		return value[:i]
	}
	return value
}

// Sitemaps are a file's sitemap lines, in file order with duplicates: a
// view of its records, as Rules are. The zero value holds none.
type Sitemaps struct{ run }

// sitemapRec returns the record of a sitemap line whose URL starts at
// offset at of the text.
func sitemapRec(at, line int, url string) rec {
	return rec{at: uint32(at), line: uint32(line), a: uint16(len(url))}
}

// At returns the i-th sitemap line. It panics if i is out of range.
func (ss Sitemaps) At(i int) Sitemap {
	r := ss.rec(i)
	return Sitemap{URL: ss.d.str(r.at, r.a), Line: r.lineOf()}
}

// Slice returns the lines in a new slice; At reads one without allocating.
func (ss Sitemaps) Slice() []Sitemap { return sliceOf(ss.run, ss.At) }

// String formats the lines as a slice of them.
func (ss Sitemaps) String() string { return fmt.Sprint(ss.Slice()) }

// Equal reports whether ss and o hold the same lines in the same order.
func (ss Sitemaps) Equal(o Sitemaps) bool { return equalRuns(ss.run, o.run, ss.At, o.At) }

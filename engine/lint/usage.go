package lint

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/dunglas/httpsfv"

	"github.com/seed-275a9bd5/robotstxt/compile"
	"github.com/seed-275a9bd5/robotstxt/engine"
)

// Content-usage findings (docs/SEMANTICS.md section 7): statements that
// state less than they seem to (UsageSyntax, UsageKeyCase, UsageValue),
// lines that belong to no group (UsageOutsideGroup, from the parser's
// diagnostic) and statements that tie and conflict (UsageConflict). The
// statement is parsed as the engine parses it: an RFC 9651 Dictionary,
// with httpsfv.

// categories are the vocabulary's, whose values Check looks at.
var categories = [...]string{engine.CategoryTrainAI, engine.CategorySearch}

// usageStatements parses the statement of every content-usage line,
// keeps it in c.dicts, and reports statements that are no Dictionary,
// empty, or that give a category a value other than y or n.
func (c *checker) usageStatements() {
	c.dicts = make([][]*httpsfv.Dictionary, len(c.f.Groups))
	for gi := range c.f.Groups {
		us := c.f.GroupUsages(gi)
		c.dicts[gi] = make([]*httpsfv.Dictionary, us.Len())
		for i := range us.Len() {
			c.dicts[gi][i] = c.usageStatement(us.At(i))
		}
	}
}

// usageStatement reports what is wrong with u's statement and returns it
// parsed, nil when it is not a Dictionary.
func (c *checker) usageStatement(u compile.Usage) *httpsfv.Dictionary {
	d, err := httpsfv.UnmarshalDictionary([]string{u.Statement})
	if err != nil {
		c.notDictionary(u, err)
		return nil
	}
	if u.Statement == "" {
		what, hides := "the line has no statement", ""
		if u.Path != "" {
			what = "the line has a path (" + u.Path + ") but no statement after it"
			hides = ", and it hides the statements of shorter paths"
		}
		c.add(u.Line, UsageSyntax, what+": it states no preference, so every category is unknown where it decides"+hides+"; write one such as train-ai=n")
		return d
	}
	for _, key := range categories {
		if m, ok := d.Get(key); ok {
			c.usageValue(u.Line, key, m)
		}
	}
	return d
}

// notDictionary reports u, whose statement failed to parse with err:
// as UsageKeyCase when lower-case keys would parse, else as UsageSyntax.
func (c *checker) notDictionary(u compile.Usage, err error) {
	if lowered, keys := lowerKeys(u.Statement); keys != nil && isDictionary(lowered) {
		what := "key " + strconv.Quote(keys[0]) + " has"
		if len(keys) > 1 {
			what = "keys " + quoteAll(keys) + " have"
		}
		c.add(u.Line, UsageKeyCase, what+" upper-case letters: RFC 9651 keys are lower case, so the statement is not a Dictionary and every category is unknown; write "+lowered)
		return
	}
	c.add(u.Line, UsageSyntax, "the statement is not an RFC 9651 Dictionary ("+parseFailure(u, err)+
		"): it states no preference, so every category is unknown where it decides; write key=value members separated by commas, such as train-ai=n, search=y")
}

// isDictionary reports whether s parses as a Dictionary.
func isDictionary(s string) bool {
	_, err := httpsfv.UnmarshalDictionary([]string{s})
	return err == nil
}

// parseFailure says briefly why u's statement failed to parse with err:
// httpsfv's reason and where, and a hint for the usual mistakes.
func parseFailure(u compile.Usage, err error) string {
	msg := err.Error()
	at := -1
	if i := strings.LastIndex(msg, ": character "); i >= 0 {
		if n, convErr := strconv.Atoi(msg[i+len(": character "):]); convErr == nil {
			msg, at = msg[:i], n
		}
	}
	s := u.Statement
	switch {
	case at >= 0 && at < len(s):
		msg += " at " + strconv.Quote(cut(s[at:], 24))
	case at == len(s):
		msg += " at the end"
	}
	first, _, _ := strings.Cut(s, " ")
	switch {
	case u.Path == "" && strings.ContainsAny(first, "/*"):
		msg += "; a path starts with '/', else the whole value is the statement"
	case errors.Is(err, httpsfv.ErrInvalidDictionaryFormat) && at > 0 && at <= len(s) && (s[at-1] == ' ' || s[at-1] == '\t'):
		msg += "; members are separated by commas"
	}
	return msg
}

// cut returns s, shortened to n bytes and "..." when longer.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// usageValue reports the member m of a statement on line, the value of
// the category key, when it is not the Token y or n.
func (c *checker) usageValue(line int, key string, m httpsfv.Member) {
	what, fix := describeValue(m)
	if what == "" {
		return
	}
	write := key + "=y or " + key + "=n"
	if fix != "" {
		write = key + "=" + fix
	}
	c.add(line, UsageValue, key+" is "+what+", not the Token y or n: "+key+" is unknown where this line decides; write "+write)
}

// describeValue says what a category's value m is, "" when it is the
// Token y or n; and the Token that was probably meant, if any.
func describeValue(m httpsfv.Member) (what, fix string) {
	it, ok := m.(httpsfv.Item)
	if !ok {
		return "an inner list", ""
	}
	switch v := it.Value.(type) {
	case httpsfv.Token:
		if v == "y" || v == "n" {
			return "", ""
		}
		what = "the Token " + string(v)
		meant := meantToken(string(v))
		if meant != "" && len(v) == 1 {
			what += " (Tokens are case-sensitive)"
		}
		return what, meant
	case string:
		return "the String " + strconv.Quote(v) + " (quoted)", meantToken(v)
	case bool:
		if v {
			return "the Boolean true (a key alone, without =)", ""
		}
		return "the Boolean false", ""
	case int64, float64:
		return "a number", ""
	case []byte:
		return "a Byte Sequence", ""
	case time.Time:
		return "a Date", ""
	}
	return "not a Token", ""
}

// meantToken returns y or n when s is that letter or word in any case
// ("N", "yes", "No"), else "".
func meantToken(s string) string {
	switch strings.ToLower(s) {
	case "y", "yes":
		return "y"
	case "n", "no":
		return "n"
	}
	return ""
}

// lowerKeys returns statement s with its keys (its members' and their
// parameters') in lower case, and the keys that had upper-case ASCII
// letters, as written (nil when none had). s is taken to be a Dictionary
// but for the case of its keys: a key starts the statement or follows a
// ',' or ';' (and white space) outside a String.
func lowerKeys(s string) (string, []string) {
	var keys []string
	b := []byte(s)
	atKey := true
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; {
		case ch == '"':
			i = stringEnd(s, i)
		case ch == ',' || ch == ';':
			atKey = true
		case atKey && ch != ' ' && ch != '\t':
			j := i
			for j < len(s) && isKeyByte(s[j]) {
				j++
			}
			if k := s[i:j]; k != lowerASCII(k) {
				keys = append(keys, k)
				copy(b[i:], lowerASCII(k))
			}
			i, atKey = max(i, j-1), false
		}
	}
	return string(b), keys
}

// stringEnd returns the index of the '"' that ends the String starting at
// s[i], or len(s).
func stringEnd(s string, i int) int {
	for i++; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return len(s)
}

// isKeyByte reports whether b may be in an RFC 9651 key, or would be if
// it were lower case.
func isKeyByte(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' ||
		b == '_' || b == '-' || b == '.' || b == '*'
}

// lowerASCII returns s with its ASCII upper-case letters in lower case
// (and nothing else changed, unlike strings.ToLower).
func lowerASCII(s string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

func quoteAll(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

// usageRef is a content-usage line: its group and line number.
type usageRef struct{ group, line int }

// tieKey is a category of the statements of lines with one pattern.
type tieKey struct{ pattern, key string }

// usageConflicts reports, for every crawler's merged groups, the
// content-usage lines whose statement gives a category y where an earlier
// line with the same pattern gives it n, or n where it gives y: once per
// line, at the later line.
func (c *checker) usageConflicts() {
	byName := c.mergedGroups()
	reported := map[int]bool{} // the lines reported
	for _, n := range sortedNames(byName) {
		// first[k] are the first lines that give k's category y and n.
		first := map[tieKey]*[2]usageRef{}
		for _, gi := range byName[n] {
			for i, d := range c.dicts[gi] {
				if d != nil {
					c.usageConflict(n, usageRef{gi, c.f.GroupUsages(gi).Line(i)}, c.f.GroupUsages(gi).Pattern(i), d, first, reported)
				}
			}
		}
	}
}

// usageConflict looks at the statement d of the line u with pattern,
// which applies to the crawler name: it reports u when an earlier line in
// first gives a category the other preference, and notes in first the
// preferences u is the first to give.
func (c *checker) usageConflict(name string, u usageRef, pattern string, d *httpsfv.Dictionary, first map[tieKey]*[2]usageRef, reported map[int]bool) {
	for _, key := range d.Names() {
		p := yesNo(d, key)
		if p < 0 {
			continue
		}
		k := tieKey{pattern, key}
		refs := first[k]
		if refs == nil {
			refs = &[2]usageRef{}
			first[k] = refs
		}
		if other := refs[1-p]; other.line != 0 && !reported[u.line] {
			reported[u.line] = true
			c.reportConflict(name, u, other, pattern, key, p)
		}
		if refs[p].line == 0 {
			refs[p] = u
		}
	}
}

// yesNo returns 0 when d gives key the Token y, 1 when n, else -1.
func yesNo(d *httpsfv.Dictionary, key string) int {
	m, _ := d.Get(key)
	if it, ok := m.(httpsfv.Item); ok {
		switch it.Value {
		case httpsfv.Token("y"):
			return 0
		case httpsfv.Token("n"):
			return 1
		}
	}
	return -1
}

// reportConflict reports the line u, whose statement gives key the
// preference p (0 y, 1 n) where the earlier line other gives the other.
func (c *checker) reportConflict(name string, u, other usageRef, pattern, key string, p int) {
	yn := [2]string{"y", "n"}
	where := "for the same path (" + pattern + ")"
	if pattern == "" {
		where = "with no path either"
	}
	merged := ""
	if other.group != u.group {
		merged = " (the groups for " + name + " are merged)"
	}
	c.add(u.line, UsageConflict, "line "+strconv.Itoa(other.line)+" gives "+key+"="+yn[1-p]+" "+where+", this line "+key+"="+yn[p]+merged+
		": the two tie and the most restrictive wins, so "+key+" is n there whichever comes last; delete the line that is not meant")
}

// usageOutsidePrefix starts the message of the parser's
// rule-outside-group diagnostic of a content-usage line ("content-usage
// before any user-agent line: it belongs to no group").
const usageOutsidePrefix = "content-usage "

// isUsageOutside reports whether d is the parser's diagnostic of a
// content-usage line that belongs to no group.
func isUsageOutside(d compile.Diagnostic) bool {
	return d.Kind == compile.DiagRuleOutsideGroup && strings.HasPrefix(d.Message, usageOutsidePrefix)
}

// usageOutside returns the finding that Report gives for d, a diagnostic
// for which isUsageOutside holds.
func usageOutside(d compile.Diagnostic) Finding {
	where, ok := strings.CutSuffix(strings.TrimPrefix(d.Message, usageOutsidePrefix), ": it belongs to no group")
	if !ok {
		where = "outside every group"
	}
	fix := "move it after the user-agent lines of the group it is for"
	if strings.Contains(where, "blank line") {
		fix += ", with no blank line before it"
	}
	return Finding{Line: d.Line, Kind: UsageOutsideGroup, Message: "content-usage line " + where +
		": it belongs to no group, so its preferences apply to no crawler (every category stays unknown); " + fix}
}

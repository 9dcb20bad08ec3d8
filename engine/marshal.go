package engine

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sort"

	"github.com/seed-275a9bd5/robotstxt/automaton"
	"github.com/seed-275a9bd5/robotstxt/compile"
)

// Binary format of a Robots (version 1), so that a fleet compiles a
// robots.txt once and ships the result. Integers are unsigned LEB128 varints
// ("uvarint") unless said otherwise, strings a uvarint length then the bytes.
//
//	magic      "RTXT"
//	version    byte (robotsVersion)
//	options    byte semantics, varint MaxFileSize, varint StateBudget
//	fixed      byte (0, ReasonAllowAll or ReasonDisallowAll)
//	file       byte semantics, groups, sitemaps, diagnostics,
//	           uvarint Size, byte Truncated, uvarint Lines
//	  group    agents (flags, name, [value], line), rules (flags, pattern,
//	           [value], line), extensions (key, value, line); flag bit 1 means
//	           the value equals the name or pattern and is not repeated
//	matchers   uvarint count (at most MaxCachedMatchers), then per matcher:
//	           tokens (uvarint count, strings), byte selection kind,
//	           selected groups (uvarint count, indexes), then either byte 1
//	           and the uvarint index of an earlier matcher with the same
//	           selection, whose automata it shares, or byte 0, refs (uvarint
//	           count, then per ref uvarint rule index in the selection and
//	           byte reason) and the automaton.Set (Set.AppendBinary)
//
// Only the parts of a matcher that cost to build are stored: the selection
// is recomputed from the file (and must agree with the stored group
// indexes), and each ref's rule and priority are derived from the rule it
// points to.
const (
	robotsMagic   = "RTXT"
	robotsVersion = 1
)

// Flags of an encoded agent or rule.
const (
	flagAllow     = 1 << 0 // rule: an allow rule
	flagSameValue = 1 << 1 // the value equals the name (agent) or the pattern (rule)
)

var (
	errNotRobots  = errors.New("engine: not an encoded Robots (bad magic)")
	errRobotsUsed = errors.New("engine: UnmarshalBinary needs a zero Robots (new(Robots)), not one already compiled or loaded")
)

// MarshalBinary encodes r: its options, the parsed file (groups, rules,
// extensions, sitemaps, diagnostics) and every matcher built and cached so
// far, automata included. It implements encoding.BinaryMarshaler and is safe
// to call concurrently with other uses of r; a matcher being built at that
// moment is left out.
func (r *Robots) MarshalBinary() ([]byte, error) {
	if r.file == nil {
		return nil, errors.New("engine: MarshalBinary of a zero Robots")
	}
	b := append([]byte(nil), robotsMagic...)
	b = append(b, robotsVersion, byte(r.opts.Semantics))
	b = binary.AppendVarint(b, int64(r.opts.MaxFileSize))
	b = binary.AppendVarint(b, int64(r.opts.StateBudget))
	b = append(b, byte(r.fixed))
	b = appendFile(b, r.file)

	var ms []*Matcher
	if mp := r.matchers.Load(); mp != nil {
		keys := make([]string, 0, len(*mp))
		for k, e := range *mp {
			if e.done.Load() {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys) // a deterministic encoding
		for _, k := range keys {
			ms = append(ms, (*mp)[k].m)
		}
	}
	b = binary.AppendUvarint(b, uint64(len(ms)))
	for i, m := range ms {
		var err error
		if b, err = appendMatcher(b, m, ms[:i]); err != nil {
			return nil, err
		}
	}
	return b, nil
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendInt(b []byte, v int) []byte {
	if v < 0 { // never produced by the parser; keep the format unsigned
		v = 0
	}
	return binary.AppendUvarint(b, uint64(v))
}

func appendFile(b []byte, f *compile.File) []byte {
	b = append(b, byte(f.Semantics))
	b = binary.AppendUvarint(b, uint64(len(f.Groups)))
	for _, g := range f.Groups {
		b = binary.AppendUvarint(b, uint64(len(g.Agents)))
		for _, a := range g.Agents {
			same := a.Value == a.Name
			b = append(b, flagIf(same, flagSameValue))
			b = appendString(b, a.Name)
			if !same {
				b = appendString(b, a.Value)
			}
			b = appendInt(b, a.Line)
		}
		b = binary.AppendUvarint(b, uint64(len(g.Rules)))
		for _, rl := range g.Rules {
			same := rl.Value == rl.Pattern
			b = append(b, flagIf(same, flagSameValue)|flagIf(rl.Kind == compile.Allow, flagAllow))
			b = appendString(b, rl.Pattern)
			if !same {
				b = appendString(b, rl.Value)
			}
			b = appendInt(b, rl.Line)
		}
		b = binary.AppendUvarint(b, uint64(len(g.Extensions)))
		for _, e := range g.Extensions {
			b = appendString(b, e.Key)
			b = appendString(b, e.Value)
			b = appendInt(b, e.Line)
		}
	}
	b = binary.AppendUvarint(b, uint64(len(f.Sitemaps)))
	for _, s := range f.Sitemaps {
		b = appendString(b, s.URL)
		b = appendInt(b, s.Line)
	}
	b = binary.AppendUvarint(b, uint64(len(f.Diagnostics)))
	for _, d := range f.Diagnostics {
		b = appendInt(b, d.Line)
		b = append(b, byte(d.Kind))
		b = appendString(b, d.Text)
		b = appendString(b, d.Message)
	}
	b = appendInt(b, f.Size)
	b = append(b, flagIf(f.Truncated, 1))
	return appendInt(b, f.Lines)
}

func flagIf(c bool, f byte) byte {
	if c {
		return f
	}
	return 0
}

// appendMatcher encodes m; a matcher with the same selection as one of
// prev (typically "*" and a crawler no group names) has the same automata,
// and refers to it instead of repeating them.
func appendMatcher(b []byte, m *Matcher, prev []*Matcher) ([]byte, error) {
	b = binary.AppendUvarint(b, uint64(len(m.tokens)))
	for _, t := range m.tokens {
		b = appendString(b, t)
	}
	b = append(b, byte(m.sel.Match))
	b = binary.AppendUvarint(b, uint64(len(m.sel.Groups)))
	for _, g := range m.sel.Groups {
		b = appendInt(b, g)
	}
	for j, p := range prev {
		if p.sel.Match == m.sel.Match && equalInts(p.sel.Groups, m.sel.Groups) {
			b = append(b, 1)
			return appendInt(b, j), nil
		}
	}
	b = append(b, 0)
	// A ref points at its rule in the selection: build makes one per rule,
	// in order, each followed by its index.htm ref if it has one.
	b = binary.AppendUvarint(b, uint64(len(m.refs)))
	k := -1
	for i, rf := range m.refs {
		if rf.reason == ReasonRule {
			k++
		}
		if k < 0 || k >= len(m.sel.Rules) || m.sel.Rules[k].Line != rf.rule.Line {
			return nil, fmt.Errorf("engine: MarshalBinary: matcher %q: pattern %d (line %d) has no rule in the selection", m.tokens, i, rf.rule.Line)
		}
		b = appendInt(b, k)
		b = append(b, byte(rf.reason))
	}
	return m.set.AppendBinary(b), nil
}

// decoder reads untrusted bytes; the first error sticks and names what was
// being read.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("engine: UnmarshalBinary: "+format, args...)
	}
}

func (d *decoder) byte(what string) byte {
	if d.err != nil {
		return 0
	}
	if len(d.b) == 0 {
		d.fail("%s: unexpected end of data", what)
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) uvarint(what string) uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail("%s: truncated or overlong varint", what)
		return 0
	}
	d.b = d.b[n:]
	return v
}

// maxInt is the largest value read into an int: what a 32-bit int holds,
// which is far above any line number or size a robots.txt can have.
const maxInt = 1<<31 - 1

func (d *decoder) int(what string) int {
	v := d.uvarint(what)
	if d.err == nil && v > maxInt {
		d.fail("%s: %d is out of range", what, v)
		return 0
	}
	return int(v)
}

func (d *decoder) varint(what string) int {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail("%s: truncated or overlong varint", what)
		return 0
	}
	d.b = d.b[n:]
	if v > maxInt || v < -maxInt {
		d.fail("%s: %d is out of range", what, v)
		return 0
	}
	return int(v)
}

// count reads a number of items that each take at least minSize bytes, and
// rejects it when the data left could not hold them: nothing is allocated
// for more than the input describes.
func (d *decoder) count(what string, minSize int) int {
	v := d.uvarint(what)
	if d.err == nil && v > uint64(len(d.b)/minSize) {
		d.fail("%s: %d items cannot fit in the %d bytes left", what, v, len(d.b))
		return 0
	}
	return int(v)
}

func (d *decoder) string(what string) string {
	n := d.uvarint(what)
	if d.err != nil {
		return ""
	}
	if n > uint64(len(d.b)) {
		d.fail("%s: length %d, but %d bytes left", what, n, len(d.b))
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *decoder) semantics(what string) Semantics {
	s := Semantics(d.byte(what))
	if d.err == nil && s > Koster1996 {
		d.fail("%s: unknown semantics %d", what, s)
	}
	return s
}

// UnmarshalBinary decodes data written by MarshalBinary into r, which must
// be a zero Robots (new(Robots) or var r Robots): loading into a Robots that
// was compiled or loaded already returns an error, and UnmarshalBinary must
// not run concurrently with any other use of r. Matchers that were cached
// when r was encoded are cached again and are not rebuilt; others are built
// from the file on first use, as after Compile. data is treated as hostile:
// every count and length is checked against the bytes left, every index is
// checked, and the automata are validated (see automaton.UnmarshalSet), so
// a bad input returns an error and leaves r unchanged, never panics.
// It implements encoding.BinaryUnmarshaler.
func (r *Robots) UnmarshalBinary(data []byte) error {
	if len(data) < len(robotsMagic)+1 || string(data[:len(robotsMagic)]) != robotsMagic {
		return errNotRobots
	}
	if v := data[len(robotsMagic)]; v != robotsVersion {
		return fmt.Errorf("engine: UnmarshalBinary: encoding version %d, this library reads %d; compile the robots.txt again", v, robotsVersion)
	}
	d := &decoder{b: data[len(robotsMagic)+1:]}
	var opts Options
	opts.Semantics = d.semantics("options semantics")
	opts.MaxFileSize = d.varint("options MaxFileSize")
	opts.StateBudget = d.varint("options StateBudget")
	fixed := Reason(d.byte("fixed answer"))
	if d.err == nil && fixed != 0 && fixed != ReasonAllowAll && fixed != ReasonDisallowAll {
		d.fail("fixed answer %d is neither allow-all nor disallow-all", fixed)
	}
	f := d.file()
	nm := d.count("matcher count", 4)
	if d.err == nil && nm > MaxCachedMatchers {
		d.fail("%d matchers, at most %d are cached", nm, MaxCachedMatchers)
	}
	cache := make(map[string]*matcherOnce, nm)
	tmp := &Robots{file: f, opts: opts, fixed: fixed}
	loaded := make([]*Matcher, 0, nm)
	for i := 0; i < nm && d.err == nil; i++ {
		m := d.matcher(i, tmp, loaded)
		if d.err != nil {
			break
		}
		key := matcherKey(m.tokens)
		if _, dup := cache[key]; dup {
			d.fail("matcher %d: tokens %q appear twice", i, m.tokens)
			break
		}
		loaded = append(loaded, m)
		e := &matcherOnce{m: m}
		e.once.Do(func() {}) // built: never build again
		e.done.Store(true)
		cache[key] = e
	}
	if d.err == nil && len(d.b) > 0 {
		d.fail("%d bytes of trailing data", len(d.b))
	}
	if d.err != nil {
		return d.err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.file != nil || r.matchers.Load() != nil {
		return errRobotsUsed
	}
	r.file, r.opts, r.fixed = f, opts, fixed
	r.matchers.Store(&cache)
	return nil
}

// matcherKey is the cache key Matcher computes for tokens.
func matcherKey(tokens []string) string {
	var key []byte
	for i, t := range tokens {
		if i > 0 {
			key = append(key, 0)
		}
		key = append(key, t...)
	}
	return string(key)
}

func (d *decoder) file() *compile.File {
	f := &compile.File{Semantics: d.semantics("file semantics")}
	// Each item is at least its flags or lengths and a line: 2 or 3 bytes.
	ng := d.count("group count", 3)
	if d.err == nil && ng > 0 {
		f.Groups = make([]compile.Group, ng)
	}
	for i := 0; i < ng && d.err == nil; i++ {
		g := &f.Groups[i]
		if n := d.count("agent count", 3); n > 0 {
			g.Agents = make([]compile.Agent, n)
			for j := range g.Agents {
				a := &g.Agents[j]
				flags := d.byte("agent flags")
				if flags&^flagSameValue != 0 {
					d.fail("group %d agent %d: unknown flags %#x", i, j, flags)
				}
				a.Name = d.string("agent name")
				a.Value = a.Name
				if flags&flagSameValue == 0 {
					a.Value = d.string("agent value")
				}
				a.Line = d.int("agent line")
			}
		}
		if n := d.count("rule count", 3); n > 0 {
			g.Rules = make([]compile.Rule, n)
			for j := range g.Rules {
				rl := &g.Rules[j]
				flags := d.byte("rule flags")
				if flags&^(flagSameValue|flagAllow) != 0 {
					d.fail("group %d rule %d: unknown flags %#x", i, j, flags)
				}
				if flags&flagAllow != 0 {
					rl.Kind = compile.Allow
				}
				rl.Pattern = d.string("rule pattern")
				rl.Value = rl.Pattern
				if flags&flagSameValue == 0 {
					rl.Value = d.string("rule value")
				}
				rl.Line = d.int("rule line")
			}
		}
		if n := d.count("extension count", 3); n > 0 {
			g.Extensions = make([]compile.Extension, n)
			for j := range g.Extensions {
				e := &g.Extensions[j]
				e.Key = d.string("extension key")
				e.Value = d.string("extension value")
				e.Line = d.int("extension line")
			}
		}
	}
	if n := d.count("sitemap count", 2); n > 0 {
		f.Sitemaps = make([]compile.Sitemap, n)
		for i := range f.Sitemaps {
			f.Sitemaps[i].URL = d.string("sitemap URL")
			f.Sitemaps[i].Line = d.int("sitemap line")
		}
	}
	if n := d.count("diagnostic count", 4); n > 0 {
		f.Diagnostics = make([]compile.Diagnostic, n)
		for i := range f.Diagnostics {
			g := &f.Diagnostics[i]
			g.Line = d.int("diagnostic line")
			g.Kind = compile.DiagKind(d.byte("diagnostic kind"))
			if d.err == nil && g.Kind > compile.DiagHTML {
				d.fail("diagnostic %d: unknown kind %d", i, g.Kind)
			}
			g.Text = d.string("diagnostic text")
			g.Message = d.string("diagnostic message")
		}
	}
	f.Size = d.int("file size")
	switch t := d.byte("truncated flag"); {
	case d.err != nil:
	case t > 1:
		d.fail("truncated flag %d, want 0 or 1", t)
	default:
		f.Truncated = t == 1
	}
	f.Lines = d.int("line count")
	return f
}

// matcher decodes matcher i of r (whose file and options are set); prev
// are the matchers decoded before it.
func (d *decoder) matcher(i int, r *Robots, prev []*Matcher) *Matcher {
	m := &Matcher{sem: r.opts.Semantics, fixed: r.fixed}
	if n := d.count("token count", 1); n > 0 {
		m.tokens = make([]string, n)
		for j := range m.tokens {
			m.tokens[j] = d.string("token")
		}
	}
	match := compile.MatchKind(d.byte("selection kind"))
	groups := make([]int, d.count("selected group count", 1))
	for j := range groups {
		groups[j] = d.int("selected group")
	}
	if d.err != nil {
		return nil
	}
	// The selection is cheap to recompute and must be what the file says.
	if r.fixed == 0 {
		m.sel = r.file.Select(m.tokens...)
	}
	if m.sel.Match != match || !equalInts(m.sel.Groups, groups) {
		d.fail("matcher %d (tokens %q): stored selection %s %v, but the file selects %s %v", i, m.tokens, match, groups, m.sel.Match, m.sel.Groups)
		return nil
	}
	switch shared := d.byte("shared flag"); {
	case d.err != nil:
		return nil
	case shared == 1:
		j := d.int("shared matcher")
		if d.err == nil && j >= len(prev) {
			d.fail("matcher %d (tokens %q) shares the automata of matcher %d, but %d are decoded", i, m.tokens, j, len(prev))
		}
		if d.err != nil {
			return nil
		}
		p := prev[j]
		if p.sel.Match != m.sel.Match || !equalInts(p.sel.Groups, m.sel.Groups) {
			d.fail("matcher %d (tokens %q) shares the automata of matcher %d, which selects other groups", i, m.tokens, j)
			return nil
		}
		m.refs, m.set = p.refs, p.set // immutable: safe to share
		return m
	case shared != 0:
		d.fail("matcher %d: shared flag %d, want 0 or 1", i, shared)
		return nil
	}
	nref := d.count("pattern count", 2)
	if d.err == nil && nref > 0 {
		m.refs = make([]ref, nref)
	}
	for j := 0; j < nref && d.err == nil; j++ {
		k := d.int("rule index")
		reason := Reason(d.byte("pattern reason"))
		if d.err != nil {
			break
		}
		if k >= len(m.sel.Rules) {
			d.fail("matcher %d pattern %d: rule %d, but %d rules are selected", i, j, k, len(m.sel.Rules))
			break
		}
		rule := m.sel.Rules[k]
		switch reason {
		case ReasonRule:
			prio := Priority(m.sem, rule.Kind, len(rule.Pattern), k)
			m.refs[j] = ref{
				rule:    Rule{Line: rule.Line, Kind: rule.Kind, Pattern: rule.Pattern, Value: rule.Value},
				reason:  ReasonRule,
				pattern: rule.Pattern,
				prio:    prio,
			}
		case ReasonIndexHTM:
			dir, ok := indexHTMDir(rule.Pattern)
			if !ok || rule.Kind != compile.Allow || m.sem != Google {
				d.fail("matcher %d pattern %d: line %d is no Google index.htm allow rule", i, j, rule.Line)
				break
			}
			m.refs[j] = ref{
				rule:    Rule{Line: rule.Line, Kind: compile.Allow, Pattern: dir + "$", Value: rule.Value},
				reason:  ReasonIndexHTM,
				pattern: dir + "$",
				prio:    Priority(m.sem, compile.Allow, len(dir)+1, k),
			}
		default:
			d.fail("matcher %d pattern %d: reason %d is not a rule's", i, j, reason)
		}
	}
	if d.err != nil {
		return nil
	}
	set, rest, err := automaton.UnmarshalSet(d.b)
	if err != nil {
		d.fail("matcher %d (tokens %q): %v", i, m.tokens, err)
		return nil
	}
	d.b = rest
	if p := set.Stats().Patterns; p != len(m.refs) {
		d.fail("matcher %d (tokens %q): automaton has %d patterns for %d rules", i, m.tokens, p, len(m.refs))
		return nil
	}
	m.set = set
	return m
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

package automaton

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// Binary format of a Set (version 1). Integers are unsigned LEB128 varints
// ("uvarint") unless said otherwise; the format is little-endian throughout.
//
//	magic      "ASET"
//	version    byte (setVersion)
//	patterns   uvarint n, then n times, in rank order:
//	             uvarint len, len bytes, byte flags (bit 0: anchored), uvarint priority
//	ranks      n uvarints: rankToIndex, a permutation of 0..n-1
//	automata   uvarint count, then per automaton:
//	             uvarint nclass (1..256), 256 bytes class map, byte flags
//	             (bit 0: hasFast; bit 1: a fast map follows, else it is the
//	             class map; bit 2: an End class follows), [256 bytes fast
//	             map], [byte End class],
//	             uvarint nstates, uvarint start (state code),
//	             nstates rows: uvarint default state code, uvarint count of
//	             exceptions, per exception a byte class (ascending) and its
//	             state code; then the EOI, Acc and Min answers
//
// A state code is 0 for the dead state, 1 for the escape state (found only
// in a column no byte of the class map leads to) and k+2 for state k. The End
// class's column (Options.End) is stored as dead and restored on reading,
// since every row has the end there. Whether the
// transition value is special is not stored but derived from the target
// row's Acc answer, as Compile does, so a loaded table is consistent by
// construction. EOI and Acc are rank+1 (0 none); Min is rank+1, or 0 for
// noAlive. Storing state numbers rather than premultiplied offsets keeps
// most cells to one or two bytes, and a row is stored sparsely: most bytes
// lead where the row's default does (the stars stay, the rest dies), so a
// row is its default and the few classes that differ. A table of tens of
// thousands of states is then a few bytes per state, not a few hundred;
// decoding expands it to at most 4*259/5 (about 207) bytes of table per
// byte of input.
const (
	setMagic   = "ASET"
	setVersion = 1
)

// minAutomatonBytes is the smallest encoding of one automaton (nclass, the
// class map, nstates, start): counts read from hostile data are checked
// against it before anything is allocated.
const minAutomatonBytes = 1 + 256 + 1 + 1 + 1

// minRowBytes is the smallest encoding of a row: its default, its exception
// count and three answers.
const minRowBytes = 5

// AppendBinary appends the binary encoding of s to b and returns the
// extended slice. UnmarshalSet reads it back.
func (s *Set) AppendBinary(b []byte) []byte {
	b = append(b, setMagic...)
	b = append(b, setVersion)
	b = binary.AppendUvarint(b, uint64(len(s.patterns)))
	for _, p := range s.patterns {
		b = binary.AppendUvarint(b, uint64(len(p.Bytes)))
		b = append(b, p.Bytes...)
		flags := byte(0)
		if p.Anchored {
			flags = 1
		}
		b = append(b, flags)
		b = binary.AppendUvarint(b, p.Priority)
	}
	for _, i := range s.rankToIndex {
		b = binary.AppendUvarint(b, uint64(i))
	}
	b = binary.AppendUvarint(b, uint64(len(s.autos)))
	for _, d := range s.autos {
		b = d.appendBinary(b)
	}
	return b
}

func (d *dfa) appendBinary(b []byte) []byte {
	b = binary.AppendUvarint(b, uint64(d.nclass))
	b = append(b, d.classes[:]...)
	flags := byte(0)
	if d.hasFast {
		flags |= 1
	}
	if d.fast != d.classes {
		flags |= 2
	}
	if d.hasEnd {
		flags |= 4
	}
	b = append(b, flags)
	if flags&2 != 0 {
		b = append(b, d.fast[:]...)
	}
	if d.hasEnd {
		b = append(b, d.endClass)
	}
	b = binary.AppendUvarint(b, uint64(d.nstates))
	b = binary.AppendUvarint(b, d.stateCode(d.start))
	var codes, sorted []uint64
	for off := 0; off < len(d.trans); off += int(d.stride) {
		row := d.trans[off : off+int(d.stride)]
		codes, sorted = codes[:0], sorted[:0]
		for _, v := range row[:d.nclass] {
			codes = append(codes, d.stateCode(v))
		}
		sorted = append(sorted, codes...)
		slices.Sort(sorted)
		def, best := sorted[0], 0
		for i := 0; i < len(sorted); {
			j := i
			for j < len(sorted) && sorted[j] == sorted[i] {
				j++
			}
			if j-i > best {
				def, best = sorted[i], j-i
			}
			i = j
		}
		b = binary.AppendUvarint(b, def)
		b = binary.AppendUvarint(b, uint64(len(codes)-best))
		for c, code := range codes {
			if code != def {
				b = append(b, byte(c))
				b = binary.AppendUvarint(b, code)
			}
		}
		extra := row[d.nclass:]
		b = binary.AppendUvarint(b, uint64(extra[colEOI]))
		b = binary.AppendUvarint(b, uint64(extra[colAcc]))
		m := extra[colMin]
		if m == noAlive {
			m = 0
		}
		b = binary.AppendUvarint(b, uint64(m))
	}
	return b
}

// stateCode is the stored form of transition value v.
func (d *dfa) stateCode(v uint32) uint64 {
	switch v {
	case deadState, endState:
		return 0
	case escapeState:
		return 1
	}
	return uint64((v&^specialBit)/d.stride) + 2
}

// decoder reads a buffer of untrusted bytes; the first error sticks.
type decoder struct {
	b   []byte
	err error
}

func (r *decoder) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("automaton: "+format, args...)
	}
}

func (r *decoder) uvarint(what string) uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail("%s: truncated or overlong varint", what)
		return 0
	}
	r.b = r.b[n:]
	return v
}

// count reads a number of items each taking at least minSize bytes, and
// rejects it when the remaining data could not hold them.
func (r *decoder) count(what string, minSize int) int {
	v := r.uvarint(what)
	if r.err == nil && v > uint64(len(r.b)/minSize) {
		r.fail("%s: %d items cannot fit in the %d bytes left", what, v, len(r.b))
		return 0
	}
	return int(v)
}

func (r *decoder) bytes(n int, what string) []byte {
	if r.err != nil {
		return nil
	}
	if n > len(r.b) {
		r.fail("%s: %d bytes wanted, %d left", what, n, len(r.b))
		return nil
	}
	p := r.b[:n]
	r.b = r.b[n:]
	return p
}

var errNotSet = errors.New("automaton: not an encoded Set (bad magic)")

// UnmarshalSet decodes a Set written by AppendBinary from the start of data
// and returns it with the bytes that follow it. data is treated as hostile:
// every count is checked against the bytes left before anything is
// allocated, and the tables are validated so that Match, Start, Step and
// Answer on the result never index out of range (the scan is linear in the
// input whatever the tables say). A table that passes is not necessarily
// one Compile would build: it is safe, not trusted to be meaningful.
func UnmarshalSet(data []byte) (*Set, []byte, error) {
	if len(data) < len(setMagic)+1 || string(data[:len(setMagic)]) != setMagic {
		return nil, data, errNotSet
	}
	if v := data[len(setMagic)]; v != setVersion {
		return nil, data, fmt.Errorf("automaton: Set encoding version %d, want %d", v, setVersion)
	}
	r := &decoder{b: data[len(setMagic)+1:]}
	n := r.count("pattern count", 3)
	s := &Set{patterns: make([]Pattern, n), rankToIndex: make([]int32, n)}
	for i := 0; i < n && r.err == nil; i++ {
		l := r.uvarint("pattern length")
		if r.err == nil && l > uint64(len(r.b)) {
			r.fail("pattern %d: length %d, %d bytes left", i, l, len(r.b))
		}
		p := r.bytes(int(l), "pattern")
		flags := r.bytes(1, "pattern flags")
		if r.err == nil && flags[0] > 1 {
			r.fail("pattern %d: unknown flags %#x", i, flags[0])
		}
		prio := r.uvarint("pattern priority")
		if r.err == nil {
			s.patterns[i] = Pattern{Bytes: string(p), Anchored: flags[0] == 1, Priority: prio}
		}
	}
	seen := make([]bool, n)
	for i := 0; i < n && r.err == nil; i++ {
		x := r.uvarint("rank")
		if r.err != nil {
			break
		}
		if x >= uint64(n) || seen[x] {
			r.fail("rank %d: index %d is out of range or repeated (want a permutation of 0..%d)", i, x, n-1)
			break
		}
		seen[x] = true
		s.rankToIndex[i] = int32(x)
	}
	na := r.count("automaton count", minAutomatonBytes)
	if r.err == nil && na > 0 {
		s.autos = make([]*dfa, 0, na)
	}
	for i := 0; i < na && r.err == nil; i++ {
		d := r.dfa(i, n)
		if r.err == nil {
			s.autos = append(s.autos, d)
		}
	}
	if r.err != nil {
		return nil, data, r.err
	}
	return s, r.b, nil
}

// dfa decodes automaton i of a set of npat patterns.
func (r *decoder) dfa(i, npat int) *dfa {
	nclass := r.uvarint("class count")
	if r.err == nil && (nclass < 1 || nclass > 256) {
		r.fail("automaton %d: %d byte classes, want 1..256", i, nclass)
	}
	cls := r.bytes(256, "class map")
	if r.err != nil {
		return nil
	}
	d := &dfa{nclass: uint32(nclass), stride: uint32(nclass) + nExtra}
	copy(d.classes[:], cls)
	d.fast = d.classes
	flags := r.bytes(1, "automaton flags")
	if r.err == nil && flags[0] > 7 {
		r.fail("automaton %d: unknown flags %#x", i, flags[0])
	}
	if r.err != nil {
		return nil
	}
	d.hasFast = flags[0]&1 != 0
	if flags[0]&2 != 0 {
		copy(d.fast[:], r.bytes(256, "fast class map"))
	}
	if flags[0]&4 != 0 {
		e := r.bytes(1, "End class")
		if r.err != nil {
			return nil
		}
		if uint64(e[0]) >= nclass {
			r.fail("automaton %d: End class %d, but there are %d classes", i, e[0], nclass)
			return nil
		}
		d.hasEnd, d.endClass = true, e[0]
	}
	for c := range d.classes {
		if uint64(d.classes[c]) >= nclass || uint64(d.fast[c]) >= nclass {
			r.fail("automaton %d: byte %#02x in class %d (fast %d), but there are %d classes", i, c, d.classes[c], d.fast[c], nclass)
			return nil
		}
	}
	if r.err != nil {
		return nil
	}
	// Every row takes at least minRowBytes.
	ns := r.uvarint("state count")
	if r.err == nil && (ns > uint64(len(r.b)/minRowBytes) || ns*uint64(d.stride) >= specialBit) {
		r.fail("automaton %d: %d states cannot fit in the %d bytes left", i, ns, len(r.b))
	}
	if r.err != nil {
		return nil
	}
	d.nstates = int(ns)
	start := r.uvarint("start state")
	if r.err == nil && start > ns+1 {
		r.fail("automaton %d: start state code %d, but there are %d states", i, start, ns)
	}
	d.trans = make([]uint32, d.nstates*int(d.stride))
	for off := 0; off < len(d.trans) && r.err == nil; off += int(d.stride) {
		row := d.trans[off : off+int(d.stride)]
		def := r.uvarint("default transition")
		if r.err == nil && def > ns+1 {
			r.fail("automaton %d: state %d goes by default to state code %d, but there are %d states", i, off/int(d.stride), def, ns)
		}
		for c := range row[:d.nclass] {
			row[c] = uint32(def) // a state code, resolved once every row is read
		}
		nexc := r.uvarint("exception count")
		if r.err == nil && nexc > uint64(d.nclass) {
			r.fail("automaton %d: state %d has %d exceptions for %d classes", i, off/int(d.stride), nexc, d.nclass)
		}
		last := -1
		for k := uint64(0); k < nexc && r.err == nil; k++ {
			cb := r.bytes(1, "exception class")
			v := r.uvarint("transition")
			if r.err != nil {
				break
			}
			c := int(cb[0])
			switch {
			case c <= last || uint32(c) >= d.nclass:
				r.fail("automaton %d: state %d: exception class %d out of order or range (%d classes)", i, off/int(d.stride), c, d.nclass)
			case v > ns+1:
				r.fail("automaton %d: state %d class %d goes to state code %d, but there are %d states", i, off/int(d.stride), c, v, ns)
			case v == def:
				r.fail("automaton %d: state %d class %d: exception equal to the default", i, off/int(d.stride), c)
			}
			if r.err != nil {
				break
			}
			row[c] = uint32(v)
			last = c
		}
		extra := row[d.nclass:]
		for k, what := range [nExtra]string{colEOI: "end answer", colAcc: "accepted answer", colMin: "best alive"} {
			v := r.uvarint(what)
			if r.err == nil && v > uint64(npat) {
				r.fail("automaton %d: state %d: %s %d, but there are %d patterns", i, off/int(d.stride), what, v, npat)
			}
			extra[k] = uint32(v)
		}
		if extra[colMin] == 0 {
			extra[colMin] = noAlive
		}
	}
	if r.err != nil {
		return nil
	}
	// Resolve state codes into transition values.
	d.start = d.value(uint32(start))
	for off := 0; off < len(d.trans); off += int(d.stride) {
		row := d.trans[off : off+int(d.nclass)]
		for c, code := range row {
			row[c] = d.value(code)
		}
		if d.hasEnd {
			row[d.endClass] = endState
		}
	}
	if err := d.validate(npat); err != nil {
		r.fail("automaton %d: %v", i, err)
		return nil
	}
	d.setBegin()
	return d
}

// value turns a state code (0 dead, 1 escape, k+2 state k) into a
// transition value; the code must be in range.
func (d *dfa) value(code uint32) uint32 {
	switch code {
	case 0:
		return deadState
	case 1:
		return escapeState
	}
	off := (code - 2) * d.stride
	if d.trans[off+d.nclass+colAcc] != 0 {
		off |= specialBit
	}
	return off
}

// validate checks the invariants Match, Start, Step and Answer rely on to
// stay in range: it is what makes a decoded automaton safe to run.
func (d *dfa) validate(npat int) error {
	if d.nclass < 1 || d.nclass > 256 {
		return fmt.Errorf("%d byte classes, want 1..256", d.nclass)
	}
	if d.stride != d.nclass+nExtra {
		return fmt.Errorf("row stride %d, want classes+%d = %d", d.stride, nExtra, d.nclass+nExtra)
	}
	// The escape state is only safe where Match, Step and Start never go:
	// in columns no byte of the class map leads to (MatchPrefix, through
	// the fast map, checks for it).
	var reached [256]bool
	for c, k := range d.classes {
		if uint32(k) >= d.nclass || uint32(d.fast[c]) >= d.nclass {
			return fmt.Errorf("byte %#02x in class %d (fast %d) of %d", c, k, d.fast[c], d.nclass)
		}
		reached[k] = true
	}
	n := uint64(len(d.trans))
	if d.nstates < 0 || uint64(d.nstates)*uint64(d.stride) != n || n >= specialBit {
		return fmt.Errorf("%d transition cells for %d states of %d", n, d.nstates, d.stride)
	}
	okValue := func(v uint32) bool {
		if v == deadState {
			return true
		}
		off := v &^ specialBit
		return uint64(off) < n && off%d.stride == 0
	}
	if d.start == escapeState || !okValue(d.start) {
		return fmt.Errorf("start value %#x is not a state", d.start)
	}
	for off := uint32(0); uint64(off) < n; off += d.stride {
		row := d.trans[off : off+d.stride]
		for c, v := range row[:d.nclass] {
			if v == escapeState && !reached[c] || v == endState && d.hasEnd && c == int(d.endClass) {
				continue
			}
			if !okValue(v) {
				return fmt.Errorf("state %d class %d: value %#x is not a state", off/d.stride, c, v)
			}
		}
		extra := row[d.nclass:]
		if extra[colEOI] > uint32(npat) || extra[colAcc] > uint32(npat) {
			return fmt.Errorf("state %d: answers %d, %d, but there are %d patterns", off/d.stride, extra[colEOI], extra[colAcc], npat)
		}
		if m := extra[colMin]; m != noAlive && (m == 0 || m > uint32(npat)) {
			return fmt.Errorf("state %d: best alive %d, but there are %d patterns", off/d.stride, m, npat)
		}
	}
	return nil
}

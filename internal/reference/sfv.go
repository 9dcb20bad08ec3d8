package reference

import (
	"encoding/base64"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file is the reference's own parser of RFC 9651 (Structured Field
// Values for HTTP) Dictionaries, the syntax of a content-usage statement
// (draft-ietf-aipref-vocab-08 section 6.5: "those bytes are parsed into a
// Dictionary (Section 4.2.2 of FIELDS)"). It is written from the RFC's
// parsing algorithms (section 4.2), step by step and naively, and shares
// nothing with the library the engine uses: the two are compared by the
// differential tests.
//
// Every bare item type of RFC 9651 is read: Integer, Decimal, String,
// Token, Byte Sequence, Boolean, Date and Display String; inner lists and
// parameters too. A Byte Sequence must be padded with '=' (section 4.2.7
// lets a parser fail on missing padding when it cannot be configured
// otherwise, and the test suite marks such input "can fail"; the engine's
// parser fails, and the reference is told to do the same so that the two
// may be compared); non-zero pad bits are accepted, as the section asks.

// sfKind is the type of a bare item.
type sfKind int

const (
	sfInteger sfKind = iota
	sfDecimal
	sfString
	sfToken
	sfBytes
	sfBoolean
	sfDate
	sfDisplayString
)

// sfBare is a bare item: its type and its value, in the field that its
// type uses.
type sfBare struct {
	kind    sfKind
	integer int64   // sfInteger, sfDate
	decimal float64 // sfDecimal
	text    string  // sfString, sfToken, sfDisplayString
	bytes   []byte  // sfBytes
	boolean bool    // sfBoolean
}

// sfParam is one parameter: a key and a bare item.
type sfParam = sfPair[sfBare]

// sfPair is a key and its value: a parameter, or a dictionary's member.
type sfPair[V any] struct {
	key   string
	value V
}

// setPair overwrites the value of key in place, or appends key with v:
// of a repeated key the last value counts, in the first one's place
// (RFC 9651 sections 4.2.2 and 4.2.3.2).
func setPair[V any](pairs []sfPair[V], key string, v V) []sfPair[V] {
	for i := range pairs {
		if pairs[i].key == key {
			pairs[i].value = v
			return pairs
		}
	}
	return append(pairs, sfPair[V]{key: key, value: v})
}

// sfItem is an item: a bare item and its parameters.
type sfItem struct {
	bare   sfBare
	params []sfParam
}

// sfMember is a Dictionary member's value: an item, or an inner list of
// items with the list's parameters.
type sfMember struct {
	inner  bool
	item   sfItem   // when !inner
	list   []sfItem // when inner
	params []sfParam
}

// sfEntry is a Dictionary member: its key and its value.
type sfEntry = sfPair[sfMember]

// sfDictionary is a parsed Dictionary: its members in order, each key once
// (a repeated key overwrote the earlier value in place).
type sfDictionary []sfEntry

// get returns the member with key, compared byte for byte.
func (d sfDictionary) get(key string) (sfMember, bool) {
	for _, e := range d {
		if e.key == key {
			return e.value, true
		}
	}
	return sfMember{}, false
}

// sfParser holds the input_string of RFC 9651's algorithms: the bytes not
// consumed yet.
type sfParser struct {
	s string
}

func (p *sfParser) empty() bool { return p.s == "" }

// first returns the first character of the input, or 0 when it is empty
// (NUL is never a valid character where first is asked).
func (p *sfParser) first() byte {
	if p.s == "" {
		return 0
	}
	return p.s[0]
}

// consume removes and returns the first character.
func (p *sfParser) consume() byte {
	c := p.s[0]
	p.s = p.s[1:]
	return c
}

// discardSP discards leading SP characters.
func (p *sfParser) discardSP() {
	for p.first() == ' ' {
		p.consume()
	}
}

// discardOWS discards leading OWS (SP and HTAB) characters.
func (p *sfParser) discardOWS() {
	for p.first() == ' ' || p.first() == '\t' {
		p.consume()
	}
}

// parseDictionaryField parses a field value as a Dictionary (RFC 9651
// section 4.2, with field_type "dictionary"): it must be ASCII; leading
// and trailing SP are discarded; anything left over fails.
func parseDictionaryField(input string) (sfDictionary, bool) {
	for i := 0; i < len(input); i++ {
		if input[i] >= 0x80 {
			return nil, false // not ASCII
		}
	}
	p := &sfParser{s: input}
	p.discardSP()
	d, ok := p.dictionary()
	if !ok {
		return nil, false
	}
	p.discardSP()
	if !p.empty() {
		return nil, false
	}
	return d, true
}

// dictionary is RFC 9651 section 4.2.2, Parsing a Dictionary.
func (p *sfParser) dictionary() (sfDictionary, bool) {
	var d sfDictionary
	for !p.empty() {
		key, ok := p.key()
		if !ok {
			return nil, false
		}
		var m sfMember
		if p.first() == '=' {
			p.consume()
			if m, ok = p.itemOrInnerList(); !ok {
				return nil, false
			}
		} else {
			params, ok := p.parameters()
			if !ok {
				return nil, false
			}
			m = sfMember{item: sfItem{bare: sfBare{kind: sfBoolean, boolean: true}, params: params}}
		}
		d = setPair(d, key, m)
		p.discardOWS()
		if p.empty() {
			return d, true
		}
		if p.consume() != ',' {
			return nil, false
		}
		p.discardOWS()
		if p.empty() {
			return nil, false // a trailing comma
		}
	}
	return d, true
}

// itemOrInnerList is RFC 9651 section 4.2.1.1.
func (p *sfParser) itemOrInnerList() (sfMember, bool) {
	if p.first() == '(' {
		return p.innerList()
	}
	it, ok := p.item()
	return sfMember{item: it}, ok
}

// innerList is RFC 9651 section 4.2.1.2, Parsing an Inner List.
func (p *sfParser) innerList() (sfMember, bool) {
	if p.empty() || p.consume() != '(' {
		return sfMember{}, false
	}
	m := sfMember{inner: true}
	for !p.empty() {
		p.discardSP()
		if p.first() == ')' {
			p.consume()
			params, ok := p.parameters()
			m.params = params
			return m, ok
		}
		it, ok := p.item()
		if !ok {
			return sfMember{}, false
		}
		m.list = append(m.list, it)
		if c := p.first(); c != ' ' && c != ')' {
			return sfMember{}, false
		}
	}
	return sfMember{}, false // no end of the inner list
}

// item is RFC 9651 section 4.2.3, Parsing an Item.
func (p *sfParser) item() (sfItem, bool) {
	b, ok := p.bareItem()
	if !ok {
		return sfItem{}, false
	}
	params, ok := p.parameters()
	return sfItem{bare: b, params: params}, ok
}

// bareItem is RFC 9651 section 4.2.3.1, Parsing a Bare Item: the first
// character says the type.
func (p *sfParser) bareItem() (sfBare, bool) {
	c := p.first()
	switch {
	case c == '-' || isDigit(c):
		return p.integerOrDecimal()
	case c == '"':
		return p.str()
	case isAlpha(c) || c == '*':
		return p.token()
	case c == ':':
		return p.byteSequence()
	case c == '?':
		return p.boolean()
	case c == '@':
		return p.date()
	case c == '%':
		return p.displayString()
	}
	return sfBare{}, false
}

// parameters is RFC 9651 section 4.2.3.2, Parsing Parameters: a repeated
// key keeps its last value, in the place of its first.
func (p *sfParser) parameters() ([]sfParam, bool) {
	var params []sfParam
	for p.first() == ';' {
		p.consume()
		p.discardSP()
		key, ok := p.key()
		if !ok {
			return nil, false
		}
		value := sfBare{kind: sfBoolean, boolean: true}
		if p.first() == '=' {
			p.consume()
			if value, ok = p.bareItem(); !ok {
				return nil, false
			}
		}
		params = setPair(params, key, value)
	}
	return params, true
}

// key is RFC 9651 section 4.2.3.3, Parsing a Key: lcalpha or '*', then
// lcalpha, DIGIT, '_', '-', '.' or '*'.
func (p *sfParser) key() (string, bool) {
	if c := p.first(); !isLower(c) && c != '*' {
		return "", false
	}
	var out []byte
	for !p.empty() {
		c := p.first()
		if !isLower(c) && !isDigit(c) && strings.IndexByte("_-.*", c) < 0 {
			break
		}
		out = append(out, p.consume())
	}
	return string(out), true
}

// integerOrDecimal is RFC 9651 section 4.2.4: at most 15 digits for an
// Integer; for a Decimal at most 12 before the '.' and 3 after it, one at
// least.
func (p *sfParser) integerOrDecimal() (sfBare, bool) {
	decimal := false
	sign := int64(1)
	var num []byte
	if p.first() == '-' {
		p.consume()
		sign = -1
	}
	if p.empty() || !isDigit(p.first()) {
		return sfBare{}, false
	}
	for !p.empty() {
		c := p.first()
		switch {
		case isDigit(c):
			num = append(num, p.consume())
		case !decimal && c == '.':
			if len(num) > 12 {
				return sfBare{}, false
			}
			num = append(num, p.consume())
			decimal = true
		default:
			return finishNumber(num, sign, decimal)
		}
		if !decimal && len(num) > 15 || decimal && len(num) > 16 {
			return sfBare{}, false
		}
	}
	return finishNumber(num, sign, decimal)
}

// finishNumber is the end of section 4.2.4: num read as an Integer or as
// a Decimal, with sign.
func finishNumber(num []byte, sign int64, decimal bool) (sfBare, bool) {
	if !decimal {
		n, err := strconv.ParseInt(string(num), 10, 64)
		if err != nil {
			return sfBare{}, false
		}
		return sfBare{kind: sfInteger, integer: sign * n}, true
	}
	dot := strings.IndexByte(string(num), '.')
	if dot == len(num)-1 || len(num)-dot-1 > 3 {
		return sfBare{}, false
	}
	f, err := strconv.ParseFloat(string(num), 64)
	if err != nil {
		return sfBare{}, false
	}
	return sfBare{kind: sfDecimal, decimal: float64(sign) * f}, true
}

// str is RFC 9651 section 4.2.5, Parsing a String: printable ASCII
// between DQUOTEs, '\' escaping only DQUOTE and '\'.
func (p *sfParser) str() (sfBare, bool) {
	if p.empty() || p.consume() != '"' {
		return sfBare{}, false
	}
	var out []byte
	for !p.empty() {
		c := p.consume()
		switch {
		case c == '\\':
			if p.empty() {
				return sfBare{}, false
			}
			next := p.consume()
			if next != '"' && next != '\\' {
				return sfBare{}, false
			}
			out = append(out, next)
		case c == '"':
			return sfBare{kind: sfString, text: string(out)}, true
		case c <= 0x1f || c >= 0x7f:
			return sfBare{}, false
		default:
			out = append(out, c)
		}
	}
	return sfBare{}, false // no closing DQUOTE
}

// token is RFC 9651 section 4.2.6, Parsing a Token: ALPHA or '*', then
// tchar, ':' or '/'.
func (p *sfParser) token() (sfBare, bool) {
	if c := p.first(); !isAlpha(c) && c != '*' {
		return sfBare{}, false
	}
	var out []byte
	for !p.empty() {
		c := p.first()
		if !isTchar(c) && c != ':' && c != '/' {
			break
		}
		out = append(out, p.consume())
	}
	return sfBare{kind: sfToken, text: string(out)}, true
}

// byteSequence is RFC 9651 section 4.2.7, Parsing a Byte Sequence: base64
// between colons (padding required; see the file's comment).
func (p *sfParser) byteSequence() (sfBare, bool) {
	if p.empty() || p.consume() != ':' {
		return sfBare{}, false
	}
	end := strings.IndexByte(p.s, ':')
	if end < 0 {
		return sfBare{}, false
	}
	content := p.s[:end]
	p.s = p.s[end+1:]
	for i := 0; i < len(content); i++ {
		c := content[i]
		if !isAlpha(c) && !isDigit(c) && c != '+' && c != '/' && c != '=' {
			return sfBare{}, false
		}
	}
	b, err := base64.StdEncoding.DecodeString(content)
	if err != nil {
		return sfBare{}, false
	}
	return sfBare{kind: sfBytes, bytes: b}, true
}

// boolean is RFC 9651 section 4.2.8, Parsing a Boolean: "?1" or "?0".
func (p *sfParser) boolean() (sfBare, bool) {
	if p.empty() || p.consume() != '?' {
		return sfBare{}, false
	}
	switch p.first() {
	case '1':
		p.consume()
		return sfBare{kind: sfBoolean, boolean: true}, true
	case '0':
		p.consume()
		return sfBare{kind: sfBoolean, boolean: false}, true
	}
	return sfBare{}, false
}

// date is RFC 9651 section 4.2.9, Parsing a Date: '@' and an Integer.
func (p *sfParser) date() (sfBare, bool) {
	if p.empty() || p.consume() != '@' {
		return sfBare{}, false
	}
	n, ok := p.integerOrDecimal()
	if !ok || n.kind != sfInteger {
		return sfBare{}, false
	}
	return sfBare{kind: sfDate, integer: n.integer}, true
}

// displayString is RFC 9651 section 4.2.10, Parsing a Display String:
// '%' and DQUOTE, then printable ASCII where '%' starts two lower-case hex
// digits, then DQUOTE; the bytes must be UTF-8.
func (p *sfParser) displayString() (sfBare, bool) {
	if !strings.HasPrefix(p.s, `%"`) {
		return sfBare{}, false
	}
	p.s = p.s[2:]
	var out []byte
	for !p.empty() {
		c := p.consume()
		switch {
		case c <= 0x1f || c >= 0x7f:
			return sfBare{}, false
		case c == '%':
			if len(p.s) < 2 || !isLowerHex(p.s[0]) || !isLowerHex(p.s[1]) {
				return sfBare{}, false
			}
			v, err := strconv.ParseUint(p.s[:2], 16, 8)
			if err != nil {
				return sfBare{}, false
			}
			p.s = p.s[2:]
			out = append(out, byte(v))
		case c == '"':
			if !utf8.Valid(out) {
				return sfBare{}, false
			}
			return sfBare{kind: sfDisplayString, text: string(out)}, true
		default:
			out = append(out, c)
		}
	}
	return sfBare{}, false // no closing DQUOTE
}

func isDigit(c byte) bool    { return '0' <= c && c <= '9' }
func isLower(c byte) bool    { return 'a' <= c && c <= 'z' }
func isAlpha(c byte) bool    { return isLower(c) || 'A' <= c && c <= 'Z' }
func isLowerHex(c byte) bool { return isDigit(c) || 'a' <= c && c <= 'f' }

// isTchar reports whether c is an RFC 9110 tchar.
func isTchar(c byte) bool {
	return isAlpha(c) || isDigit(c) || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

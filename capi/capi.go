// Command capi is robotstxt's C ABI: built with
//
//	go build -buildmode=c-shared -o librobotstxt.so .
//
// it is a shared library and a header (librobotstxt.h) through which a
// crawler in any language compiles a robots.txt for its product tokens and
// decides URLs, as package engine does in Go. python/build.sh builds it for
// the Python package.
//
// The library hands C integer handles, never Go pointers, and keeps no C
// memory after a call returns: every input is copied (a body only up to the
// bytes the parser reads). Every input is a pointer and a length, any bytes
// (NULs and invalid UTF-8 included). Errors are return codes; a Go panic is
// recovered and reported as ROBOTSTXT_EINTERNAL, never crashing the host.
// Handles are safe for concurrent use from any number of threads.
package main

/*
#include "robotstxt.h"
*/
import "C"

import (
	"fmt"
	"math"
	"os"
	"unsafe"

	"github.com/seed-275a9bd5/robotstxt/engine"
)

// abiVersion is robotstxt_abi_version's answer: it changes when a function,
// a struct or a constant of the header changes incompatibly.
const abiVersion = 1

// maxTokens is ROBOTSTXT_MAX_TOKENS: a crawler names one token, two with a
// sub-product (Googlebot-Image, Googlebot), and a User-Agent header stands
// for at most engine.MaxProductTokens; 64 leaves room for odd callers and
// keeps a hostile array from making a matcher key of millions of strings.
const maxTokens = 64

// Error codes, as the header defines them.
const (
	codeOK       = C.ROBOTSTXT_OK
	codeInvalid  = C.ROBOTSTXT_EINVAL
	codeHandle   = C.ROBOTSTXT_EHANDLE
	codeTooBig   = C.ROBOTSTXT_ETOOBIG
	codeSpace    = C.ROBOTSTXT_ESPACE
	codeInternal = C.ROBOTSTXT_EINTERNAL
)

// A line number fits the header's int32: no file read is longer than
// compile.LargestMaxFileSize bytes, so none has more lines.
const _ uint32 = math.MaxInt32 - 512<<20

// recovered turns a panic into ROBOTSTXT_EINTERNAL, deferred by every
// exported function: a Go panic crossing into C would end the host process.
func recovered(rc *C.int) {
	if p := recover(); p != nil {
		fmt.Fprintf(os.Stderr, "librobotstxt: internal error (please report it): %v\n", p)
		*rc = codeInternal
	}
}

// input returns the n bytes at p as a byte slice over C memory, which must
// not be kept past the call, or a code: p may be NULL only when n is 0.
func input(p unsafe.Pointer, n C.size_t) ([]byte, C.int) {
	switch {
	case n == 0:
		return nil, codeOK
	case p == nil:
		return nil, codeInvalid
	case uint64(n) > math.MaxInt:
		return nil, codeTooBig
	}
	return unsafe.Slice((*byte)(p), int(n)), codeOK
}

// inputString is input copied into a Go string, which may be kept.
func inputString(p *C.robotstxt_cchar, n C.size_t) (string, C.int) {
	b, rc := input(unsafe.Pointer(p), n)
	return string(b), rc
}

// inputBody is input copied up to the bytes the parser reads (bodyLimit).
func inputBody(p *C.robotstxt_cchar, n C.size_t, opts engine.Options) ([]byte, C.int) {
	b, rc := input(unsafe.Pointer(p), n)
	if rc != codeOK {
		return nil, rc
	}
	if lim := bodyLimit(opts); len(b) > lim {
		b = b[:lim]
	}
	return append([]byte(nil), b...), codeOK
}

// options returns the engine options the header's arguments stand for.
func options(semantics C.int, maxFileSize, cacheBytes C.int64_t) (engine.Options, C.int) {
	if semantics < C.ROBOTSTXT_RFC9309 || semantics > C.ROBOTSTXT_KOSTER1996 {
		return engine.Options{}, codeInvalid
	}
	clamp := func(v C.int64_t) int { return int(max(min(int64(v), math.MaxInt), math.MinInt)) }
	return engine.Options{
		Semantics:   engine.Semantics(semantics),
		MaxFileSize: clamp(maxFileSize),
		CacheBytes:  clamp(cacheBytes),
	}, codeOK
}

// robotstxt_abi_version is the header's robotstxt_abi_version; the header documents it.
//
//export robotstxt_abi_version
func robotstxt_abi_version() C.int { return abiVersion }

// robotstxt_compile is the header's robotstxt_compile; the header documents it.
//
//export robotstxt_compile
func robotstxt_compile(body *C.robotstxt_cchar, body_len C.size_t, tokens **C.robotstxt_cchar, token_lens *C.robotstxt_csize, ntokens C.size_t,
	semantics C.int, max_file_size C.int64_t, cache_bytes C.int64_t, handle *C.robotstxt_handle) (rc C.int) {
	defer recovered(&rc)
	if handle == nil {
		return codeInvalid
	}
	opts, rc := options(semantics, max_file_size, cache_bytes)
	if rc != codeOK {
		return rc
	}
	toks, rc := inputTokens(tokens, token_lens, ntokens)
	if rc != codeOK {
		return rc
	}
	b, rc := inputBody(body, body_len, opts)
	if rc != codeOK {
		return rc
	}
	*handle = C.robotstxt_handle(handles.add(newEntry(matcherFor(b, opts, toks...))))
	return codeOK
}

// inputTokens copies the token array of robotstxt_compile.
func inputTokens(tokens **C.robotstxt_cchar, lens *C.robotstxt_csize, n C.size_t) ([]string, C.int) {
	switch {
	case n == 0:
		return nil, codeOK
	case n > maxTokens:
		return nil, codeTooBig
	case tokens == nil || lens == nil:
		return nil, codeInvalid
	}
	ptrs := unsafe.Slice(tokens, int(n))
	sizes := unsafe.Slice(lens, int(n))
	out := make([]string, n)
	for i := range out {
		s, rc := inputString(ptrs[i], sizes[i])
		if rc != codeOK {
			return nil, rc
		}
		out[i] = s
	}
	return out, codeOK
}

// robotstxt_free is the header's robotstxt_free; the header documents it.
//
//export robotstxt_free
func robotstxt_free(h C.robotstxt_handle) (rc C.int) {
	defer recovered(&rc)
	if !handles.remove(uint64(h)) {
		return codeHandle
	}
	return codeOK
}

// robotstxt_decide is the header's robotstxt_decide; the header documents it.
//
//export robotstxt_decide
func robotstxt_decide(h C.robotstxt_handle, url *C.robotstxt_cchar, url_len C.size_t, out *C.robotstxt_decision) (rc C.int) {
	defer recovered(&rc)
	e, u, rc := lookup(h, url, url_len, out != nil)
	if rc != codeOK {
		return rc
	}
	*out = decision(e.m.Decide(u))
	return codeOK
}

// lookup is the common start of the calls on a handle: the entry, the URL
// copied, or a code.
func lookup(h C.robotstxt_handle, url *C.robotstxt_cchar, n C.size_t, outOK bool) (*entry, string, C.int) {
	if !outOK {
		return nil, "", codeInvalid
	}
	e := handles.get(uint64(h))
	if e == nil {
		return nil, "", codeHandle
	}
	u, rc := inputString(url, n)
	return e, u, rc
}

func decision(d engine.Decision) C.robotstxt_decision {
	return C.robotstxt_decision{
		allowed: flag(d.Allowed),
		line:    C.int32_t(d.Rule.Line),
		kind:    C.int32_t(d.Rule.Kind),
		reason:  C.int32_t(d.Reason),
		not_url: flag(d.NotURL),
	}
}

func flag(b bool) C.int32_t {
	if b {
		return 1
	}
	return 0
}

// robotstxt_usage is the header's robotstxt_usage; the header documents it.
//
//export robotstxt_usage
func robotstxt_usage(h C.robotstxt_handle, url *C.robotstxt_cchar, url_len C.size_t, out *C.robotstxt_prefs) (rc C.int) {
	defer recovered(&rc)
	e, u, rc := lookup(h, url, url_len, out != nil)
	if rc != codeOK {
		return rc
	}
	us := e.m.Usage(u)
	*out = C.robotstxt_prefs{
		train_ai:      C.int32_t(us.TrainAI),
		search:        C.int32_t(us.Search),
		train_ai_line: C.int32_t(us.TrainAILine),
		search_line:   C.int32_t(us.SearchLine),
	}
	return codeOK
}

// robotstxt_usage_of is the header's robotstxt_usage_of; the header documents it.
//
//export robotstxt_usage_of
func robotstxt_usage_of(h C.robotstxt_handle, url *C.robotstxt_cchar, url_len C.size_t, key *C.robotstxt_cchar, key_len C.size_t,
	pref *C.int32_t, line *C.int32_t) (rc C.int) {
	defer recovered(&rc)
	e, u, rc := lookup(h, url, url_len, pref != nil && line != nil)
	if rc != codeOK {
		return rc
	}
	k, rc := inputString(key, key_len)
	if rc != codeOK {
		return rc
	}
	p, l := e.m.UsageOf(u, k)
	*pref, *line = C.int32_t(p), C.int32_t(l)
	return codeOK
}

// robotstxt_crawl_delay is the header's robotstxt_crawl_delay; the header documents it.
//
//export robotstxt_crawl_delay
func robotstxt_crawl_delay(h C.robotstxt_handle, nanoseconds *C.int64_t, present *C.int32_t) (rc C.int) {
	defer recovered(&rc)
	if nanoseconds == nil || present == nil {
		return codeInvalid
	}
	e := handles.get(uint64(h))
	if e == nil {
		return codeHandle
	}
	*nanoseconds, *present = C.int64_t(e.delay), flag(e.hasDelay)
	return codeOK
}

// robotstxt_decide_once is the header's robotstxt_decide_once; the header documents it.
//
//export robotstxt_decide_once
func robotstxt_decide_once(body *C.robotstxt_cchar, body_len C.size_t, agent *C.robotstxt_cchar, agent_len C.size_t,
	url *C.robotstxt_cchar, url_len C.size_t, semantics C.int, out *C.robotstxt_decision) (rc C.int) {
	defer recovered(&rc)
	if out == nil {
		return codeInvalid
	}
	opts, rc := options(semantics, 0, 0)
	if rc != codeOK {
		return rc
	}
	a, rc := inputString(agent, agent_len)
	if rc != codeOK {
		return rc
	}
	u, rc := inputString(url, url_len)
	if rc != codeOK {
		return rc
	}
	b, rc := inputBody(body, body_len, opts)
	if rc != codeOK {
		return rc
	}
	*out = decision(matcherFor(b, opts, a).Decide(u))
	return codeOK
}

// robotstxt_product_tokens is the header's robotstxt_product_tokens; the header documents it.
//
//export robotstxt_product_tokens
func robotstxt_product_tokens(header *C.robotstxt_cchar, header_len C.size_t, buf *C.char, buf_cap C.size_t, out_len *C.size_t) (rc C.int) {
	defer recovered(&rc)
	if out_len == nil {
		return codeInvalid
	}
	hb, rc := input(unsafe.Pointer(header), header_len)
	if rc != codeOK {
		return rc
	}
	n := 0
	toks := engine.ProductTokens(string(hb))
	for _, t := range toks {
		n += len(t) + 1
	}
	*out_len = C.size_t(n)
	if uint64(n) > uint64(buf_cap) {
		return codeSpace
	}
	if n == 0 {
		return codeOK
	}
	if buf == nil {
		return codeInvalid
	}
	dst := unsafe.Slice((*byte)(unsafe.Pointer(buf)), n)[:0]
	for _, t := range toks {
		dst = append(append(dst, t...), '\n')
	}
	return codeOK
}

func main() {}

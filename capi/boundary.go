package main

// Test support: the functions below call the library's exported functions
// from C, through the same prototypes a C caller compiles against, so that
// the package's tests cross the boundary as a host does (test files cannot
// use cgo). The library itself never calls them.

/*
#include <stdlib.h>
#include <string.h>
#include "robotstxt.h"

static char *shim_bytes(const void *p, size_t n) {
	// A copy in C memory; NULL for no bytes, so that NULL with length 0 is
	// what the library sees for empty input.
	if (n == 0) return NULL;
	char *c = malloc(n);
	memcpy(c, p, n);
	return c;
}

static int shim_compile(char *body, size_t body_len, char **tokens, size_t *lens, size_t n,
		int sem, int64_t max_file_size, int64_t cache_bytes, robotstxt_handle *h) {
	return robotstxt_compile(body, body_len, (robotstxt_cchar **)tokens, lens, n, sem, max_file_size, cache_bytes, h);
}
static int shim_decide(robotstxt_handle h, char *url, size_t n, robotstxt_decision *d) {
	return robotstxt_decide(h, url, n, d);
}
static int shim_usage(robotstxt_handle h, char *url, size_t n, robotstxt_prefs *p) {
	return robotstxt_usage(h, url, n, p);
}
static int shim_usage_of(robotstxt_handle h, char *url, size_t n, char *key, size_t kn, int32_t *pref, int32_t *line) {
	return robotstxt_usage_of(h, url, n, key, kn, pref, line);
}
static int shim_crawl_delay(robotstxt_handle h, int64_t *ns, int32_t *present) {
	return robotstxt_crawl_delay(h, ns, present);
}
static int shim_free(robotstxt_handle h) { return robotstxt_free(h); }
static int shim_decide_once(char *body, size_t bn, char *agent, size_t an, char *url, size_t un, int sem, robotstxt_decision *d) {
	return robotstxt_decide_once(body, bn, agent, an, url, un, sem, d);
}
static int shim_product_tokens(char *header, size_t n, char *buf, size_t cap, size_t *out) {
	return robotstxt_product_tokens(header, n, buf, cap, out);
}
static const char *shim_strerror(int code) { return robotstxt_strerror(code); }
*/
import "C"

import "unsafe"

// cBytes is b in C memory (nil for no bytes), freed by cFree.
func cBytes(b []byte) *C.char {
	if len(b) == 0 {
		return nil
	}
	return C.shim_bytes(unsafe.Pointer(&b[0]), C.size_t(len(b)))
}

func cFree(p *C.char) { C.free(unsafe.Pointer(p)) }

// abiDecision is robotstxt_decision in Go.
type abiDecision struct{ Allowed, Line, Kind, Reason, NotURL int32 }

func fromC(d C.robotstxt_decision) abiDecision {
	return abiDecision{int32(d.allowed), int32(d.line), int32(d.kind), int32(d.reason), int32(d.not_url)}
}

// abiCompile calls robotstxt_compile from C.
func abiCompile(body []byte, tokens []string, sem int, maxFileSize, cacheBytes int64) (uint64, int) {
	cb := cBytes(body)
	defer cFree(cb)
	var ptrs **C.char
	var lens *C.size_t
	if n := len(tokens); n > 0 {
		ptrs = (**C.char)(C.malloc(C.size_t(n) * C.size_t(unsafe.Sizeof(uintptr(0)))))
		lens = (*C.size_t)(C.malloc(C.size_t(n) * C.size_t(unsafe.Sizeof(C.size_t(0)))))
		defer C.free(unsafe.Pointer(ptrs))
		defer C.free(unsafe.Pointer(lens))
		ps, ls := unsafe.Slice(ptrs, n), unsafe.Slice(lens, n)
		for i, t := range tokens {
			ps[i], ls[i] = cBytes([]byte(t)), C.size_t(len(t))
			defer cFree(ps[i])
		}
	}
	var h C.robotstxt_handle
	rc := C.shim_compile(cb, C.size_t(len(body)), ptrs, lens, C.size_t(len(tokens)), C.int(sem), C.int64_t(maxFileSize), C.int64_t(cacheBytes), &h)
	return uint64(h), int(rc)
}

// abiDecide calls robotstxt_decide from C.
func abiDecide(h uint64, url []byte) (abiDecision, int) {
	cu := cBytes(url)
	defer cFree(cu)
	var d C.robotstxt_decision
	rc := C.shim_decide(C.robotstxt_handle(h), cu, C.size_t(len(url)), &d)
	return fromC(d), int(rc)
}

// abiUsage calls robotstxt_usage from C: train-ai, search and their lines.
func abiUsage(h uint64, url []byte) ([4]int32, int) {
	cu := cBytes(url)
	defer cFree(cu)
	var p C.robotstxt_prefs
	rc := C.shim_usage(C.robotstxt_handle(h), cu, C.size_t(len(url)), &p)
	return [4]int32{int32(p.train_ai), int32(p.search), int32(p.train_ai_line), int32(p.search_line)}, int(rc)
}

// abiUsageOf calls robotstxt_usage_of from C.
func abiUsageOf(h uint64, url, key []byte) (pref, line int32, rc int) {
	cu, ck := cBytes(url), cBytes(key)
	defer cFree(cu)
	defer cFree(ck)
	var p, l C.int32_t
	r := C.shim_usage_of(C.robotstxt_handle(h), cu, C.size_t(len(url)), ck, C.size_t(len(key)), &p, &l)
	return int32(p), int32(l), int(r)
}

// abiCrawlDelay calls robotstxt_crawl_delay from C.
func abiCrawlDelay(h uint64) (ns int64, present bool, rc int) {
	var n C.int64_t
	var p C.int32_t
	r := C.shim_crawl_delay(C.robotstxt_handle(h), &n, &p)
	return int64(n), p == 1, int(r)
}

// abiFree calls robotstxt_free from C.
func abiFree(h uint64) int { return int(C.shim_free(C.robotstxt_handle(h))) }

// abiDecideOnce calls robotstxt_decide_once from C.
func abiDecideOnce(body, agent, url []byte, sem int) (abiDecision, int) {
	cb, ca, cu := cBytes(body), cBytes(agent), cBytes(url)
	defer cFree(cb)
	defer cFree(ca)
	defer cFree(cu)
	var d C.robotstxt_decision
	rc := C.shim_decide_once(cb, C.size_t(len(body)), ca, C.size_t(len(agent)), cu, C.size_t(len(url)), C.int(sem), &d)
	return fromC(d), int(rc)
}

// abiProductTokens calls robotstxt_product_tokens from C with a buffer of
// capacity bufCap: the bytes written, the length reported, the code.
func abiProductTokens(header []byte, bufCap int) (string, int, int) {
	ch := cBytes(header)
	defer cFree(ch)
	var buf *C.char
	if bufCap > 0 {
		buf = (*C.char)(C.malloc(C.size_t(bufCap)))
		defer C.free(unsafe.Pointer(buf))
	}
	var n C.size_t
	rc := C.shim_product_tokens(ch, C.size_t(len(header)), buf, C.size_t(bufCap), &n)
	if rc != 0 || n == 0 {
		return "", int(n), int(rc)
	}
	return C.GoStringN(buf, C.int(n)), int(n), int(rc)
}

// abiStrerror calls robotstxt_strerror from C.
func abiStrerror(code int) string { return C.GoString(C.shim_strerror(C.int(code))) }

// abiRaw calls the exported functions with pointers a Go slice cannot
// make: NULL with a length, and NULL out-parameters. It returns each call's
// code, in the order the test lists them.
func abiRaw(h uint64) []int {
	one := C.CString("x")
	defer C.free(unsafe.Pointer(one))
	var hh C.robotstxt_handle
	var d C.robotstxt_decision
	var p C.robotstxt_prefs
	var n C.size_t
	var i32 C.int32_t
	var i64 C.int64_t
	ch := C.robotstxt_handle(h)
	return []int{
		int(C.shim_compile(nil, 5, nil, nil, 0, 0, 0, 0, &hh)),                // body NULL with a length
		int(C.shim_compile(one, 1, nil, nil, 1, 0, 0, 0, &hh)),                // tokens NULL with a count
		int(C.shim_compile(one, 1, nil, nil, 0, 0, 0, 0, nil)),                // handle NULL
		int(C.shim_compile(one, 1, nil, nil, 0, 3, 0, 0, &hh)),                // semantics 3
		int(C.shim_compile(one, 1, nil, nil, 0, -1, 0, 0, &hh)),               // semantics -1
		int(C.shim_compile(one, 1, nil, nil, 65, 0, 0, 0, &hh)),               // 65 tokens
		int(C.shim_decide(ch, nil, 3, &d)),                                    // url NULL with a length
		int(C.shim_decide(ch, one, 1, nil)),                                   // out NULL
		int(C.shim_usage(ch, one, 1, nil)),                                    // out NULL
		int(C.shim_usage(ch, nil, 1, &p)),                                     // url NULL with a length
		int(C.shim_usage_of(ch, one, 1, nil, 2, &i32, &i32)),                  // key NULL with a length
		int(C.shim_usage_of(ch, one, 1, one, 1, nil, &i32)),                   // pref NULL
		int(C.shim_crawl_delay(ch, nil, &i32)),                                // nanoseconds NULL
		int(C.shim_crawl_delay(ch, &i64, nil)),                                // present NULL
		int(C.shim_decide_once(nil, 1, one, 1, one, 1, 0, &d)),                // body NULL with a length
		int(C.shim_decide_once(one, 1, nil, 1, one, 1, 0, &d)),                // agent NULL with a length
		int(C.shim_decide_once(one, 1, one, 1, nil, 1, 0, &d)),                // url NULL with a length
		int(C.shim_decide_once(one, 1, one, 1, one, 1, 7, &d)),                // semantics 7
		int(C.shim_decide_once(one, 1, one, 1, one, 1, 0, nil)),               // out NULL
		int(C.shim_product_tokens(nil, 4, nil, 0, &n)),                        // header NULL with a length
		int(C.shim_product_tokens(one, 1, nil, 0, nil)),                       // out_len NULL
		int(C.shim_decide(ch, (*C.char)(nil), C.size_t(^uint64(0)>>1+1), &d)), // a length over PTRDIFF_MAX, NULL: EINVAL first
	}
}

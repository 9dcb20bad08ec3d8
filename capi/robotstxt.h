// robotstxt.h: the C ABI of librobotstxt (github.com/seed-275a9bd5/robotstxt,
// capi/). Build the library with
//
//     go build -buildmode=c-shared -o librobotstxt.so .
//
// in capi/ (python/build.sh does it), include this file, and link with
// -lrobotstxt. The generated librobotstxt.h includes it too.

#ifndef ROBOTSTXT_H
#define ROBOTSTXT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// librobotstxt: robots.txt decisions (RFC 9309, Google's reading, or the
// 1996 draft) from the Go library github.com/seed-275a9bd5/robotstxt.
//
// Conventions for every function:
//   - Inputs are (pointer, length) pairs of any bytes; nothing needs NUL
//     termination, and NUL bytes and invalid UTF-8 are ordinary input. A
//     pointer may be NULL only when its length is 0. The library copies what
//     it keeps and keeps no pointer to caller memory once a call returns.
//   - A compiled matcher is a robotstxt_handle, an integer; 0 is never a
//     handle. It stays valid until robotstxt_free, and is safe to use from
//     several threads at once. A freed handle is never reused: using it
//     again returns ROBOTSTXT_EHANDLE.
//   - Results go to caller-owned out-parameters, written only when the call
//     returns ROBOTSTXT_OK. The library allocates nothing that the caller
//     must free except handles.
//   - The return value is ROBOTSTXT_OK (0) or an error code below;
//     robotstxt_strerror names it. No input crashes the process.

typedef uint64_t robotstxt_handle;
// The Go side spells the const parameters with these (cgo keeps no const).
typedef const char robotstxt_cchar;
typedef const size_t robotstxt_csize;

// Error codes.
#define ROBOTSTXT_OK 0
#define ROBOTSTXT_EINVAL 1    // a NULL pointer with a length, a NULL out-parameter, an unknown semantics
#define ROBOTSTXT_EHANDLE 2   // a handle that robotstxt_compile did not return, or that was freed
#define ROBOTSTXT_ETOOBIG 3   // a length over a limit: more than ROBOTSTXT_MAX_TOKENS tokens, or over PTRDIFF_MAX
#define ROBOTSTXT_ESPACE 4    // an output buffer too small; the length it needs was written
#define ROBOTSTXT_EINTERNAL 5 // a bug in the library, recovered; please report it with the input

// Semantics (robotstxt_compile, robotstxt_decide_once).
#define ROBOTSTXT_RFC9309 0    // the standard, read leniently (the default)
#define ROBOTSTXT_GOOGLE 1     // exactly what Google's open-source library decides, quirks included
#define ROBOTSTXT_KOSTER1996 2 // the 1996 draft: first matching rule in file order, no wildcards

// The most product tokens robotstxt_compile takes for one crawler.
#define ROBOTSTXT_MAX_TOKENS 64

// Reasons (robotstxt_decision.reason).
#define ROBOTSTXT_REASON_NO_MATCH 0     // no rule matched: allowed
#define ROBOTSTXT_REASON_RULE 1         // the rule on robotstxt_decision.line decided
#define ROBOTSTXT_REASON_ROBOTS_TXT 2   // RFC 9309: /robots.txt is always allowed
#define ROBOTSTXT_REASON_INDEX_HTM 3    // Google: an allow of /d/index.htm* allowed /d/ (line is that allow)

// Rule kinds (robotstxt_decision.kind).
#define ROBOTSTXT_KIND_NONE 0
#define ROBOTSTXT_KIND_DISALLOW 1
#define ROBOTSTXT_KIND_ALLOW 2

// Usage preferences (robotstxt_prefs, robotstxt_usage_of).
#define ROBOTSTXT_USAGE_UNKNOWN 0        // no statement says y or n
#define ROBOTSTXT_USAGE_ALLOWED 1        // y
#define ROBOTSTXT_USAGE_DISALLOWED 2     // n
#define ROBOTSTXT_USAGE_NOT_APPLICABLE 3 // the URL may not be fetched

// robotstxt_decision is the answer for one URL.
typedef struct robotstxt_decision {
	int32_t allowed; // 1: may be fetched; 0: disallowed
	int32_t line;    // the deciding line of the file (1-based); 0 when no rule decided
	int32_t kind;    // ROBOTSTXT_KIND_*: the deciding rule's kind
	int32_t reason;  // ROBOTSTXT_REASON_*
	int32_t not_url; // 1: the input was neither an absolute URL, nor //host/path, nor a path
	                 // starting with '/', and was read from its first '/' as Google's library does
} robotstxt_decision;

// robotstxt_prefs is what a site prefers for the use of one URL's content
// (Content-Usage lines, the IETF AI Preferences drafts).
typedef struct robotstxt_prefs {
	int32_t train_ai;      // ROBOTSTXT_USAGE_*
	int32_t search;        // ROBOTSTXT_USAGE_*
	int32_t train_ai_line; // the content-usage line that decided train_ai; 0: none
	int32_t search_line;   // the content-usage line that decided search; 0: none
} robotstxt_prefs;

// robotstxt_strerror returns a static, NUL-terminated description of an
// error code (never NULL; the caller must not free it).
const char *robotstxt_strerror(int code);

// Functions.

// robotstxt_abi_version returns the version of this header's functions,
// structs and constants: 1. A binding checks it when it loads the library.
int robotstxt_abi_version(void);

// robotstxt_compile compiles a robots.txt for one crawler.
//
// body, body_len: the robots.txt as served (any bytes; only the first
// max_file_size bytes are read). tokens, token_lens, ntokens: the crawler's
// product tokens, most specific first (for example "Googlebot-Image",
// "Googlebot"); every group naming any of them applies, else the "*" groups.
// ntokens may be 0 (the "*" groups), and at most ROBOTSTXT_MAX_TOKENS. A
// string that is no product token (a User-Agent header) is read as its
// product tokens in RFC9309 and Koster1996, and names no group in Google.
// semantics: ROBOTSTXT_RFC9309, ROBOTSTXT_GOOGLE or ROBOTSTXT_KOSTER1996.
// max_file_size: bytes read of body; 0 or less than 512000 means 512000.
// cache_bytes: memory bound of the matcher's automaton states; 0 means the
// default (about 1 MiB), negative builds none (slower, holds nothing).
//
// On ROBOTSTXT_OK *handle is a new handle, which the caller frees with
// robotstxt_free. Errors: ROBOTSTXT_EINVAL (a NULL pointer with a length,
// handle NULL, an unknown semantics), ROBOTSTXT_ETOOBIG (too many tokens).
// A robots.txt itself is never an error: what cannot be read is skipped.
int robotstxt_compile(const char *body, size_t body_len, const char **tokens, const size_t *token_lens, size_t ntokens, int semantics, int64_t max_file_size, int64_t cache_bytes, robotstxt_handle *handle);

// robotstxt_free frees a handle. Errors: ROBOTSTXT_EHANDLE when h is not a
// live handle (never made, or already freed); freeing twice is that error,
// not a crash. A call running on h in another thread finishes normally.
int robotstxt_free(robotstxt_handle h);

// robotstxt_decide decides a URL for the handle's crawler: absolute
// (scheme://host/path?query), //host/path, or a path starting with '/'.
// Time linear in url_len; safe to call from several threads at once.
// Errors: ROBOTSTXT_EHANDLE, ROBOTSTXT_EINVAL (url NULL with a length,
// out NULL).
int robotstxt_decide(robotstxt_handle h, const char *url, size_t url_len, robotstxt_decision *out);

// robotstxt_usage gives a URL's usage preferences (Content-Usage lines) for
// the handle's crawler: both ROBOTSTXT_USAGE_NOT_APPLICABLE when the URL may
// not be fetched. Errors: as robotstxt_decide.
int robotstxt_usage(robotstxt_handle h, const char *url, size_t url_len, robotstxt_prefs *out);

// robotstxt_usage_of gives a URL's preference for any usage category key
// (for example "train-ai", or a category of a later vocabulary) into *pref
// (ROBOTSTXT_USAGE_*) and the deciding content-usage line into *line (0:
// none). Errors: as robotstxt_decide, and ROBOTSTXT_EINVAL for key NULL with
// a length or a NULL pref or line.
int robotstxt_usage_of(robotstxt_handle h, const char *url, size_t url_len, const char *key, size_t key_len, int32_t *pref, int32_t *line);

// robotstxt_crawl_delay gives the crawl-delay of the handle's groups: *present
// is 1 and *nanoseconds the largest crawl-delay line's value (at most five
// minutes), or *present is 0 and *nanoseconds 0 when there is none.
// Errors: ROBOTSTXT_EHANDLE, ROBOTSTXT_EINVAL (an out-parameter NULL).
int robotstxt_crawl_delay(robotstxt_handle h, int64_t *nanoseconds, int32_t *present);

// robotstxt_decide_once is first contact: compile body for agent (a product
// token, or in RFC9309 and Koster1996 a whole User-Agent header) and decide
// url, with the default limits, keeping nothing. A crawler that decides
// more than one URL of a site compiles once (robotstxt_compile) instead.
// Errors: ROBOTSTXT_EINVAL (a NULL pointer with a length, out NULL, an
// unknown semantics).
int robotstxt_decide_once(const char *body, size_t body_len, const char *agent, size_t agent_len, const char *url, size_t url_len, int semantics, robotstxt_decision *out);

// robotstxt_product_tokens writes the robots.txt product tokens of a
// crawler's User-Agent header (for example "Googlebot" for "Mozilla/5.0
// (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"), each
// followed by '\n' (tokens are letters, '-' and '_'), at most 8, into buf;
// *out_len is the bytes written. When buf_cap is too small it writes nothing,
// sets *out_len to the bytes needed and returns ROBOTSTXT_ESPACE; header_len
// + 8 bytes always suffice. Errors: ROBOTSTXT_EINVAL (a NULL pointer with a
// length, out_len NULL), ROBOTSTXT_ESPACE.
int robotstxt_product_tokens(const char *header, size_t header_len, char *buf, size_t buf_cap, size_t *out_len);

#ifdef __cplusplus
}
#endif

#endif // ROBOTSTXT_H

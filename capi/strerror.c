// robotstxt_strerror, declared in capi.go's preamble (and so in the
// generated header): C, so that the messages are static C strings that no
// caller frees and that Go does not allocate.

const char *robotstxt_strerror(int code) {
	switch (code) {
	case 0: return "ok";
	case 1: return "invalid argument: a NULL pointer with a length, a NULL out-parameter, or an unknown semantics";
	case 2: return "unknown handle: never returned by robotstxt_compile, or already freed";
	case 3: return "input too big: more than ROBOTSTXT_MAX_TOKENS tokens, or a length over PTRDIFF_MAX";
	case 4: return "output buffer too small: the length needed was written";
	case 5: return "internal error in librobotstxt (a bug: please report it with the input)";
	default: return "unknown error code";
	}
}

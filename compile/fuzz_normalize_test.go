package compile

import (
	"strings"
	"testing"
)

// maxFuzzInput bounds fuzz inputs: normalisation is linear, so longer inputs
// find nothing new and only slow the fuzzer down. 4 KiB is twice the longest
// URL old browsers accepted (2083 bytes).
const maxFuzzInput = 4 << 10

// FuzzNormalizePattern checks that NormalizePattern never panics, is
// idempotent, agrees with the naive reference, leaves no wildcard in a
// Koster1996 pattern and no byte >= 0x80 or lowercase escape anywhere.
func FuzzNormalizePattern(f *testing.F) {
	for _, s := range normalizeInputs() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if len(p) > maxFuzzInput {
			t.Skip()
		}
		for _, sem := range allSemantics {
			q := NormalizePattern(p, sem)
			if again := NormalizePattern(q, sem); again != q {
				t.Fatalf("not idempotent: NormalizePattern(%q, %v) = %q, then %q", p, sem, q, again)
			}
			if ref := refNormalize(p, sem, true); ref != q {
				t.Fatalf("NormalizePattern(%q, %v) = %q, reference %q", p, sem, q, ref)
			}
			if sem == Koster1996 && strings.ContainsAny(q, "*$") {
				t.Fatalf("NormalizePattern(%q, Koster1996) = %q keeps a wildcard", p, q)
			}
			for i := 0; i < len(q); i++ {
				if q[i] >= 0x80 {
					t.Fatalf("NormalizePattern(%q, %v) = %q keeps byte %#x", p, sem, q, q[i])
				}
				if q[i] == '%' && validEscape(q, i) && strings.ContainsAny(q[i+1:i+3], "abcdef") {
					t.Fatalf("NormalizePattern(%q, %v) = %q keeps a lowercase escape", p, sem, q)
				}
			}
		}
	})
}

// FuzzURLPath checks URL to path on arbitrary strings: no panic, a path that
// starts with '/', streaming chunks that equal normalizePath, Google's
// extraction equal to Google's code, and idempotent normalisation.
func FuzzURLPath(f *testing.F) {
	for _, s := range normalizeInputs() {
		f.Add(s)
	}
	for _, u := range corpusURLs(f, 300) {
		f.Add(u)
	}
	f.Fuzz(func(t *testing.T, u string) {
		if len(u) > maxFuzzInput {
			t.Skip()
		}
		checkURLPath(t, u)
	})
}

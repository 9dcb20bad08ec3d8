package bytesearch

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// naive is IndexAny4 byte by byte: the reference.
func naive(s string, from int, set string) int {
	for i := from; i < len(s); i++ {
		if strings.IndexByte(set, s[i]) >= 0 {
			return i
		}
	}
	return -1
}

// TestIndexAny4 compares the word-at-a-time search with a byte loop at every
// start offset, for inputs where the wanted bytes sit at every position of a
// word, alone, repeated and near the ends, among bytes one bit away from
// them and zero and 0x80 bytes (a zero byte's borrow must not mark the byte
// above it first).
func TestIndexAny4(t *testing.T) {
	alphabet := []byte("ab/?;#.\x00\x80\xff\x2e\x3e\x2f\x30\x01\x7f")
	rng := rand.New(rand.NewPCG(1, 2))
	inputs := []string{"", "/", "abcdefgh", "abcdefgh/", "abcdefghijklmnop#", "example.com/x", "\x00\x00\x00\x00\x00\x00\x00\x00/", "\x01\x00\x00\x00\x00\x00\x00\x00\x00"}
	for n := 0; n < 3000; n++ {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		inputs = append(inputs, string(b))
	}
	for _, set := range []string{"/?;#", "/?##", "\x00\x01\x80\xff", "\x00\x00\x00\x00", "////"} {
		for _, s := range inputs {
			for from := 0; from <= len(s)+1; from++ {
				want := naive(s, from, set)
				if got := IndexAny4(s, from, set[0], set[1], set[2], set[3]); got != want {
					t.Fatalf("IndexAny4(%q, %d, %q) = %d, want %d", s, from, set, got, want)
				}
				if got := IndexAny4([]byte(s), from, set[0], set[1], set[2], set[3]); got != want {
					t.Fatalf("IndexAny4([]byte(%q), %d, %q) = %d, want %d", s, from, set, got, want)
				}
			}
		}
	}
}

func FuzzIndexAny4(f *testing.F) {
	f.Add("https://example.com/a?b#c", 0, byte('/'), byte('?'), byte(';'), byte('#'))
	f.Fuzz(func(t *testing.T, s string, from int, a, b, c, d byte) {
		if from < 0 || from > len(s) {
			return
		}
		set := string([]byte{a, b, c, d})
		if got, want := IndexAny4(s, from, a, b, c, d), naive(s, from, set); got != want {
			t.Fatalf("IndexAny4(%q, %d, %q) = %d, want %d", s, from, set, got, want)
		}
	})
}

// BenchmarkIndexAny4 measures a search over a URL-sized run with the match
// at its end, against a byte loop with four compares (what it replaced).
func BenchmarkIndexAny4(b *testing.B) {
	s := "/catalog/products/category/shoes/running/item-12345.html?utm_source=x"
	b.Run("words", func(b *testing.B) {
		b.SetBytes(int64(len(s)))
		for i := 0; i < b.N; i++ {
			sinkInt = IndexAny4(s, 1, '?', '#', '#', '#')
		}
	})
	b.Run("bytes", func(b *testing.B) {
		b.SetBytes(int64(len(s)))
		for i := 0; i < b.N; i++ {
			sinkInt = byteLoop(s, 1, '?', '#', '#', '#')
		}
	})
}

var sinkInt int

func byteLoop(s string, from int, a, b, c, d byte) int {
	for i := from; i < len(s); i++ {
		if x := s[i]; x == a || x == b || x == c || x == d {
			return i
		}
	}
	return -1
}

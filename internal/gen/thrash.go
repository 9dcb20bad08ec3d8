package gen

import (
	"fmt"
	"math/rand"
	"strings"
)

// ThrashCase is a file whose wildcard rules keep thousands of patterns
// alive at every byte of a URL, with URLs over the same letters or words,
// so that nearly every URL reaches states of the automaton that no URL
// reached before: a lazily built DFA's cache thrashes on them.
type ThrashCase struct {
	// Name says the shape, usable as a sub-test name.
	Name string
	// Body is the robots.txt, about MaxFileSize bytes, in one "*" group.
	Body []byte
	// Short are ThrashShortURLs paths of 2 to 64 bytes.
	Short []string
	// Medium are ThrashMediumURLs paths of 2 KiB.
	Medium []string
	// Long is one path of LongURL bytes.
	Long string
}

// The number of URLs of each length a ThrashCase comes with.
const (
	ThrashShortURLs  = 2000
	ThrashMediumURLs = 20
	ThrashMediumLen  = 2 << 10
)

// Thrashing returns the thrashing shapes, built deterministically from seed:
//
//   - two-letters: overlapping wildcard rules over the letters a and b
//     ("Allow: /*a*bb*a*b*aa$"), allow and disallow mixed, a third of them
//     anchored;
//   - words: 18,000 rules "Disallow: /*w*w*w*w", a distinct 3-character
//     word w in each;
//   - abc-stars: rules of 5 to 30 random characters from a, b, c and '*'
//     after the leading '/';
//   - word-chains: rules of four distinct words from a vocabulary of 400
//     ("Disallow: /*w1*w2*w3*w4"), so that a URL made of those words moves
//     many patterns a piece further at each word.
//
// Their URLs are paths over the same letters, or made of the file's words.
func Thrashing(seed int64) []ThrashCase {
	r := rand.New(rand.NewSource(seed))
	return []ThrashCase{twoLetters(r), wordStars(r), abcStars(r), wordChains(r)}
}

// thrashCase fills a "*" group with the rules of rule up to MaxFileSize and
// makes its URLs with url (a path of the length asked).
func thrashCase(name string, rule func(i int) string, url func(n int) string, r *rand.Rand) ThrashCase {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	fill(&b, MaxFileSize, rule)
	c := ThrashCase{Name: name, Body: []byte(b.String()), Long: url(LongURL)}
	for i := 0; i < ThrashShortURLs; i++ {
		c.Short = append(c.Short, url(2+r.Intn(63)))
	}
	for i := 0; i < ThrashMediumURLs; i++ {
		c.Medium = append(c.Medium, url(ThrashMediumLen))
	}
	return c
}

// letters returns a path of n bytes: '/' and random bytes of alphabet.
func letters(r *rand.Rand, alphabet string, n int) string {
	b := make([]byte, n)
	b[0] = '/'
	for i := 1; i < n; i++ {
		b[i] = alphabet[r.Intn(len(alphabet))]
	}
	return string(b)
}

// wordPath returns a path of n bytes: '/' and random words of vocab, the
// last one cut to length.
func wordPath(r *rand.Rand, vocab []string, n int) string {
	var b strings.Builder
	b.WriteByte('/')
	for b.Len() < n {
		b.WriteString(vocab[r.Intn(len(vocab))])
	}
	return b.String()[:n]
}

func twoLetters(r *rand.Rand) ThrashCase {
	rule := func(i int) string {
		var b strings.Builder
		b.WriteString("/")
		for p, n := 0, 4+r.Intn(5); p < n; p++ {
			b.WriteByte('*')
			for k, m := 0, 1+r.Intn(2); k < m; k++ {
				b.WriteByte("ab"[r.Intn(2)])
			}
		}
		if r.Intn(3) == 0 {
			b.WriteByte('$')
		}
		kind := "Disallow: "
		if i%2 == 0 {
			kind = "Allow: "
		}
		return kind + b.String()
	}
	return thrashCase("two-letters", rule, func(n int) string { return letters(r, "ab", n) }, r)
}

func wordStars(r *rand.Rand) ThrashCase {
	const alnum = "abcdefghijklmnopqrstuvwxyz0123456789"
	perm := r.Perm(len(alnum) * len(alnum) * len(alnum))
	vocab := make([]string, 18000)
	for i := range vocab {
		k := perm[i]
		vocab[i] = string([]byte{alnum[k%36], alnum[k/36%36], alnum[k/1296]})
	}
	rule := func(i int) string {
		w := vocab[i%len(vocab)]
		return fmt.Sprintf("Disallow: /*%s*%s*%s*%s", w, w, w, w)
	}
	return thrashCase("words", rule, func(n int) string { return wordPath(r, vocab, n) }, r)
}

func abcStars(r *rand.Rand) ThrashCase {
	rule := func(int) string {
		b := make([]byte, 5+r.Intn(26))
		for i := range b {
			b[i] = "abc*"[r.Intn(4)]
		}
		return "Disallow: /" + string(b)
	}
	return thrashCase("abc-stars", rule, func(n int) string { return letters(r, "abc", n) }, r)
}

func wordChains(r *rand.Rand) ThrashCase {
	vocab := make([]string, 400)
	for i := range vocab {
		vocab[i] = base36(1296 + i*7)
	}
	rule := func(i int) string {
		var b strings.Builder
		b.WriteString("Disallow: /")
		for k := 0; k < 4; k++ {
			b.WriteString("*" + vocab[r.Intn(len(vocab))])
		}
		return b.String()
	}
	return thrashCase("word-chains", rule, func(n int) string { return wordPath(r, vocab, n) }, r)
}

// ThrashCases returns the thrashing shapes as adversarial cases, each with
// a sample of its URLs: 40 short ones, 4 of 2 KiB and the long one.
func ThrashCases(seed int64) []Case {
	var cases []Case
	for _, c := range Thrashing(seed) {
		urls := append(append(append([]string(nil), c.Short[:40]...), c.Medium[:4]...), c.Long)
		cases = append(cases, Case{Name: "thrash-" + c.Name, Body: c.Body, URLs: urls})
	}
	return cases
}

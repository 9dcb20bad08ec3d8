package automaton

import "strings"

// MatchOne reports whether pattern p matches input x as a Set decides one
// pattern: a prefix of x, or all of x when anchored, '*' matching any
// run of bytes. work is the number of input bytes its searches could read:
// a caller that tries patterns one by one, for an input or two before a
// Set would pay for itself, holds their sum to TryBudget(len(x)) and gives
// the input to a Set past it, whose cost per byte is bounded.
func MatchOne(p string, anchored bool, x string) (ok bool, work int) {
	// Most patterns tried differ from x before their first star: rejected
	// there, without reading the rest of the pattern.
	k := 0
	for k < len(p) && k < len(x) && p[k] == x[k] {
		k++
	}
	if k < len(p) && p[k] != wildcard && strings.IndexByte(p[:k], wildcard) < 0 {
		return false, 0
	}
	in := instOf(p, anchored)           // read as Compile reads a pattern,
	ok = in.matches(p[:in.n], x, &work) // matched by the program's loop on its bytes
	return ok, work
}

// TryBudget is the most work MatchOne's tries may do on an input of n
// bytes before it goes to a Set: what a Set's own tries may do before its
// piece matcher decides.
func TryBudget(n int) int { return maxTryBytes*n + tryBytesSlack }

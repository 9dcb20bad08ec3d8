package automaton

import "strings"

// MatchOne reports whether pattern p matches input x as a Set decides one
// pattern: a prefix of x, or all of x when anchored, Wildcard matching any
// run of bytes. starInX says whether x holds a '*' byte (look once per
// input). work is the number of input bytes its searches could read: a
// caller that tries patterns one by one, for an input or two before a Set
// would pay for itself, holds their sum to TryBudget(len(x)) and gives the
// input to a Set past it, whose cost per byte is bounded.
func MatchOne(p string, anchored bool, x string, starInX bool) (ok bool, work int) {
	return matchOne(p, anchored, x, starInX)
}

// TryBudget is the most work MatchOne's tries may do on an input of n
// bytes before it goes to a Set: what a Set's own tries may do before its
// piece matcher decides.
func TryBudget(n int) int { return maxTryBytes*n + tryBytesSlack }

// HasWildcard reports whether x holds a Wildcard byte: MatchOne's
// starInX.
func HasWildcard(x string) bool { return strings.IndexByte(x, Wildcard) >= 0 }

// Package automaton finds, among prioritised wildcard patterns, the best
// one that matches an input: a pattern is a byte string in which '*'
// matches any run of bytes, and it matches an input it is a prefix of,
// or, when anchored, the whole input. It knows nothing of robots.txt.
//
// Compile turns the patterns into one program, in rank order (best first):
// each pattern's head (the bytes before its first star), its pieces
// between stars, its tail (the run an anchored pattern ends with) and its
// anchoring, trailing stars trimmed. Three engines read the program, and
// one policy chooses among them (Set.Match). The linear engine builds no
// state: it tries the patterns that could match, best first, each by a
// greedy match of its pieces, through an index of their heads once a Set
// has decided an input. Where those tries would read the input too many
// times, the piece matcher decides: one pass of an Aho-Corasick automaton
// over the pieces, each pattern moving one piece on at each occurrence of
// the piece it waits for. The DFA is built lazily, as RE2's and
// regex-automata's hybrid DFA are: a state (the program positions alive,
// and the best pattern completed) and each transition are computed when an
// input first needs them, then shared by every later input, inside a
// memory budget; an input whose new states cost too much gives up, and
// the piece matcher decides it.
//
// Costs. Compile costs a radix sort of the patterns by priority. The
// linear engine's tries cost each pattern tried one pass over the input
// at most, bounded per input; the piece matcher one automaton step per
// input byte plus the pieces that end at each byte and O(1) per piece of
// each pattern whose first piece the input holds, whatever the patterns
// alive. On states built, the DFA costs one table load a byte. Memory: the
// program 16 bytes a pattern, the index 4, the piece matcher about 20
// bytes a byte of distinct piece; the DFA's states at most
// Options.CacheBytes.
//
// Concurrency. A Set is safe for concurrent use. The index, the piece
// matcher and the DFA are built once, under the Set's mutex; a DFA
// transition is computed under the DFA's own mutex and published with an
// atomic store, then read with no lock. The policy's counters change by
// one atomic step each, on rare events or one input in 16 at random.
package automaton

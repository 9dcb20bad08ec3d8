// Package automaton finds, among prioritised wildcard patterns, the best
// one that matches an input: a pattern is a byte string in which '*'
// (Wildcard) matches any run of bytes, and it matches an input it is a
// prefix of, or, when anchored, the whole input. It knows nothing of
// robots.txt.
//
// A Set decides with two engines and one policy (Set.Match). The linear
// engine builds no state: it tries the patterns that could match, best
// first, each by a greedy match of its literal pieces, through an index
// of the patterns by their first bytes once a Set has decided an input.
// Where those tries would read the input too many times (many patterns
// with stars alive), its piece matcher decides instead: one pass of an
// Aho-Corasick automaton over the patterns' pieces, each pattern moving
// one piece on at each occurrence of the piece it waits for. The DFA is
// built lazily, as RE2's and regex-automata's hybrid DFA are: a state (the
// pattern positions alive, and the best pattern completed) and each
// transition are computed when an input first needs them, then shared by
// every later input, inside a memory budget; an input whose new states
// cost too much gives up, and the piece matcher decides it.
//
// Costs. Compile keeps the patterns and builds nothing. The linear
// engine's tries cost each pattern tried one pass over the input at most,
// bounded per input; the piece matcher costs one automaton step per input byte
// plus the pieces that end at each byte (at most the number of distinct
// piece lengths) and O(1) per piece of each pattern whose first piece the
// input holds, whatever the patterns alive. On states already built, the
// DFA costs one table load a byte and stops as soon as the answer is
// final. Memory: the index 4 bytes a pattern; the piece matcher about 20
// bytes a byte of distinct piece, built on first use; the DFA's states at
// most Options.CacheBytes.
//
// Concurrency. A Set is safe for concurrent use. A decision writes nothing
// shared but for rare events: the index, the piece matcher and the DFA are
// built once, under the Set's mutex; a DFA transition not computed yet is
// computed under it and published with an atomic store, and read with
// atomic loads and no lock once it exists. The policy counts the linear
// engine's inputs by sampling, so that no counter is written per input.
package automaton

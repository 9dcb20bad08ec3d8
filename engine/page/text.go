package page

// Byte helpers over a header's value (a string) or a meta's content (a
// []byte), without allocating.

// isBlank reports whether c is HTML's ASCII whitespace (HTTP's blanks,
// space and tab, among them).
func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

// trimSpan returns the bounds of v[i:j] without its leading and trailing
// blanks.
func trimSpan[T text](v T, i, j int) (int, int) {
	for i < j && isBlank(v[i]) {
		i++
	}
	return i, trimRight(v, i, j)
}

// trimRight returns the end of v[i:j] without its trailing blanks.
func trimRight[T text](v T, i, j int) int {
	for j > i && isBlank(v[j-1]) {
		j--
	}
	return j
}

// trim returns v without leading and trailing blanks.
func trim[T text](v T) T {
	i, j := trimSpan(v, 0, len(v))
	return v[i:j]
}

// indexByte returns the index of the first c in v[i:j], or j.
func indexByte[T text](v T, c byte, i, j int) int {
	for ; i < j; i++ {
		if v[i] == c {
			return i
		}
	}
	return j
}

// equalFold reports whether v equals s ignoring ASCII case; s is lower
// case for the names Read knows, any case for a crawler's token.
func equalFold[T text](v T, s string) bool {
	if len(v) != len(s) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if lower(v[i]) != lower(s[i]) {
			return false
		}
	}
	return true
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// Package plural picks a word's form for a count, for the messages of
// compile and engine.
package plural

// Of returns one when n is 1, else many.
func Of(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

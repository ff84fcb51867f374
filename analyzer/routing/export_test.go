package routing

// SetOrderedFrom sets the number of regexes from which a level, an
// address's server_name regexes or a map are asked as one
// regex.Ordered, and returns the previous number, for tests that
// compare the answers with and without it.
func SetOrderedFrom(n int) int {
	old := orderedFrom
	orderedFrom = n
	return old
}

package routing

import "github.com/nginx-lint/nginx-lint/analyzer/regex"

// SetOrderedFrom sets the number of regexes from which a level, an
// address's server_name regexes or a map are asked as one
// regex.Ordered, and returns the previous number, for tests that
// compare the answers with and without it.
func SetOrderedFrom(n int) int {
	old := orderedFrom
	orderedFrom = n
	return old
}

// ServerRegexes returns the regex.Ordered of the regex locations of
// server n's level, nil when they are too few to have one.
func ServerRegexes(m *Model, n int) *regex.Ordered {
	root := m.server(n).root
	if len(root.regexes) < orderedFrom {
		return nil
	}
	return root.inOrder.o
}

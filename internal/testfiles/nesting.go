package testfiles

import "strings"

// NestedLocations is a configuration of one server listening on listen
// with n locations nested in one another: the i-th (from 1, outermost
// first) opened by head(i), its "{" and what comes before the next
// level ("location / {", Location), the innermost one's body inner. The blocks around the innermost location are n+2 deep (http,
// server, the locations).
func NestedLocations(n int, listen string, head func(i int) string, inner string) string {
	var b strings.Builder
	b.WriteString("events {}\nhttp {\nserver {\nlisten " + listen + ";\n")
	for i := 1; i <= n; i++ {
		b.WriteString(head(i) + "\n")
	}
	b.WriteString(inner + "\n")
	b.WriteString(strings.Repeat("}\n", n))
	b.WriteString("}\n}\n")
	return b.String()
}

// Location is a head for NestedLocations: "location / {" at every level.
func Location(int) string { return "location / {" }

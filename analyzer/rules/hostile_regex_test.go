package rules_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
)

// manyRegexLocations is one server with n regex locations that each
// backtrack and none of which shadows another: every regex must be set
// against all the earlier ones.
func manyRegexLocations(n int) string {
	var b strings.Builder
	b.WriteString("events {}\nhttp {\n    server {\n        listen 80;\n")
	for i := range n {
		b.WriteString("        location ~ ^/r" + strconv.Itoa(i) + "/(a|aa)+(b|bb)*c$ { return 200; }\n")
	}
	b.WriteString("    }\n}\n")
	return b.String()
}

func lintOnly(tb testing.TB, src string, r *analyzer.Rule) []*parser.Diagnostic {
	reg, err := analyzer.NewRegistry(r)
	if err != nil {
		tb.Fatal(err)
	}
	f := parser.ParseFile("/bench/nginx.conf", []byte(src), &parser.Options{Kinds: analyzer.Kinds})
	c := &parser.Config{Main: f, Files: []*parser.File{f}}
	return lintFindings(c, reg, analyzer.Options{})
}

// BenchmarkUnreachableManyRegexes is unreachable-location on one server
// of 250 to 1000 regex locations.
func BenchmarkUnreachableManyRegexes(b *testing.B) {
	for _, n := range []int{250, 1000} {
		src := manyRegexLocations(n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				lintOnly(b, src, rules.UnreachableLocation)
			}
		})
	}
}

package grammar

import (
	"strconv"
	"testing"
)

// distinctListens returns n distinct "127.0.x.y:80" argument lists, every
// fourth with typical parameters, like a configuration with one server per
// address.
func distinctListens(n int) [][]string {
	out := make([][]string, n)
	for i := range out {
		addr := "127.0." + strconv.Itoa(i/256) + "." + strconv.Itoa(i%256) + ":80"
		switch i % 4 {
		case 0:
			out[i] = []string{addr, "default_server"}
		case 1:
			out[i] = []string{addr, "ssl", "http2"}
		default:
			out[i] = []string{addr}
		}
	}
	return out
}

// BenchmarkParseListenFast measures ParseListen (fast path) per listen.
func BenchmarkParseListenFast(b *testing.B) {
	all := distinctListens(20000)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := ParseListen(all[i]); err != nil {
			b.Fatal(err)
		}
		if i++; i == len(all) {
			i = 0
		}
	}
}

// BenchmarkParseListenGrammar measures the participle reference per listen.
func BenchmarkParseListenGrammar(b *testing.B) {
	all := distinctListens(20000)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := ParseListenGrammar(all[i]); err != nil {
			b.Fatal(err)
		}
		if i++; i == len(all) {
			i = 0
		}
	}
}

// BenchmarkParseListenConfig19900 parses a whole configuration's worth of
// distinct listens per iteration and touches every typed view (key,
// socket grouping, context check); the budget is 30 ms per iteration.
func BenchmarkParseListenConfig19900(b *testing.B) {
	all := distinctListens(19900)
	b.ReportAllocs()
	for b.Loop() {
		groups := make(map[string]int, len(all))
		for _, args := range all {
			l, err := ParseListen(args)
			if err != nil {
				b.Fatal(err)
			}
			groups[l.Key]++
			if l.ForcesOwnSocket() || l.Wildcard() || len(l.Check(ContextHTTP)) != 0 {
				b.Fatal("unexpected")
			}
		}
	}
}

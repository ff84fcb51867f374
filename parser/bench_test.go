package parser_test

import (
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
	"github.com/nginx-lint/nginx-lint/parser"
)

func generated(b *testing.B, name string, n int) []byte {
	b.Helper()
	l, err := layout.ParseName(name)
	if err != nil {
		b.Fatal(err)
	}
	return layout.Generate(layout.Options{Layout: l, N: n})
}

// benchmarkParse measures the whole front end on a generated config: the
// tokenizer, the block builder with directive knowledge, and every typed
// view the analyzer reads.
func benchmarkParse(b *testing.B, name string, n int) {
	src := generated(b, name, n)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		f := parser.ParseFile("nginx.conf", src, &parser.Options{Kinds: analyzer.Kinds})
		if len(f.Diagnostics) != 0 {
			b.Fatal(f.Diagnostics[0])
		}
		m := parser.BuildModel(&parser.Config{Main: f, Files: []*parser.File{f}})
		if len(m.Servers) != n {
			b.Fatalf("%d servers, want %d", len(m.Servers), n)
		}
	}
}

func BenchmarkParseL2c19900(b *testing.B) { benchmarkParse(b, "L2c", 19900) }
func BenchmarkParseL2c40000(b *testing.B) { benchmarkParse(b, "L2c", 40000) }
func BenchmarkParseL1a19900(b *testing.B) { benchmarkParse(b, "L1a", 19900) }
func BenchmarkParseL3c19900(b *testing.B) { benchmarkParse(b, "L3c", 19900) }

// BenchmarkLexL2c19900 isolates the tokenizer and block builder.
func BenchmarkLexL2c19900(b *testing.B) {
	src := generated(b, "L2c", 19900)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		parser.ParseFile("nginx.conf", src, nil)
	}
}

// BenchmarkKindsL2c19900 is the tokenizer and block builder with
// directive knowledge, without the typed model.
func BenchmarkKindsL2c19900(b *testing.B) {
	src := generated(b, "L2c", 19900)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		parser.ParseFile("nginx.conf", src, &parser.Options{Kinds: analyzer.Kinds})
	}
}

// BenchmarkReparseL2c19900 re-parses the 19,900-server file after a
// one-character edit of a server_name past its middle (Reparse), against
// BenchmarkKindsL2c19900's whole parse.
func BenchmarkReparseL2c19900(b *testing.B) {
	src := string(generated(b, "L2c", 19900))
	opts := &parser.Options{Kinds: analyzer.Kinds}
	old := parser.ParseString("nginx.conf", src, opts)
	at := strings.Index(src, "perf-test-10001.example") + len("perf-test-1000")
	edited := [2]string{src[:at] + "x" + src[at+1:], src}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		f := parser.Reparse(old, edited[i%2], opts)
		if f == nil {
			b.Fatal("not reparsed")
		}
		old = f
		i++
	}
}

package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
	"github.com/nginx-lint/nginx-lint/analyzer/symbols"
)

// serverGC sets the collector as RunStdio does for the real server
// (GOGC=400 unless GOGC is set), for the benchmark's time.
func serverGC(b *testing.B) {
	if _, set := os.LookupEnv("GOGC"); !set {
		old := debug.SetGCPercent(400)
		b.Cleanup(func() { debug.SetGCPercent(old) })
	}
}

// l2c19900 is the seed's slowest layout, 19,900 servers (1.98 MB), with a
// variable set and used and an upstream a proxy_pass names at its top,
// for the features that follow names.
func l2c19900() string {
	text := string(layout.Generate(layout.Options{Layout: layout.Layout{Listen: layout.IPPerServer, Naming: layout.UniqueNames}, N: 19900}))
	return strings.Replace(text, "http {\n", "http {\n    upstream app { server 127.0.0.1:9000; }\n"+
		"    server {\n        listen 127.0.0.1:1;\n        set $pool app;\n        location / { proxy_pass http://app; add_header X-Pool $pool; }\n    }\n", 1)
}

// position returns the protocol position of the first sub in text, plus
// off bytes (ASCII text).
func positionOf(b *testing.B, text, sub string, off int) protocol.Position {
	at := strings.Index(text, sub)
	if at < 0 {
		b.Fatalf("no %q", sub)
	}
	at += off
	line := strings.Count(text[:at], "\n")
	return protocol.Position{Line: protocol.UInteger(line), Character: protocol.UInteger(at - strings.LastIndexByte(text[:at], '\n') - 1)}
}

// burst sends n one-character edits as fast as an editor can, typing at
// the end of the server_name at line (a server past the middle), each
// after the one before, without waiting for anything.
func burst(b *testing.B, s *Server, uri protocol.DocumentUri, version *int, at protocol.Position, n int) {
	notify := func(string, any) {}
	for i := range n {
		*version++
		r := protocol.Range{Start: at, End: at}
		r.Start.Character += protocol.UInteger(i)
		r.End = r.Start
		if err := s.didChange(notify, &protocol.DidChangeTextDocumentParams{
			TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri}, Version: protocol.Integer(*version)},
			ContentChanges: []any{protocol.TextDocumentContentChangeEvent{Range: &r, Text: string(rune('a' + i%26))}},
		}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHoverAfterBurstL2c19900: a hover right after a burst of 300
// quick edits of the 19,900-server file (typed into a server_name past
// the middle), while the lint of the burst waits for the typing to
// pause. The time of the hover alone is measured (ms/hover, wall; and
// the process's CPU time meanwhile): on listen, whose answer holds the
// startup cost model of the new text, and on a variable, which reads its
// symbol table.
func BenchmarkHoverAfterBurstL2c19900(b *testing.B) {
	text := l2c19900()
	// The listen of the server typed into.
	typed := strings.Index(text, "perf-test-10001.example")
	listen := text[strings.LastIndex(text[:typed], "listen "):typed]
	listen = listen[:strings.IndexByte(listen, ';')]
	for _, tc := range []struct{ name, sub string }{{"listen", listen}, {"variable", "X-Pool $pool"}} {
		b.Run(tc.name, func(b *testing.B) {
			serverGC(b)
			s, uri, _ := benchDoc(b, text)
			typeAt := positionOf(b, text, "perf-test-10001.example", len("perf-test-10001"))
			hoverAt := positionOf(b, text, tc.sub, 1)
			if tc.name == "variable" {
				hoverAt = positionOf(b, text, tc.sub, len("X-Pool $p"))
			}
			p := &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
				TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: hoverAt}}
			version := 1
			var wall, cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				burst(b, s, uri, &version, typeAt, 300)
				typeAt.Character += 300
				b.StartTimer()
				c0, t0 := cpuTime(), time.Now()
				h, err := s.hover(bg, p)
				wall += time.Since(t0)
				cpu += cpuTime() - c0
				if err != nil || h == nil {
					b.Fatalf("hover %v %v", h, err)
				}
				b.StopTimer()
				s.Settle()
				b.StartTimer()
			}
			b.ReportMetric(float64(wall)/float64(b.N)/1e6, "ms/hover")
			b.ReportMetric(float64(cpu)/float64(b.N)/1e6, "cpu-ms/hover")
		})
	}
}

// rss returns the process's resident set size in bytes (Linux).
func rss(b *testing.B) int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skip("no /proc/self/status")
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			var kb int64
			fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), &kb)
			return kb << 10
		}
	}
	b.Skip("no VmRSS")
	return 0
}

// BenchmarkBurstMemoryL2c19900: the server's resident memory after it
// opened the 19,900-server file and went idle, and after a burst of 300
// quick edits once it is idle again (the lint of the last text done,
// ReleaseDelay past): rss-after/open is their ratio (the goal: 1.5 at
// most).
func BenchmarkBurstMemoryL2c19900(b *testing.B) {
	text := l2c19900()
	serverGC(b)
	for b.Loop() {
		s, uri, _ := benchDoc(b, text)
		idle := func() {
			s.Settle()
			time.Sleep(ReleaseDelay + ReleaseDelay/2)
		}
		idle()
		open := rss(b)
		version := 1
		burst(b, s, uri, &version, positionOf(b, text, "perf-test-10001.example", len("perf-test-10001")), 300)
		peak := rss(b)
		idle()
		after := rss(b)
		b.ReportMetric(float64(open)/(1<<20), "rss-open-MiB")
		b.ReportMetric(float64(peak)/(1<<20), "rss-burst-MiB")
		b.ReportMetric(float64(after)/(1<<20), "rss-after-MiB")
		b.ReportMetric(float64(after)/float64(open), "rss-after/open")
		s.stopLints()
	}
}

// benchDoc opens text as dir/nginx.conf on a fresh server and returns a
// function that applies a change and waits until its version is
// published.
func benchDoc(b *testing.B, text string) (*Server, protocol.DocumentUri, func(version int, r protocol.Range, newText string)) {
	b.Helper()
	dir := b.TempDir()
	path := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		b.Fatal(err)
	}
	s := New()
	root := string(pathToURI(dir))
	s.initialize(&protocol.InitializeParams{RootURI: &root})
	published := make(chan protocol.UInteger, 16)
	n := func(method string, params any) {
		if p, ok := params.(protocol.PublishDiagnosticsParams); ok && p.Version != nil {
			published <- *p.Version
		}
	}
	uri := pathToURI(path)
	if err := s.didOpen(n, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: uri, LanguageID: "nginx", Version: 1, Text: text}}); err != nil {
		b.Fatal(err)
	}
	<-published
	s.Settle()
	change := func(version int, r protocol.Range, newText string) {
		err := s.didChange(n, &protocol.DidChangeTextDocumentParams{
			TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri}, Version: protocol.Integer(version)},
			ContentChanges: []any{protocol.TextDocumentContentChangeEvent{Range: &r, Text: newText}},
		})
		if err != nil {
			b.Fatal(err)
		}
		for v := range published {
			if int(v) == version {
				return
			}
		}
	}
	return s, uri, change
}

// BenchmarkDidChangeL2c19900 is the editor's latency on the seed
// benchmark's slowest layout: from a one-character didChange in the
// 19,900-server L2c file (1.98 MB) to its diagnostics being published.
// The edit alternates a server_name's last letter, so each lint sees new
// text.
func BenchmarkDidChangeL2c19900(b *testing.B) {
	text := string(layout.Generate(layout.Options{Layout: layout.Layout{Listen: layout.IPPerServer, Naming: layout.UniqueNames}, N: 19900}))
	lines := strings.Split(text, "\n")
	line := -1
	for i, l := range lines {
		if strings.Contains(l, "server_name ") && i > len(lines)/2 {
			line = i
			break
		}
	}
	if line < 0 {
		b.Fatal("no server_name line")
	}
	col := strings.Index(lines[line], ";") - 1
	serverGC(b)
	_, _, change := benchDoc(b, text)
	r := protocol.Range{Start: protocol.Position{Line: protocol.UInteger(line), Character: protocol.UInteger(col)},
		End: protocol.Position{Line: protocol.UInteger(line), Character: protocol.UInteger(col + 1)}}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	version := 1
	done := cpu(b)
	var walls, cpus []time.Duration
	for b.Loop() {
		version++
		t0, c0 := time.Now(), cpuTime()
		change(version, r, string(rune('a'+version%2)))
		walls, cpus = append(walls, time.Since(t0)), append(cpus, cpuTime()-c0)
	}
	done()
	b.ReportMetric(median(walls), "ms-p50")
	b.ReportMetric(median(cpus), "cpu-ms-p50")
}

// median returns the median of ds in milliseconds.
func median(ds []time.Duration) float64 {
	s := slices.Clone(ds)
	slices.Sort(s)
	return float64(s[len(s)/2]) / 1e6
}

// thousandLines is a 1,000-line configuration: 90 servers with
// locations, upstreams and maps.
func thousandLines() string {
	var b strings.Builder
	b.WriteString("events {}\nhttp {\n")
	for i := 0; len(strings.Split(b.String(), "\n")) < 995; i++ {
		fmt.Fprintf(&b, "    upstream app%d { server 127.0.0.1:%d; }\n", i, 9000+i)
		fmt.Fprintf(&b, "    server {\n        listen 127.0.%d.%d:80;\n        server_name s%d.example;\n", i/250, i%250+1, i)
		fmt.Fprintf(&b, "        location / {\n            proxy_pass http://app%d;\n            proxy_set_header Host $host;\n        }\n", i)
		b.WriteString("        location /static/ { root /srv; expires 1h; }\n    }\n")
	}
	b.WriteString("}\n")
	return b.String()
}

// BenchmarkHover1000Lines: hover on a directive name in a linted
// 1,000-line document.
func BenchmarkHover1000Lines(b *testing.B) {
	text := thousandLines()
	s, uri, _ := benchDoc(b, text)
	p := &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: protocol.Position{Line: 500, Character: 10}}}
	b.ReportAllocs()
	for b.Loop() {
		if h, err := s.hover(bg, p); err != nil || h == nil {
			b.Fatalf("hover %v %v", h, err)
		}
	}
}

// BenchmarkHoverListenCost1000Lines: hover on listen, whose answer
// includes the startup cost model (built once per text).
func BenchmarkHoverListenCost1000Lines(b *testing.B) {
	text := thousandLines()
	s, uri, _ := benchDoc(b, text)
	lines := strings.Split(text, "\n")
	line := 0
	for i := 500; i < len(lines); i++ {
		if strings.Contains(lines[i], "listen ") {
			line = i
			break
		}
	}
	p := &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: protocol.Position{Line: protocol.UInteger(line), Character: 10}}}
	b.ReportAllocs()
	for b.Loop() {
		if h, err := s.hover(bg, p); err != nil || h == nil || !strings.Contains(h.Contents.(protocol.MarkupContent).Value, "Startup cost") {
			b.Fatalf("hover %v %v", h, err)
		}
	}
}

// BenchmarkCompletion1000Lines: directive completion inside a server
// block of a linted 1,000-line document.
func BenchmarkCompletion1000Lines(b *testing.B) {
	text := thousandLines()
	s, uri, _ := benchDoc(b, text)
	lines := strings.Split(text, "\n")
	line := 0
	for i := 500; i < len(lines); i++ {
		if strings.Contains(lines[i], "server_name ") {
			line = i
			break
		}
	}
	p := &protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: protocol.Position{Line: protocol.UInteger(line), Character: 8}}}
	b.ReportAllocs()
	for b.Loop() {
		res, err := s.completion(bg, p)
		if err != nil || len(res.([]protocol.CompletionItem)) < 50 {
			b.Fatalf("completion %v", err)
		}
	}
}

// navPosition returns the position of the upstream name in the proxy_pass
// past the middle of the 1,000-line document.
func navPosition(b *testing.B, text string) protocol.Position {
	lines := strings.Split(text, "\n")
	for i := 500; i < len(lines); i++ {
		if j := strings.Index(lines[i], "http://app"); j >= 0 {
			return protocol.Position{Line: protocol.UInteger(i), Character: protocol.UInteger(j + 8)}
		}
	}
	b.Fatal("no proxy_pass")
	return protocol.Position{}
}

// BenchmarkReferences1000Lines: references of an upstream from a
// proxy_pass in a linted 1,000-line document (the index of the
// configuration is made by the first request on a text and kept).
func BenchmarkReferences1000Lines(b *testing.B) {
	text := thousandLines()
	s, uri, _ := benchDoc(b, text)
	p := &protocol.ReferenceParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: navPosition(b, text)},
		Context: protocol.ReferenceContext{IncludeDeclaration: true}}
	b.ReportAllocs()
	for b.Loop() {
		if locs, err := s.references(bg, p); err != nil || len(locs) != 2 {
			b.Fatalf("references %v %v", locs, err)
		}
	}
}

// BenchmarkReferencesFirst1000Lines: the same on a text no request has
// indexed yet (the index is made each time).
func BenchmarkReferencesFirst1000Lines(b *testing.B) {
	text := thousandLines()
	s, uri, _ := benchDoc(b, text)
	pos := navPosition(b, text)
	v := s.viewOf(uri)
	b.ReportAllocs()
	for b.Loop() {
		tab := symbols.Build(analyzer.NewIndex(v.config))
		o, ok := tab.At(v.file.Path, offset(v.file, pos))
		if !ok {
			b.Fatal("no symbol")
		}
		if occs := tab.Occurrences(o.Symbol); len(occs) != 2 {
			b.Fatalf("occurrences %v", occs)
		}
	}
}

// BenchmarkRename1000Lines: rename of an upstream from a proxy_pass in a
// linted 1,000-line document.
func BenchmarkRename1000Lines(b *testing.B) {
	text := thousandLines()
	s, uri, _ := benchDoc(b, text)
	p := &protocol.RenameParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: navPosition(b, text)}, NewName: "backend"}
	b.ReportAllocs()
	for b.Loop() {
		if we, err := s.rename(bg, p); err != nil || len(we.Changes[uri]) != 2 {
			b.Fatalf("rename %v %v", we, err)
		}
	}
}

// BenchmarkDocumentSymbolL2c19900: the outline of the 19,900-server L2c
// file (imenu asks for it on open; it froze Emacs for 175 s when the
// answer was slow to build or to read).
func BenchmarkDocumentSymbolL2c19900(b *testing.B) {
	text := string(layout.Generate(layout.Options{Layout: layout.Layout{Listen: layout.IPPerServer, Naming: layout.UniqueNames}, N: 19900}))
	s, uri, _ := benchDoc(b, text)
	p := &protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}}
	b.ReportAllocs()
	for b.Loop() {
		res, err := s.documentSymbol(bg, p)
		if err != nil || len(res.([]protocol.DocumentSymbol)) == 0 {
			b.Fatalf("documentSymbol %v %v", res, err)
		}
		if n := countSymbols(res.([]protocol.DocumentSymbol)); n > outlineBudget+1 {
			b.Fatalf("%d symbols, over the budget of %d", n, outlineBudget)
		}
	}
}

// BenchmarkDefinitionFirstL2c19900: go to definition of an upstream from
// a proxy_pass on the 19,900-server file, the symbol table built for
// each request, definitions and uses (the first request on a text pays
// at most that: it reads the table the lint built, and adds the uses).
func BenchmarkDefinitionFirstL2c19900(b *testing.B) {
	text := string(layout.Generate(layout.Options{Layout: layout.Layout{Listen: layout.IPPerServer, Naming: layout.UniqueNames}, N: 19900}))
	text = strings.Replace(text, "http {\n", "http {\n    upstream app { server 127.0.0.1:9000; }\n    server { listen 127.0.0.1:1; location / { proxy_pass http://app; } }\n", 1)
	s, uri, _ := benchDoc(b, text)
	at := strings.Index(text, "http://app") + len("http://a")
	line := strings.Count(text[:at], "\n")
	col := at - strings.LastIndexByte(text[:at], '\n') - 1
	p := &protocol.DefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: protocol.Position{Line: protocol.UInteger(line), Character: protocol.UInteger(col)}}}
	v, _ := s.lintedView(bg, uri)
	b.ReportAllocs()
	for b.Loop() {
		v.symOnce, v.syms = sync.Once{}, nil
		v.symOnce.Do(func() { v.syms = symbols.Build(v.index(v.unit.Config)) })
		res, err := s.definition(bg, p)
		if locs, _ := res.([]protocol.Location); err != nil || len(locs) != 1 {
			b.Fatalf("definition %v %v", res, err)
		}
	}
}

func countSymbols(syms []protocol.DocumentSymbol) int {
	n := len(syms)
	for _, s := range syms {
		n += countSymbols(s.Children)
	}
	return n
}

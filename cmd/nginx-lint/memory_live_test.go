package main

import (
	"runtime"
	"runtime/metrics"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
)

// denseConfig generates n servers of short directives (about 410 bytes
// each), the shape whose tree is largest per byte of text: the memory
// test below and BenchmarkPeakRSS use it.
func denseConfig(n int) []byte {
	return layout.Generate(layout.Options{Layout: layout.Layout{Listen: layout.SharedAddr, Naming: layout.UniqueNames}, N: n,
		HTTP: []string{"upstream app { server 127.0.0.1:9000; }", "server_names_hash_max_size 1048576;", "server_names_hash_bucket_size 128;"},
		Server: func(s *layout.Server) {
			s.Lines = []string{"root /srv/site;", "index index.html;", "location / { try_files $uri $uri/ =404; }",
				"location /api/ { proxy_pass http://app; proxy_set_header X-Real-IP $remote_addr; }",
				`location ~ \.php$ { fastcgi_pass 127.0.0.1:9001; fastcgi_param SCRIPT_FILENAME $document_root$fastcgi_script_name; }`}
		}})
}

// liveHeap is the heap in use after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestLiveHeapPerByte checks what a parsed and linted configuration
// keeps alive, per byte of its text: the parse tree, and the index,
// typed model and facts the rules share. It measures the heap after a
// collection, which does not depend on timing (peak RSS, which does, is
// BenchmarkPeakRSS's). The dense 5 MB configuration keeps 6.25 bytes per
// byte for the tree and 8.06 with the lint's results (it was 7.4 and 11.5
// before the tree's offsets became 32-bit and the index, the model and
// the rules' largest facts shrank; 8.7 before the index entry went to 16
// bytes and the model's location to 64; 8.17 before the regex list went).
// It also checks, with the rules run one after another, the highest
// live heap between two rules (what a rule leaves behind, and the shared
// results built so far: today the end's), and what the rules allocate
// in all: garbage is not live, but the collector counts what is
// allocated while it marks, so a run that allocates much needs a higher
// memory limit (3.0 bytes per byte today, 10.7 before the rules parsed
// each distinct regex once and stopped building lists they only walk).
// The bounds leave room for noise, not for a regression of that size.
func TestLiveHeapPerByte(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and lints a 5 MB configuration")
	}
	base := liveHeap()
	src := denseConfig(12000)
	n := float64(len(src))
	l := &parser.Loader{MaxFileSize: int64(len(src)), Kinds: analyzer.Kinds}
	c := l.LoadSource("/nginx.conf", src, nil)
	src = nil
	tree := float64(liveHeap()-base) / n
	// One worker, so that what is live after each rule does not depend
	// on which rules another worker is running.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	// A collection after each rule costs seconds: the live heap is
	// measured after the rules that allocated more than a hundredth of a
	// byte per byte since the last measure, which can leave more behind.
	var peak uint64
	allocs := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	var measured uint64
	var wrapped []*analyzer.Rule
	for _, r := range rules.All().Rules() {
		w := *r
		w.Run = func(p *analyzer.Pass) {
			r.Run(p)
			if metrics.Read(allocs); allocs[0].Value.Uint64()-measured > uint64(n/100) {
				peak = max(peak, liveHeap()-base)
				metrics.Read(allocs)
				measured = allocs[0].Value.Uint64()
			}
		}
		wrapped = append(wrapped, &w)
	}
	reg, err := analyzer.NewRegistry(wrapped...)
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, res := analyzer.RunResults(c, reg, analyzer.Options{})
	runtime.ReadMemStats(&after)
	// The hook's collections allocate nothing worth counting.
	garbage := float64(after.TotalAlloc-before.TotalAlloc) / n
	all := float64(liveHeap()-base) / n
	runtime.KeepAlive(c)
	runtime.KeepAlive(res)
	t.Logf("%.1f MB: tree %.2f bytes per byte, with the lint's results %.2f, at most %.2f between rules; the rules allocated %.2f",
		n/(1<<20), tree, all, float64(peak)/n, garbage)
	if tree > 7 {
		t.Errorf("the parse tree keeps %.2f bytes per byte of input, want at most 7", tree)
	}
	if all > 8.45 {
		t.Errorf("the parse tree and the lint's results keep %.2f bytes per byte of input, want at most 8.45", all)
	}
	if p := float64(peak) / n; p > 8.45 {
		t.Errorf("the live heap between two rules reached %.2f bytes per byte of input, want at most 8.45", p)
	}
	if garbage > 4.5 {
		t.Errorf("the rules allocated %.2f bytes per byte of input, want at most 4.5", garbage)
	}
}

package main

import (
	"bytes"
	"runtime"
	"runtime/metrics"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
)

// denseConfig generates n servers of short directives (about 430 bytes
// each), the shape whose tree is largest per byte of text: the memory
// test below and BenchmarkPeakRSS use it.
func denseConfig(n int) []byte {
	return layout.Generate(layout.Options{Layout: layout.Layout{Listen: layout.SharedAddr, Naming: layout.UniqueNames}, N: n,
		HTTP: []string{"upstream app { server 127.0.0.1:9000; }", "server_names_hash_max_size 1048576;", "server_names_hash_bucket_size 128;"},
		Server: func(s *layout.Server) {
			s.Lines = []string{"root /srv/site;", "index index.html;", "location / { try_files $uri $uri/ =404; }",
				"location /api/ { proxy_pass http://app; proxy_set_header X-Real-IP $remote_addr; }",
				`location ~ \.php$ { try_files $uri =404; fastcgi_pass 127.0.0.1:9001; fastcgi_param SCRIPT_FILENAME $document_root$fastcgi_script_name; }`}
		}})
}

// typicalConfig generates n servers written the way people write them
// (about 1.1 KB each): a comment, logs, headers, multi-line locations
// with proxy settings. Per byte its parse tree costs what the corpus's
// real-world configurations cost (TestTypicalLikeCorpus), so it stands
// for an ordinary large configuration where denseConfig is the worst.
func typicalConfig(n int) []byte {
	return layout.Generate(layout.Options{Layout: layout.Layout{Listen: layout.SharedAddr, Naming: layout.UniqueNames}, N: n,
		HTTP: []string{"upstream app { server 127.0.0.1:9000; keepalive 16; }", "server_names_hash_max_size 1048576;", "server_names_hash_bucket_size 128;"},
		Server: func(s *layout.Server) {
			s.Lines = []string{
				"# Front end of the application; the API goes to the upstream.",
				"access_log logs/site.access.log combined buffer=32k;",
				"root /var/www/site/public;",
				"index index.html index.htm;",
				"client_max_body_size 16m;",
				"add_header X-Frame-Options SAMEORIGIN always;",
				"add_header X-Content-Type-Options nosniff always;",
				"",
				"location / {",
				"    try_files $uri $uri/ /index.html;",
				"}",
				"",
				"location /api/ {",
				"    proxy_pass http://app;",
				"    proxy_http_version 1.1;",
				`    proxy_set_header Connection "";`,
				"    proxy_set_header Host $host;",
				"    proxy_set_header X-Real-IP $remote_addr;",
				"    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
				"    proxy_read_timeout 60s;",
				"}",
				"",
				`location ~* \.(?:css|js|png|jpg|svg|woff2)$ {`,
				"    expires 30d;",
				"    access_log off;",
				"}",
			}
		}})
}

// typicalFragment is typicalConfig's servers alone, as a file of
// conf.d would hold them: a fragment whose context (http) the linter
// infers by parsing it first.
func typicalFragment(n int) []byte {
	src := typicalConfig(n)
	start := bytes.Index(src, []byte("\n    server {\n"))
	end := bytes.LastIndexByte(src, '}')
	return src[start+1 : end]
}

// liveHeap is the heap in use after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestLiveHeapPerByte checks what a parsed and linted configuration
// keeps alive, per byte of its text: the parse tree, the typed model, and
// the index and facts the rules share. It measures the heap after a
// collection, which does not depend on timing (peak RSS, which does, is
// BenchmarkPeakRSS's). On the dense 5 MB configuration today: the tree
// 3.93 bytes per byte (4.96 with 72-byte directives, 6.25 before words,
// directives and blocks lost the fields the source answers and the line
// index waited for a position to be asked, 7.4 before 32-bit offsets),
// the model 0.38 (1.09), tree and lint results 5.15 (6.18, 8.17, 11.5),
// the highest live heap between two rules run one after another 5.16
// (what a rule leaves behind, and the shared results built so far), and
// what the rules allocate in all 2.8 (10.7 before the rules parsed each
// distinct regex once and stopped building lists they only walk):
// garbage is not live, but the collector counts what is allocated while
// it marks, so a run that allocates much needs more room under its
// memory limit. The bounds leave room for noise, not for a regression of
// eight bytes a directive (0.26 bytes per byte).
func TestLiveHeapPerByte(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and lints a 5 MB configuration")
	}
	base := liveHeap()
	// The loader keeps the buffer it is given as the file's text, so the
	// generator's spare capacity is cut off, as a file read from disk has
	// none.
	src := append([]byte(nil), denseConfig(12000)...)
	n := float64(len(src))
	l := &parser.Loader{MaxFileSize: int64(len(src)), Kinds: analyzer.Kinds}
	c := l.LoadSource("/nginx.conf", src, nil)
	src = nil
	tree := float64(liveHeap()-base) / n
	// The typed model alone, built and dropped: the lint below builds
	// its own.
	m := parser.BuildModel(c)
	model := float64(liveHeap()-base)/n - tree
	runtime.KeepAlive(m)
	m = nil
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
	_, res := lint.Run(c, reg, analyzer.Options{})
	runtime.ReadMemStats(&after)
	// The hook's collections allocate nothing worth counting.
	garbage := float64(after.TotalAlloc-before.TotalAlloc) / n
	all := float64(liveHeap()-base) / n
	runtime.KeepAlive(c)
	runtime.KeepAlive(res)
	t.Logf("%.1f MB: tree %.2f bytes per byte, typed model %.2f, with the lint's results %.2f, at most %.2f between rules; the rules allocated %.2f",
		n/(1<<20), tree, model, all, float64(peak)/n, garbage)
	if tree > 4.15 {
		t.Errorf("the parse tree keeps %.2f bytes per byte of input, want at most 4.15", tree)
	}
	if model > 0.5 {
		t.Errorf("the typed model keeps %.2f bytes per byte of input, want at most 0.5", model)
	}
	if all > 5.4 {
		t.Errorf("the parse tree and the lint's results keep %.2f bytes per byte of input, want at most 5.4", all)
	}
	if p := float64(peak) / n; p > 5.4 {
		t.Errorf("the live heap between two rules reached %.2f bytes per byte of input, want at most 5.4", p)
	}
	if garbage > 3 {
		t.Errorf("the rules allocated %.2f bytes per byte of input, want at most 3", garbage)
	}
}

// TestRaisedLimit checks when the memory limit follows the live heap and
// how far above it goes: it stays while the live heap is more than a tenth
// below it, and then leaves a tenth of room (and 32 MiB for the runtime),
// never falling below the live heap.
func TestRaisedLimit(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct{ live, limit, want int64 }{
		{500 * mib, 1000 * mib, 1000 * mib},
		{900 * mib, 1000 * mib, 1000 * mib},
		{901 * mib, 1000 * mib, 901*mib + 901*mib/10 + 32*mib},
		{2000 * mib, 1000 * mib, 2000*mib + 200*mib + 32*mib},
	} {
		if got := raisedLimit(c.live, c.limit); got != c.want {
			t.Errorf("raisedLimit(%d MiB, %d MiB) = %d, want %d", c.live/mib, c.limit/mib, got, c.want)
		}
		if got := raisedLimit(c.live, c.limit); got <= c.live {
			t.Errorf("raisedLimit(%d MiB, %d MiB) = %d MiB, not above the live heap", c.live/mib, c.limit/mib, got/mib)
		}
	}
}

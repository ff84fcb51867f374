package main

import (
	"runtime"
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
// byte for the tree and 8.2 with the lint's results (it was 7.4 and 11.5
// before the tree's offsets became 32-bit and the index, the model and
// the rules' largest facts shrank; 8.7 before the index entry went to 16
// bytes and the model's location to 64). The typed model alone keeps
// 0.41 (1.09 before its nodes kept only a directive and their links);
// the bounds leave room for noise, not for a regression of that size.
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
	_, res := analyzer.RunResults(c, rules.All(), analyzer.Options{})
	all := float64(liveHeap()-base) / n
	runtime.KeepAlive(c)
	runtime.KeepAlive(res)
	t.Logf("%.1f MB: tree %.2f bytes per byte, typed model %.2f, with the lint's results %.2f", n/(1<<20), tree, model, all)
	if tree > 7 {
		t.Errorf("the parse tree keeps %.2f bytes per byte of input, want at most 7", tree)
	}
	if model > 0.5 {
		t.Errorf("the typed model keeps %.2f bytes per byte of input, want at most 0.5", model)
	}
	if all > 8.6 {
		t.Errorf("the parse tree and the lint's results keep %.2f bytes per byte of input, want at most 8.6", all)
	}
}

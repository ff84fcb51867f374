package lsp

import (
	"path/filepath"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// TestCostHoverText pins the startup-cost part of the hover, word for
// word, on a listen with a socket of its own, one served by a wildcard,
// a names hash that fails and one that fits. It says the cost report's
// terms (report.Estimates, report.ListeningSockets, report.HashNames) and
// counts with plural.Count: "1 compare", "1 bucket", where the hover's
// own plural said "1 compares", "1 buckets".
func TestCostHoverText(t *testing.T) {
	s, c, dir := setup(t, nil)
	text := "worker_processes 2;\nevents {}\nhttp {\n    server_names_hash_bucket_size 32;\n" +
		"    server { listen 127.0.0.1:8080; server_name a-name-much-longer-than-thirty-two-bytes.example; }\n" +
		"    server { listen 127.0.0.2:8080 reuseport; }\n" +
		"    server { listen 127.0.0.1:8080; server_name b.example; }\n" +
		"    server { listen 8081; server_name c.example; }\n" +
		"    server { listen 127.0.0.3:8081; server_name d.example; }\n" +
		"    server { listen 127.0.0.4:8082; server_name e.example; }\n" +
		"    server { listen 127.0.0.4:8082; server_name f.example; }\n}\n"
	uri := open(t, s, c, filepath.Join(dir, "nginx.conf"), text)
	const (
		head  = "**Startup cost** (estimated; `nginx-lint cost` has the details)\n\n"
		whole = "- whole configuration: `nginx -t` ≈ 704 µs, start ≈ 713 µs, reload ≈ 101 ms; 4 listening sockets (5 at start)\n"
	)
	for _, tc := range []struct {
		line, char int
		want       string
	}{
		{4, 25, "- `127.0.0.1:8080`: 2 servers, its own listening socket\n" +
			"- port 8080: 2 addresses; nginx compares each new listen with the addresses before it: 2 compares ≈ 8.56 ns\n"},
		{4, 40, "- names hash of `127.0.0.1:8080`: 2 names: could not build server_names_hash, you should increase server_names_hash_bucket_size: 64 (`server_names_hash_bucket_size 128;` avoids it)\n"},
		{5, 25, "- `127.0.0.2:8080`: 1 server, its own listening socket\n" +
			"- port 8080: 2 addresses; nginx compares each new listen with the addresses before it: 2 compares ≈ 8.56 ns\n"},
		{7, 20, "- `0.0.0.0:8081`: 1 server, its own listening socket\n" +
			"- port 8081: 2 addresses; nginx compares each new listen with the addresses before it: 1 compare ≈ 4.28 ns\n"},
		{8, 20, "- `127.0.0.3:8081`: 1 server, served by the wildcard socket 0.0.0.0:8081\n" +
			"- port 8081: 2 addresses; nginx compares each new listen with the addresses before it: 1 compare ≈ 4.28 ns\n"},
		{9, 45, "- names hash of `127.0.0.4:8082`: 2 names, 1 bucket of 64 bytes: fits\n"},
	} {
		h, err := s.hover(bg, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: uri},
			Position:     protocol.Position{Line: protocol.UInteger(tc.line), Character: protocol.UInteger(tc.char)}}})
		if err != nil || h == nil {
			t.Fatalf("hover %d:%d: %v %v", tc.line, tc.char, h, err)
		}
		v := h.Contents.(protocol.MarkupContent).Value
		if i := strings.Index(v, head); i >= 0 {
			v = v[i:]
		}
		if want := head + tc.want + whole; v != want {
			t.Errorf("hover %d:%d:\n%s\nwant\n%s", tc.line, tc.char, v, want)
		}
	}
}

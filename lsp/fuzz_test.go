package lsp

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/parser"
)

// lockedBuffer collects the log of a session.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func seedFrame(body string) string {
	return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
}

// FuzzMessageLoop feeds arbitrary bytes to the message loop as the
// client's side of the stream. The session must end when the input does,
// write only well-formed frames, and no handler may panic (the loop would
// survive a panic; the fuzzer must still see it). The server reads an
// empty in-memory disk, so an input naming /dev/zero reads nothing.
//
//	go test ./lsp -run '^$' -fuzz FuzzMessageLoop -fuzztime 10m -parallel 1
func FuzzMessageLoop(f *testing.F) {
	init := seedFrame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"file:///ws","capabilities":{},"initializationOptions":{"rules":{"version-disclosure":"off"}}}}`)
	open := seedFrame(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///ws/nginx.conf","languageId":"nginx","version":1,"text":"events {}\nhttp {\n    include x.conf;\n    server {\n        listen 80\n        server_name a;\n        location / { proxy_pass http://$host; }\n    }\n}\n"}}}`)
	change := seedFrame(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///ws/nginx.conf","version":2},"contentChanges":[{"range":{"start":{"line":4,"character":17},"end":{"line":4,"character":17}},"text":";"}]}}`)
	hover := seedFrame(`{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///ws/nginx.conf"},"position":{"line":4,"character":10}}}`)
	complete := seedFrame(`{"jsonrpc":"2.0","id":3,"method":"textDocument/completion","params":{"textDocument":{"uri":"file:///ws/nginx.conf"},"position":{"line":5,"character":8}}}`)
	action := seedFrame(`{"jsonrpc":"2.0","id":4,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"file:///ws/nginx.conf"},"range":{"start":{"line":0,"character":0},"end":{"line":9,"character":0}},"context":{"diagnostics":[]}}}`)
	other := seedFrame(`{"jsonrpc":"2.0","id":"a","method":"textDocument/documentSymbol","params":{"textDocument":{"uri":"file:///ws/nginx.conf"}}}`) +
		seedFrame(`{"jsonrpc":"2.0","id":5,"method":"textDocument/formatting","params":{"textDocument":{"uri":"file:///ws/nginx.conf"},"options":{"tabSize":2,"insertSpaces":true}}}`) +
		seedFrame(`{"jsonrpc":"2.0","id":6,"method":"textDocument/definition","params":{"textDocument":{"uri":"file:///ws/nginx.conf"},"position":{"line":2,"character":14}}}`) +
		seedFrame(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":6}}`)
	// The navigation features, on a configuration with an upstream, a
	// named location and a variable, and the settings changing under them.
	nav := seedFrame(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///ws/n.conf","languageId":"nginx","version":1,"text":"# a\n# b\nhttp {\n    upstream app { server 127.0.0.1:1; }\n    server {\n        set $v \"x\";\n        location / { proxy_pass http://app; try_files $v @f; }\n        location @f { content_by_lua_block {\n ngx.say(1)\n } }\n        include x.conf;\n        add_header X $v \n    }\n}\n"}}}`) +
		seedFrame(`{"jsonrpc":"2.0","id":20,"method":"textDocument/foldingRange","params":{"textDocument":{"uri":"file:///ws/n.conf"}}}`) +
		seedFrame(`{"jsonrpc":"2.0","id":21,"method":"textDocument/documentLink","params":{"textDocument":{"uri":"file:///ws/n.conf"}}}`) +
		seedFrame(`{"jsonrpc":"2.0","id":22,"method":"textDocument/references","params":{"textDocument":{"uri":"file:///ws/n.conf"},"position":{"line":6,"character":41},"context":{"includeDeclaration":true}}}`) +
		seedFrame(`{"jsonrpc":"2.0","id":23,"method":"textDocument/documentHighlight","params":{"textDocument":{"uri":"file:///ws/n.conf"},"position":{"line":5,"character":13}}}`) +
		seedFrame(`{"jsonrpc":"2.0","id":24,"method":"textDocument/prepareRename","params":{"textDocument":{"uri":"file:///ws/n.conf"},"position":{"line":7,"character":19}}}`) +
		seedFrame(`{"jsonrpc":"2.0","id":25,"method":"textDocument/rename","params":{"textDocument":{"uri":"file:///ws/n.conf"},"position":{"line":3,"character":15},"newName":"api"}}`) +
		seedFrame(`{"jsonrpc":"2.0","id":26,"method":"textDocument/signatureHelp","params":{"textDocument":{"uri":"file:///ws/n.conf"},"position":{"line":11,"character":24}}}`) +
		seedFrame(`{"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"nginx-lint":{"rules":{"unknown-directive":"off"}}}}}`) +
		seedFrame(`{"jsonrpc":"2.0","id":27,"method":"textDocument/rename","params":{"textDocument":{"uri":"file:///ws/n.conf"},"position":{"line":5,"character":13},"newName":"$bad name"}}`)
	// The features of issue 30 on that configuration: symbols, tokens,
	// hints from one server on, their resolve, the lens, ranges,
	// declaration, names completed.
	more := seedFrame(`{"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"nginx-lint":{"inlayHints":{"minServers":1}}}}}`) +
		seedFrame(`{"jsonrpc":"2.0","id":30,"method":"workspace/symbol","params":{"query":"ap"}}`) +
		seedFrame(`{"jsonrpc":"2.0","id":31,"method":"textDocument/semanticTokens/full","params":{"textDocument":{"uri":"file:///ws/n.conf"}}}`) +
		seedFrame(`{"jsonrpc":"2.0","id":32,"method":"textDocument/semanticTokens/range","params":{"textDocument":{"uri":"file:///ws/n.conf"},"range":{"start":{"line":5,"character":3},"end":{"line":9,"character":0}}}}`) +
		seedFrame(`{"jsonrpc":"2.0","id":33,"method":"textDocument/inlayHint","params":{"textDocument":{"uri":"file:///ws/n.conf"},"range":{"start":{"line":0,"character":0},"end":{"line":14,"character":0}}}}`) +
		seedFrame(`{"jsonrpc":"2.0","id":34,"method":"inlayHint/resolve","params":{"position":{"line":4,"character":12},"label":"x","data":{"uri":"file:///ws/n.conf","version":1,"offset":36}}}`) +
		seedFrame(`{"jsonrpc":"2.0","id":35,"method":"textDocument/codeLens","params":{"textDocument":{"uri":"file:///ws/n.conf"}}}`) +
		seedFrame(`{"jsonrpc":"2.0","id":36,"method":"textDocument/rangeFormatting","params":{"textDocument":{"uri":"file:///ws/n.conf"},"range":{"start":{"line":5,"character":0},"end":{"line":7,"character":4}},"options":{"tabSize":4,"insertSpaces":true}}}`) +
		seedFrame(`{"jsonrpc":"2.0","id":37,"method":"textDocument/selectionRange","params":{"textDocument":{"uri":"file:///ws/n.conf"},"positions":[{"line":6,"character":41},{"line":99,"character":0}]}}`) +
		seedFrame(`{"jsonrpc":"2.0","id":38,"method":"textDocument/declaration","params":{"textDocument":{"uri":"file:///ws/n.conf"},"position":{"line":11,"character":22}}}`) +
		seedFrame(`{"jsonrpc":"2.0","id":39,"method":"textDocument/completion","params":{"textDocument":{"uri":"file:///ws/n.conf"},"position":{"line":6,"character":42}}}`)
	end := seedFrame(`{"jsonrpc":"2.0","id":9,"method":"shutdown"}`) + seedFrame(`{"jsonrpc":"2.0","method":"exit"}`)
	f.Add(init + nav + more + end)
	f.Add(init + nav + end)
	f.Add(init + open + change + hover + complete + action + other + end)
	f.Add(init + open + "{this is not json" + seedFrame("{this is not json") + hover + end)
	f.Add(hover + init + seedFrame(`{"jsonrpc":"2.0","id":18446744073709551615,"method":"x"}`) + "Content-Length: 5\r\n\r\n{}" + end)
	f.Add(init + open + seedFrame(`{"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":"file:///ws/nginx.conf"}}}`) + hover)
	f.Fuzz(func(t *testing.T, in string) {
		s := New()
		s.Debounce = 0
		s.FS = &parser.Overlay{Files: map[string][]byte{}}
		var out bytes.Buffer
		log := &lockedBuffer{}
		served := make(chan struct{})
		go func() {
			s.Serve(strings.NewReader(in), &out, log)
			close(served)
		}()
		select {
		case <-served:
		case <-time.After(20 * time.Second):
			// A guard against a wedged loop, with the goroutines to
			// show where.
			buf := make([]byte, 1<<20)
			t.Fatalf("the session did not end:\n%s", buf[:runtime.Stack(buf, true)])
		}
		if l := log.String(); strings.Contains(l, "panicked") {
			t.Fatalf("a handler panicked:\n%s", l)
		}
		// Everything written is frames of JSON.
		msgs, done := make(chan []byte), make(chan struct{})
		go func() {
			for {
				select {
				case <-msgs:
				case <-done:
					return
				}
			}
		}()
		var readErr error
		readFrames(t, &out, msgs, func(err error) { readErr = err })
		close(done)
		if readErr != nil && readErr != io.EOF {
			t.Fatalf("output is not protocol: %v", readErr)
		}
	})
}

package lsp

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// TestValueCompletion: values from the schemas, at the argument typed.
func TestValueCompletion(t *testing.T) {
	text := "events {}\n" +
		"http {\n" +
		"    upstream app { server 127.0.0.1:1 ma; }\n" +
		"    server {\n" +
		"        listen 80 def;\n" +
		"        proxy_buffering o\n" +
		"    }\n" +
		"}\n" +
		"stream { server { listen 81 ud; } }\n"
	s, c, dir := setup(t, nil)
	uri := open(t, s, c, filepath.Join(dir, "nginx.conf"), text)
	for _, tc := range []struct {
		what       string
		line, char int
		has, lacks string
		prefix     int // the textEdit's start column
	}{
		{"proxy_buffering o|", 5, 25, "on off", "build", 24},
		{"listen 80 def|", 4, 21, "default_server backlog= ssl", "udp", 18},
		{"upstream server param", 2, 40, "max_fails= backup weight=", "default_server", 38},
		{"stream listen", 8, 30, "udp", "http2", 28},
	} {
		res, err := s.completion(bg, &protocol.CompletionParams{TextDocumentPositionParams: tdpp(uri, tc.line, tc.char)})
		if err != nil {
			t.Fatal(err)
		}
		labels := map[string]bool{}
		for _, it := range res.([]protocol.CompletionItem) {
			labels[it.Label] = true
			te, ok := it.TextEdit.(protocol.TextEdit)
			if !ok || int(te.Range.Start.Character) != tc.prefix || int(te.Range.End.Character) != tc.char {
				t.Errorf("%s: %s's textEdit %+v, want %d-%d", tc.what, it.Label, it.TextEdit, tc.prefix, tc.char)
			}
		}
		for _, w := range strings.Fields(tc.has) {
			if !labels[w] {
				t.Errorf("%s: no %s in %v", tc.what, w, labels)
			}
		}
		for _, w := range strings.Fields(tc.lacks) {
			if labels[w] {
				t.Errorf("%s: offers %s", tc.what, w)
			}
		}
	}
	// After "$": variables, the textEdit from the "$" on.
	text2 := "events {}\nhttp { server { listen 80; return 200 $req; } }\n"
	uri2 := open(t, s, c, filepath.Join(dir, "vars.conf"), text2)
	res, _ := s.completion(bg, &protocol.CompletionParams{TextDocumentPositionParams: tdpp(uri2, 1, 42)})
	found := false
	for _, it := range res.([]protocol.CompletionItem) {
		if it.Label == "$request_uri" {
			te := it.TextEdit.(protocol.TextEdit)
			found = te.Range.Start.Character == 38 && te.NewText == "$request_uri" && *it.FilterText == "$request_uri"
		}
	}
	if !found {
		t.Errorf("no $request_uri item replacing from the $")
	}
	// The configuration's own variables too, as written where they are
	// defined, from its http {} only.
	text3 := "events {}\nstream { map $remote_addr $Pool { default a; } }\n" +
		"http { map $uri $Kind { default page; } server { listen 80; set $who x; return 200 $; } }\n"
	uri3 := open(t, s, c, filepath.Join(dir, "own.conf"), text3)
	res, _ = s.completion(bg, &protocol.CompletionParams{TextDocumentPositionParams: tdpp(uri3, 2, 84)})
	details := map[string]string{}
	for _, it := range res.([]protocol.CompletionItem) {
		if it.Detail != nil {
			details[it.Label] = *it.Detail
		}
	}
	if details["$Kind"] != "defined by map" || details["$who"] != "defined by set" {
		t.Errorf("own variables: $Kind %q, $who %q", details["$Kind"], details["$who"])
	}
	if _, ok := details["$Pool"]; ok {
		t.Errorf("offers $Pool, a variable of stream {}, in http {}")
	}
	if details["$request_uri"] == "" {
		t.Errorf("no built-in variables beside the own ones")
	}
}

// TestValueQuickFixes: a bad value's finding gets a fix per close value.
func TestValueQuickFixes(t *testing.T) {
	text := "events {}\n" +
		"http {\n" +
		"    server_tokens maybe;\n" +
		"    gzip onn;\n" +
		"    server {\n" +
		"        listen 80 defualt_server;\n" +
		"    }\n" +
		"}\n"
	s, c, dir := setup(t, nil)
	uri := open(t, s, c, filepath.Join(dir, "nginx.conf"), text)
	for _, tc := range []struct {
		line, char int
		want       string
	}{
		{2, 20, "build off on"},
		{3, 10, "on"},
		{5, 22, "default_server"},
	} {
		r := protocol.Range{Start: protocol.Position{Line: protocol.UInteger(tc.line), Character: protocol.UInteger(tc.char)}}
		r.End = r.Start
		res, err := s.codeAction(bg, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Range: r})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, a := range res.([]protocol.CodeAction) {
			for _, e := range a.Edit.Changes[uri] {
				if int(e.Range.Start.Line) == tc.line {
					got = append(got, e.NewText)
				}
			}
		}
		sort.Strings(got)
		if strings.Join(got, " ") != tc.want {
			t.Errorf("line %d: fixes %v, want %s", tc.line+1, got, tc.want)
		}
	}
}

// TestMissingSemicolonReachable: the missing-";" finding covers the word
// before the gap, so a cursor on that word (Neovim's cannot go past the
// line's last character) gets the fix.
func TestMissingSemicolonReachable(t *testing.T) {
	text := "events {}\nhttp {\n    server {\n        listen 80\n        server_name a.example;\n    }\n}\n"
	s, c, dir := setup(t, nil)
	uri := open(t, s, c, filepath.Join(dir, "nginx.conf"), text)
	at := protocol.Position{Line: 3, Character: 16} // on the "0" of 80
	res, err := s.codeAction(bg, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Range: protocol.Range{Start: at, End: at}})
	if err != nil {
		t.Fatal(err)
	}
	acts := res.([]protocol.CodeAction)
	if len(acts) != 1 || acts[0].Title != `Insert ";"` {
		t.Fatalf("actions %+v", acts)
	}
	if e := acts[0].Edit.Changes[uri][0]; e.Range.Start.Line != 3 || e.Range.Start.Character != 17 || e.NewText != ";" {
		t.Errorf("edit %+v", e)
	}
}

// TestNumberedCaptureNavigation: definition of $1 is the regex around it;
// hover names the group; rename refuses.
func TestNumberedCaptureNavigation(t *testing.T) {
	text := "events {}\nhttp {\n    server {\n        listen 80;\n        location ~ ^/u/(\\w+)$ { return 200 $1; }\n    }\n}\n"
	s, c, dir := setup(t, nil)
	uri := open(t, s, c, filepath.Join(dir, "nginx.conf"), text)
	res, err := s.definition(bg, &protocol.DefinitionParams{TextDocumentPositionParams: tdpp(uri, 4, 44)})
	locs, _ := res.([]protocol.Location)
	if err != nil || len(locs) != 1 || locs[0].Range.Start.Line != 4 || locs[0].Range.Start.Character != 19 {
		t.Errorf("definition of $1: %+v %v", res, err)
	}
	h, _ := s.hover(bg, &protocol.HoverParams{TextDocumentPositionParams: tdpp(uri, 4, 44)})
	if h == nil || !strings.Contains(h.Contents.(protocol.MarkupContent).Value, "group 1 of the regex of `location ~ ^/u/(\\w+)$`") {
		t.Errorf("hover on $1: %+v", h)
	}
	if _, err := s.rename(bg, &protocol.RenameParams{TextDocumentPositionParams: tdpp(uri, 4, 44), NewName: "x"}); err == nil {
		t.Error("rename of $1 allowed")
	}
}

// TestOutlineBudget: past the budget, the outline keeps the outer levels
// whole and says what it left out.
func TestOutlineBudget(t *testing.T) {
	sym := func(name string, children ...protocol.DocumentSymbol) protocol.DocumentSymbol {
		return protocol.DocumentSymbol{Name: name, Children: children}
	}
	tree := []protocol.DocumentSymbol{
		sym("http", sym("server a", sym("location /1"), sym("location /2")), sym("server b", sym("location /3"))),
		sym("stream", sym("server c")),
	}
	var count func(syms []protocol.DocumentSymbol) []string
	count = func(syms []protocol.DocumentSymbol) (names []string) {
		for _, s := range syms {
			names = append(names, s.Name)
			names = append(names, count(s.Children)...)
		}
		return names
	}
	if got := count(prune(append([]protocol.DocumentSymbol(nil), tree...), 100)); len(got) != 8 {
		t.Errorf("under the budget: %v", got)
	}
	got := prune(tree, 5)
	if names := strings.Join(count(got), ","); names != "http,server a,server b,stream,server c" {
		t.Errorf("budget 5: %s", names)
	}
	if d := got[0].Children[0].Detail; d == nil || !strings.Contains(*d, "2 blocks not listed") {
		t.Errorf("server a's detail %v", d)
	}
	top := prune([]protocol.DocumentSymbol{sym("a"), sym("b"), sym("c")}, 2)
	if len(top) != 3 || !strings.Contains(top[2].Name, "1 more blocks not listed") {
		t.Errorf("top-level cut: %+v", top)
	}
}

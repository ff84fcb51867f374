package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

func tdpp(uri protocol.DocumentUri, line, char int) protocol.TextDocumentPositionParams {
	return protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri},
		Position: protocol.Position{Line: protocol.UInteger(line), Character: protocol.UInteger(char)}}
}

func TestFoldingRange(t *testing.T) {
	s, c, dir := setup(t, nil)
	text := "# one\n# two\n# three\nevents {}\nhttp {\n    server {\n        listen 80; # trailing\n        # lone\n        location / {\n            content_by_lua_block {\n                ngx.say(1)\n            }\n        }\n    }\n    map $a $b { default 1; }\n}\n"
	uri := open(t, s, c, filepath.Join(dir, "nginx.conf"), text)
	got, err := s.foldingRange(bg, &protocol.FoldingRangeParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, r := range got {
		k := ""
		if r.Kind != nil {
			k = " " + *r.Kind
		}
		lines = append(lines, fmt.Sprintf("%d-%d%s", r.StartLine, r.EndLine, k))
	}
	sort.Strings(lines)
	// http 4-15 (to 14), server 5-13, location 8-12, the Lua block 9-11
	// (its body, line 10, alone: ends on the brace's line minus one is
	// the start, so it keeps the brace); the comments 0-2; events and
	// map are one line; "# trailing" and "# lone" are no run.
	want := []string{"0-2 comment", "4-14", "5-12", "8-11", "9-10"}
	if strings.Join(lines, " ") != strings.Join(want, " ") {
		t.Errorf("folding ranges %v, want %v", lines, want)
	}
}

// TestFoldingRangeOnePerLine: blocks opening on one line fold once, as
// the outermost.
func TestFoldingRangeOnePerLine(t *testing.T) {
	s, c, dir := setup(t, nil)
	uri := open(t, s, c, filepath.Join(dir, "a.conf"), "location @f { content_by_lua_block {\n ngx.say(1)\n } }\n")
	got, _ := s.foldingRange(bg, &protocol.FoldingRangeParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
	if len(got) != 1 || got[0].StartLine != 0 || got[0].EndLine != 1 {
		t.Errorf("folding ranges %+v, want one 0-1", got)
	}
}

func TestDocumentLinks(t *testing.T) {
	s, c, dir := setup(t, map[string]string{
		"conf.d/a.conf":  "server { listen 80; }\n",
		"one/only.conf":  "gzip on;\n",
		"two/x.conf":     "gzip on;\n",
		"two/y.conf":     "gzip on;\n",
		"certs/site.crt": "x",
		"htpasswd":       "u:p\n",
	})
	// include-paths maps /etc/nginx to the test directory.
	if err := os.WriteFile(filepath.Join(dir, ".nginx-lint.yaml"), []byte("include-paths:\n  /etc/nginx: "+dir+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	text := "events {}\nhttp {\n    include conf.d/a.conf;\n    include one/*.conf;\n    include two/*.conf;\n    include /etc/nginx/conf.d/a.conf;\n" +
		"    server {\n        ssl_certificate certs/site.crt;\n        ssl_certificate_key certs/missing.key;\n        auth_basic_user_file /etc/nginx/htpasswd;\n        ssl_certificate $x;\n    }\n}\n"
	uri := open(t, s, c, filepath.Join(dir, "nginx.conf"), text)
	got, err := s.documentLink(bg, &protocol.DocumentLinkParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
	if err != nil {
		t.Fatal(err)
	}
	var have []string
	for _, l := range got {
		rel := strings.TrimPrefix(string(*l.Target), string(pathToURI(dir))+"/")
		have = append(have, fmt.Sprintf("%d:%d-%d %s", l.Range.Start.Line, l.Range.Start.Character, l.Range.End.Character, rel))
	}
	want := []string{"2:12-25 conf.d/a.conf", "3:12-22 one/only.conf", "5:12-36 conf.d/a.conf",
		"7:24-38 certs/site.crt", "9:29-48 htpasswd"}
	if strings.Join(have, "\n") != strings.Join(want, "\n") {
		t.Errorf("links:\n%s\nwant:\n%s", strings.Join(have, "\n"), strings.Join(want, "\n"))
	}
}

// TestLinksOfAnIncludedFile: a file that nginx.conf includes resolves its
// relative includes against nginx.conf's prefix, as nginx does, for
// links and for go to definition alike (conf.d/snippets/x.conf does not
// exist; snippets/x.conf does).
func TestLinksOfAnIncludedFile(t *testing.T) {
	site := "server {\n    listen 80;\n    include snippets/x.conf;\n}\n"
	s, c, dir := setup(t, map[string]string{
		"nginx.conf":      "events {}\nhttp {\n    include conf.d/*.conf;\n}\n",
		"snippets/x.conf": "gzip on;\n",
		"conf.d/a.conf":   site,
	})
	uri := open(t, s, c, filepath.Join(dir, "conf.d", "a.conf"), site)
	want := pathToURI(filepath.Join(dir, "snippets", "x.conf"))
	links, err := s.documentLink(bg, &protocol.DocumentLinkParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
	if err != nil || len(links) != 1 || *links[0].Target != want || links[0].Range.Start.Line != 2 {
		t.Errorf("links %+v %v, want one to %s", links, err, want)
	}
	def, err := s.definition(bg, &protocol.DefinitionParams{TextDocumentPositionParams: tdpp(uri, 2, 16)})
	if locs, _ := def.([]protocol.Location); err != nil || len(locs) != 1 || locs[0].URI != want {
		t.Errorf("definition %+v %v, want %s", def, err, want)
	}
}

// refConfig is a configuration over three files with each kind of symbol.
var refConfig = map[string]string{
	"nginx.conf": "events {}\nhttp {\n    upstream app { server 127.0.0.1:9000; }\n    map $uri $backend_pool { default app; }\n    include conf.d/*.conf;\n}\n",
	"conf.d/site.conf": "server {\n    listen 80;\n    set $backend_pool \"x\";\n    location / {\n        proxy_pass http://app/path;\n        try_files $uri @fallback;\n        add_header X-Pool ${backend_pool}-$host;\n    }\n" +
		"    location @fallback { proxy_pass http://app; }\n    error_page 404 @fallback;\n    location /q { return 200 \"$backend_pool\"; }\n}\n",
	"conf.d/other.conf": "server {\n    listen 81;\n    location / { grpc_pass grpc://app; fastcgi_pass app:9000; }\n}\n",
}

func locStrings(dir string, locs []protocol.Location) []string {
	var out []string
	for _, l := range locs {
		rel := strings.TrimPrefix(string(l.URI), string(pathToURI(dir))+"/")
		out = append(out, fmt.Sprintf("%s:%d:%d-%d", rel, l.Range.Start.Line, l.Range.Start.Character, l.Range.End.Character))
	}
	return out
}

func TestReferencesAndHighlight(t *testing.T) {
	s, c, dir := setup(t, refConfig)
	site := filepath.Join(dir, "conf.d", "site.conf")
	uri := open(t, s, c, site, refConfig["conf.d/site.conf"])
	refs := func(line, char int, decl bool) []string {
		t.Helper()
		locs, err := s.references(bg, &protocol.ReferenceParams{TextDocumentPositionParams: tdpp(uri, line, char), Context: protocol.ReferenceContext{IncludeDeclaration: decl}})
		if err != nil {
			t.Fatal(err)
		}
		return locStrings(dir, locs)
	}
	check := func(what string, got, want []string) {
		t.Helper()
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s:\n got %v\nwant %v", what, got, want)
		}
	}
	// From "app" in proxy_pass http://app/path (line 4): the upstream in
	// nginx.conf and every use in both included files; not app:9000.
	upstream := []string{"conf.d/other.conf:2:34-37", "conf.d/site.conf:4:26-29", "conf.d/site.conf:8:43-46", "nginx.conf:2:13-16"}
	check("upstream refs", refs(4, 27, true), upstream)
	check("upstream refs without the declaration", refs(4, 27, false), upstream[:3])
	// From the named location's definition (line 8) and from a use.
	named := []string{"conf.d/site.conf:5:24-32", "conf.d/site.conf:8:14-22", "conf.d/site.conf:9:20-28"}
	check("named location from its definition", refs(8, 16, true), named)
	check("named location from error_page", refs(9, 22, true), named)
	// A variable defined twice (map in nginx.conf, set here), used in
	// ${...} and in a quoted string that is exactly its text.
	vars := []string{"conf.d/site.conf:2:9-21", "conf.d/site.conf:6:28-40", "conf.d/site.conf:10:31-43", "nginx.conf:3:14-26"}
	check("variable refs", refs(6, 30, true), vars)
	check("variable refs from its set", refs(2, 10, false), []string{"conf.d/site.conf:6:28-40", "conf.d/site.conf:10:31-43"})
	// Built-in variables and plain words have no references.
	if got := refs(6, 44, true); got != nil {
		t.Errorf("$host references %v", got)
	}
	if got := refs(1, 5, true); got != nil {
		t.Errorf("listen references %v", got)
	}

	hl, err := s.documentHighlight(bg, &protocol.DocumentHighlightParams{TextDocumentPositionParams: tdpp(uri, 5, 27)})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, h := range hl {
		kinds = append(kinds, fmt.Sprintf("%d:%d/%d", h.Range.Start.Line, h.Range.Start.Character, *h.Kind))
	}
	// Only this document's: the definition is a write (3), uses reads (2).
	if strings.Join(kinds, " ") != "5:24/2 8:14/3 9:20/2" {
		t.Errorf("highlights %v", kinds)
	}
}

// refCase is a references request and the locations it should give
// (locStrings, joined by spaces).
type refCase struct {
	what       string
	line, char int
	want       string
}

// checkRefs asks for the references (declarations included) at each
// case's position in the document at uri.
func checkRefs(t *testing.T, s *Server, uri protocol.DocumentUri, dir string, cases []refCase) {
	t.Helper()
	for _, c := range cases {
		locs, err := s.references(bg, &protocol.ReferenceParams{TextDocumentPositionParams: tdpp(uri, c.line, c.char), Context: protocol.ReferenceContext{IncludeDeclaration: true}})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(locStrings(dir, locs), " "); got != c.want {
			t.Errorf("%s: %s, want %s", c.what, got, c.want)
		}
	}
}

// TestReferencesStreamAndHTTP checks that a variable of stream {} and
// one of http {} with the same name are told apart: each one's references
// stay in its module.
func TestReferencesStreamAndHTTP(t *testing.T) {
	conf := "events {}\n" +
		"http {\n    map $uri $pool { default a; }\n    server { listen 80; return 200 $pool; }\n}\n" +
		"stream {\n    map $remote_addr $pool { default b; }\n    server { listen 81; return $pool; }\n}\n"
	s, c, dir := setup(t, map[string]string{"nginx.conf": conf})
	uri := open(t, s, c, filepath.Join(dir, "nginx.conf"), conf)
	httpRefs, streamRefs := "nginx.conf:2:14-18 nginx.conf:3:36-40", "nginx.conf:6:22-26 nginx.conf:7:32-36"
	checkRefs(t, s, uri, dir, []refCase{
		{"from the http use", 3, 37, httpRefs},
		{"from the http map", 2, 15, httpRefs},
		{"from the stream use", 7, 32, streamRefs},
		{"from the stream map", 6, 23, streamRefs},
	})
}

// TestCaptureVariables checks the variables a regex's named group
// defines: references from a use and from the group's name in the regex
// (a location, a map key, an if condition glued to its ")"), and a
// rename that edits the group and every use.
func TestCaptureVariables(t *testing.T) {
	conf := "events {}\nhttp {\n" +
		"    map $uri $kind { ~^/(?<section>[a-z]+)/ $section; default x; }\n" +
		"    server {\n" +
		"        listen 80;\n" +
		"        location ~ ^/u/(?<user>\\w+)$ { return 200 \"$user $kind\"; }\n" +
		"        if ($uri ~ (?P<user>x)) { return 200 $user; }\n" +
		"    }\n}\n"
	s, c, dir := setup(t, map[string]string{"nginx.conf": conf})
	uri := open(t, s, c, filepath.Join(dir, "nginx.conf"), conf)
	user := "nginx.conf:5:26-30 nginx.conf:5:52-56 nginx.conf:6:23-27 nginx.conf:6:46-50"
	section := "nginx.conf:2:27-34 nginx.conf:2:45-52"
	checkRefs(t, s, uri, dir, []refCase{
		{"from a use of $user", 5, 53, user},
		{"from the location's group", 5, 27, user},
		{"from the if's group", 6, 24, user},
		{"from the map key's group", 2, 28, section},
		{"from its use in the map", 2, 46, section},
	})
	we, err := s.rename(bg, &protocol.RenameParams{TextDocumentPositionParams: tdpp(uri, 5, 27), NewName: "who"})
	if err != nil || we == nil {
		t.Fatalf("rename: %v %v", we, err)
	}
	var got []string
	for _, es := range we.Changes {
		for _, e := range es {
			got = append(got, fmt.Sprintf("%d:%d-%d=%s", e.Range.Start.Line, e.Range.Start.Character, e.Range.End.Character, e.NewText))
		}
	}
	sort.Strings(got)
	if want := "5:26-30=who 5:52-56=who 6:23-27=who 6:46-50=who"; strings.Join(got, " ") != want {
		t.Errorf("rename edits %v, want %s", got, want)
	}
}

func TestRename(t *testing.T) {
	s, c, dir := setup(t, refConfig)
	uri := open(t, s, c, filepath.Join(dir, "conf.d", "site.conf"), refConfig["conf.d/site.conf"])
	rename := func(line, char int, name string) (*protocol.WorkspaceEdit, error) {
		return s.rename(bg, &protocol.RenameParams{TextDocumentPositionParams: tdpp(uri, line, char), NewName: name})
	}
	edits := func(we *protocol.WorkspaceEdit) []string {
		var out []string
		for u, es := range we.Changes {
			for _, e := range es {
				out = append(out, fmt.Sprintf("%s:%d:%d-%d=%s", strings.TrimPrefix(string(u), string(pathToURI(dir))+"/"),
					e.Range.Start.Line, e.Range.Start.Character, e.Range.End.Character, e.NewText))
			}
		}
		sort.Strings(out)
		return out
	}
	we, err := rename(4, 27, "api")
	if err != nil {
		t.Fatal(err)
	}
	want := "conf.d/other.conf:2:34-37=api conf.d/site.conf:4:26-29=api conf.d/site.conf:8:43-46=api nginx.conf:2:13-16=api"
	if got := strings.Join(edits(we), " "); got != want {
		t.Errorf("upstream rename:\n got %s\nwant %s", got, want)
	}
	// "$pool" and "@fb": the sigil typed with the name is not doubled.
	we, err = rename(6, 30, "$pool")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(edits(we), " "); got != "conf.d/site.conf:10:31-43=pool conf.d/site.conf:2:9-21=pool conf.d/site.conf:6:28-40=pool nginx.conf:3:14-26=pool" {
		t.Errorf("variable rename: %s", got)
	}
	we, err = rename(8, 16, "@fb")
	if err != nil || len(edits(we)) != 3 || !strings.HasSuffix(edits(we)[0], "=fb") {
		t.Errorf("named location rename: %v %v", edits(we), err)
	}
	// Refusals: a built-in variable, names that are not names.
	for _, c := range []struct {
		line, char int
		name, why  string
	}{
		{6, 44, "h", "built-in"},
		{6, 30, "a-b", "not a variable name"},
		{4, 27, "two words", "not a valid upstream name"},
		{4, 27, "a;b", "not a valid upstream name"},
		{8, 16, "", "empty"},
	} {
		_, err := rename(c.line, c.char, c.name)
		re, ok := err.(*rpcError)
		if !ok || re.Code != codeInvalidParams || !strings.Contains(re.Message, c.why) {
			t.Errorf("rename at %d:%d to %q: %v, want -32602 %q", c.line, c.char, c.name, err, c.why)
		}
	}
	// Nothing to rename on a plain word: null.
	if we, err := rename(1, 5, "x"); we != nil || err != nil {
		t.Errorf("rename of listen: %v %v", we, err)
	}

	prep := func(line, char int) *protocol.RangeWithPlaceholder {
		r, err := s.prepareRename(bg, &protocol.PrepareRenameParams{TextDocumentPositionParams: tdpp(uri, line, char)})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := prep(6, 30); r == nil || r.Placeholder != "backend_pool" || r.Range.Start.Character != 28 || r.Range.End.Character != 40 {
		t.Errorf("prepareRename on ${backend_pool}: %+v", r)
	}
	if r := prep(6, 44); r != nil {
		t.Errorf("prepareRename on $host: %+v", r)
	}
}

// TestRenameQuoted: a name in a quoted string without escapes is renamed
// in place; one in a string with escapes is listed (the whole string)
// but not renamed, so a rename never leaves a stale copy behind.
func TestRenameQuoted(t *testing.T) {
	s, c, dir := setup(t, nil)
	text := "events {}\nhttp {\n    upstream \"app\" { server 127.0.0.1:1; }\n    server { location / { proxy_pass \"http://app\"; set $v \"a\\\"$v\"; } }\n}\n"
	uri := open(t, s, c, filepath.Join(dir, "nginx.conf"), text)
	we, err := s.rename(bg, &protocol.RenameParams{TextDocumentPositionParams: tdpp(uri, 2, 15), NewName: "api"})
	if err != nil || we == nil {
		t.Fatalf("rename of a quoted upstream: %v %v", we, err)
	}
	var got []string
	for _, e := range we.Changes[uri] {
		got = append(got, fmt.Sprintf("%d:%d-%d", e.Range.Start.Line, e.Range.Start.Character, e.Range.End.Character))
	}
	if strings.Join(got, " ") != "2:14-17 3:45-48" {
		t.Errorf("edits %v, want the names inside the quotes", got)
	}
	// $v is set at 3:55 and used at 3:62 inside "a\"$v".
	locs, _ := s.references(bg, &protocol.ReferenceParams{TextDocumentPositionParams: tdpp(uri, 3, 56), Context: protocol.ReferenceContext{IncludeDeclaration: true}})
	if l := locStrings(dir, locs); strings.Join(l, " ") != "nginx.conf:3:56-57 nginx.conf:3:58-65" {
		t.Errorf("references of $v: %v", l)
	}
	if r, err := s.prepareRename(bg, &protocol.PrepareRenameParams{TextDocumentPositionParams: tdpp(uri, 3, 56)}); r != nil || err != nil {
		t.Errorf("prepareRename of $v: %+v %v", r, err)
	}
	_, err = s.rename(bg, &protocol.RenameParams{TextDocumentPositionParams: tdpp(uri, 3, 56), NewName: "w"})
	if re, ok := err.(*rpcError); !ok || re.Code != codeInvalidParams || !strings.Contains(re.Message, "escapes") {
		t.Errorf("rename of $v: %v", err)
	}
	// On the escaped string itself there is nothing to rename.
	if r, _ := s.prepareRename(bg, &protocol.PrepareRenameParams{TextDocumentPositionParams: tdpp(uri, 3, 63)}); r != nil {
		t.Errorf("prepareRename inside the escaped string: %+v", r)
	}
}

func TestSignatureHelp(t *testing.T) {
	s, c, dir := setup(t, nil)
	text := "events {}\nhttp {\n    server {\n        add_header X-A b \n        listen 80 ssl;\n        return 301 x;\n    }\n}\n"
	uri := open(t, s, c, filepath.Join(dir, "nginx.conf"), text)
	help := func(line, char int) string {
		t.Helper()
		h, err := s.signatureHelp(bg, &protocol.SignatureHelpParams{TextDocumentPositionParams: tdpp(uri, line, char)})
		if err != nil {
			t.Fatal(err)
		}
		if h == nil {
			return "nil"
		}
		var parts []string
		for _, sig := range h.Signatures {
			ap := int(*sig.ActiveParameter)
			label := "-"
			if ap < len(sig.Parameters) {
				span := sig.Parameters[ap].Label.([]protocol.UInteger)
				label = sig.Label[span[0]:span[1]]
			}
			parts = append(parts, label)
		}
		return fmt.Sprintf("%d %s", *h.ActiveSignature, strings.Join(parts, "|"))
	}
	// add_header still being typed: on "b" (value), after it ([always]).
	for _, c := range []struct {
		line, char int
		want       string
	}{
		{3, 21, "0 name"},
		{3, 24, "0 value"},
		{3, 25, "0 [always]"},
		{3, 10, "nil"}, // on the name
		// listen's first parameter is told; after it, the optional
		// parameters cannot be.
		{4, 16, "0 address[:port]|port|unix:path"},
		{4, 19, "0 -|-|-"},
		// return: the second form is the first that can tell "301".
		{5, 15, "0 code|code|URL"},
		{5, 19, "0 [text]|URL|-"},
	} {
		if got := help(c.line, c.char); got != c.want {
			t.Errorf("signature help at %d:%d: %q, want %q", c.line, c.char, got, c.want)
		}
	}
}

func TestSyntaxParams(t *testing.T) {
	for _, c := range []struct{ form, want string }{
		{"gzip on | off;", "on | off"},
		{"location [ = | ~ | ~* | ^~ ] uri { ... }", "[ = | ~ | ~* | ^~ ]?,uri"},
		{"try_files file ... uri;", "file*,uri"},
		{"map string $variable { ... }", "string,$variable"},
		{"server { ... }", ""},
	} {
		params, spans := syntaxParams(c.form)
		var got []string
		for i, sp := range spans {
			p := c.form[sp[0]:sp[1]]
			if params[i].optional {
				p += "?"
			}
			if params[i].repeated {
				p += "*"
			}
			got = append(got, p)
		}
		if strings.Join(got, ",") != c.want {
			t.Errorf("syntaxParams(%q) = %v, want %s", c.form, got, c.want)
		}
	}
}

// TestDidChangeConfiguration: settings sent after initialize apply as
// initializationOptions do, and every open document is linted again.
func TestDidChangeConfiguration(t *testing.T) {
	s, c, dir := setup(t, nil)
	text := "events {}\nhttp {\n    server { listen 80; gzipp on; }\n}\n"
	uri := open(t, s, c, filepath.Join(dir, "nginx.conf"), text)
	codes := func() string {
		var out []string
		for _, d := range c.diags(uri) {
			out = append(out, fmt.Sprint(d.Code.Value))
		}
		return strings.Join(out, " ")
	}
	if got := codes(); got != "NL2001" {
		t.Fatalf("before: %s", got)
	}
	change := func(settings string) error {
		var v any
		if err := json.Unmarshal([]byte(settings), &v); err != nil {
			t.Fatal(err)
		}
		err := s.didChangeConfiguration(c.ctx(), &protocol.DidChangeConfigurationParams{Settings: v})
		s.Settle()
		return err
	}
	if err := change(`{"nginx-lint": {"rules": {"unknown-directive": "off"}, "path": "", "trace": {"server": "off"}}}`); err != nil {
		t.Fatal(err)
	}
	if got := codes(); got != "" {
		t.Errorf("after turning unknown-directive off: %q", got)
	}
	// Other tools' settings, null, and the empty settings Neovim sends
	// after initialize leave ours (maybe from initializationOptions) alone.
	for _, other := range []string{`{"editor": {"tabSize": 2}}`, `null`, `{}`} {
		if err := change(other); err != nil {
			t.Errorf("%s: %v", other, err)
		}
		if got := codes(); got != "" {
			t.Errorf("after %s: %q", other, got)
		}
	}
	// Bad settings are an error and change nothing.
	if err := change(`{"nginx-lint": {"nginxBuild": 5}}`); err == nil {
		t.Errorf("a bad nginxBuild was taken")
	}
	// The section alone at the top, turning the rule back on.
	if err := change(`{"rules": {}}`); err != nil {
		t.Fatal(err)
	}
	if got := codes(); got != "NL2001" {
		t.Errorf("after clearing the rules: %q", got)
	}
}

// TestCertificateDefinition: definition on a certificate's path opens
// its file (relative to the conf prefix) when it exists, nothing when it
// does not; references on it list every directive that names the same
// path.
func TestCertificateDefinition(t *testing.T) {
	s, c, dir := setup(t, map[string]string{"certs/site.crt": "x"})
	text := "events {}\nhttp {\n    server {\n        listen 443 ssl;\n        ssl_certificate certs/site.crt;\n        ssl_certificate_key certs/missing.key;\n    }\n" +
		"    server {\n        listen 8443 ssl;\n        ssl_certificate certs/site.crt;\n    }\n}\n"
	uri := open(t, s, c, filepath.Join(dir, "nginx.conf"), text)
	def, err := s.definition(bg, &protocol.DefinitionParams{TextDocumentPositionParams: tdpp(uri, 4, 30)})
	want := pathToURI(filepath.Join(dir, "certs", "site.crt"))
	if locs, _ := def.([]protocol.Location); err != nil || len(locs) != 1 || locs[0].URI != want {
		t.Errorf("definition on the certificate: %+v %v, want %s", def, err, want)
	}
	def, err = s.definition(bg, &protocol.DefinitionParams{TextDocumentPositionParams: tdpp(uri, 5, 32)})
	if locs, _ := def.([]protocol.Location); err != nil || len(locs) != 0 {
		t.Errorf("definition on a missing key: %+v %v, want none", def, err)
	}
	refs, err := s.references(bg, &protocol.ReferenceParams{TextDocumentPositionParams: tdpp(uri, 4, 30), Context: protocol.ReferenceContext{IncludeDeclaration: true}})
	var lines []int
	for _, r := range refs {
		lines = append(lines, int(r.Range.Start.Line))
	}
	if err != nil || fmt.Sprint(lines) != "[4 9]" {
		t.Errorf("references to certs/site.crt on lines %v %v, want [4 9]", lines, err)
	}
}

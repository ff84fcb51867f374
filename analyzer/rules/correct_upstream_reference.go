package rules

import (
	"slices"
	"strconv"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
)

// UpstreamReference reports an upstream block defined twice, and a
// *_pass that names an upstream block with a port.
var UpstreamReference = &analyzer.Rule{
	Code: "NL2043", Name: "upstream-reference", Title: "upstream defined twice or named with a port", Severity: parser.Error,
	Run: runUpstreamReference,
	Doc: analyzer.Doc{
		Text: "nginx keeps one list of upstreams per protocol: the `upstream` blocks and the implicit " +
			"upstreams that `proxy_pass`, `fastcgi_pass`, `grpc_pass`, ... create for their host " +
			"(`ngx_http_upstream_add`). Two blocks with one name (case-insensitively) fail with " +
			"`duplicate upstream \"x\"`; a `*_pass` that names an upstream block together with a port " +
			"(`proxy_pass http://backend:8080`), whichever comes first, fails with `upstream " +
			"\"backend\" may not have port 8080` at the `*_pass`: the port belongs to the block's " +
			"`server`s.",
		Bad:  "events {}\nhttp {\n    upstream backend {\n        server 127.0.0.1:8080;\n    }\n    server {\n        listen 80;\n        location / {\n            proxy_pass http://backend:8080;\n        }\n    }\n}\n",
		Good: "events {}\nhttp {\n    upstream backend {\n        server 127.0.0.1:8080;\n    }\n    server {\n        listen 80;\n        location / {\n            proxy_pass http://backend;\n        }\n    }\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_upstream_module.html#upstream",
	},
}

// passSchemes are the URL schemes each *_pass accepts, with the port
// nginx assumes without one (0: none).
var passSchemes = map[string]map[string]int{
	"proxy_pass":     {"http://": 80, "https://": 443},
	"grpc_pass":      {"grpc://": 80, "grpcs://": 443, "": 80},
	"uwsgi_pass":     {"uwsgi://": 0, "suwsgi://": 0, "": 0},
	"fastcgi_pass":   {"": 0},
	"scgi_pass":      {"": 0},
	"memcached_pass": {"": 0},
}

// upstreamEntry is one element of nginx's upstream list.
type upstreamEntry struct {
	host   string // lower-cased
	text   string // the host as written
	port   int
	noPort bool
	create bool // an upstream block
	d      *parser.Directive
	word   parser.Word
}

func runUpstreamReference(p *analyzer.Pass) {
	if !wholeConfig(p) {
		return
	}
	ix := p.Index()
	// Each protocol's list, by host: nginx skips the other hosts.
	lists := [2]map[string][]*upstreamEntry{{}, {}}
	names := []string{"upstream", "proxy_pass", "grpc_pass", "uwsgi_pass", "fastcgi_pass", "scgi_pass", "memcached_pass"}
	// nginx adds them in reading order, and the outcome depends on it.
	var order []int32
	for _, n := range names {
		order = append(order, ix.Named(n)...)
	}
	slices.Sort(order)
	for _, i := range order {
		e := &ix.Entries[i]
		d := e.Directive
		if e.Context == 0 || len(d.Args) == 0 {
			continue
		}
		ns := nsHTTP
		if e.Context&streamCtx != 0 {
			ns = nsStream
		}
		var u upstreamEntry
		if d.Is("upstream") {
			if d.Block == nil || strings.ContainsAny(d.Args[0].Value, ":/[") {
				continue
			}
			u = upstreamEntry{host: strings.ToLower(d.Args[0].Value), text: d.Args[0].Value, noPort: true, create: true, d: d, word: d.Args[0]}
		} else {
			var ok bool
			if u, ok = passUpstream(d, ns); !ok {
				continue
			}
		}
		lists[ns][u.host] = addUpstream(p, lists[ns][u.host], &u)
	}
}

// addUpstream follows ngx_http_upstream_add (ngx_stream_upstream_add is
// the same) on the entries of u's host and returns them with u added
// when nginx adds it.
func addUpstream(p *analyzer.Pass, list []*upstreamEntry, u *upstreamEntry) []*upstreamEntry {
	for _, x := range list {
		if x.host != u.host {
			continue
		}
		switch {
		case u.create && x.create:
			diag := p.Reportf(u.d.File, u.word.Range, "duplicate upstream %q", u.d.Args[0].Value)
			diag.Detail = "another upstream block has this name (names are case-insensitive); rename or merge them"
			diag.Related = []parser.Related{{File: x.d.File, Range: x.word.Range, Message: "first defined here"}}
			return list
		case x.create && !u.noPort:
			diag := p.Reportf(u.d.File, u.word.Range, "upstream %q may not have port %d", u.text, u.port)
			diag.Detail = "it names the upstream block " + x.d.Args[0].Value + ", whose servers carry the ports: drop the port"
			diag.Related = []parser.Related{{File: x.d.File, Range: x.word.Range, Message: "the upstream block"}}
			return list
		case u.create && !x.noPort:
			diag := p.Reportf(x.d.File, x.word.Range, "upstream %q may not have port %d", u.d.Args[0].Value, x.port)
			diag.Detail = "it names the upstream block " + u.d.Args[0].Value + ", whose servers carry the ports: drop the port"
			diag.Related = []parser.Related{{File: u.d.File, Range: u.word.Range, Message: "the upstream block"}}
			// nginx stops here; go on as if the block were defined, so
			// that one mistake is reported once.
			x.create, x.port, x.noPort, x.d, x.word = true, 0, true, u.d, u.word
			return list
		case x.port != 0 && u.port != 0 && x.port != u.port:
			continue
		}
		if u.create {
			x.create, x.port = true, 0
		}
		return list
	}
	return append(list, u)
}

// passUpstream reads the host and port of a *_pass without variables,
// as ngx_parse_url would; ok is false for what it cannot judge (unix
// sockets, IPv6 literals, malformed URLs another rule reports).
func passUpstream(d *parser.Directive, ns varNamespace) (upstreamEntry, bool) {
	w := d.Args[0]
	v := w.Value
	if strings.Contains(v, "$") || len(d.Args) != 1 {
		return upstreamEntry{}, false
	}
	schemes := passSchemes[d.Name.Value]
	if ns == nsStream {
		if !d.Is("proxy_pass") {
			return upstreamEntry{}, false
		}
		schemes = map[string]int{"": 0}
	}
	def, found := -1, ""
	for s, port := range schemes {
		if s != "" && len(v) >= len(s) && strings.EqualFold(v[:len(s)], s) && len(s) > len(found) {
			def, found = port, s
		}
	}
	if def < 0 {
		p, ok := schemes[""]
		if !ok {
			return upstreamEntry{}, false
		}
		def = p
	}
	rest := v[len(found):]
	if i := strings.IndexAny(rest, "/?"); i >= 0 {
		rest = rest[:i]
	}
	if rest == "" || strings.HasPrefix(strings.ToLower(rest), "unix:") || strings.HasPrefix(rest, "[") {
		return upstreamEntry{}, false
	}
	u := upstreamEntry{host: strings.ToLower(rest), text: rest, port: def, noPort: true, d: d, word: w}
	if h, port, ok := strings.Cut(rest, ":"); ok {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 || h == "" {
			return upstreamEntry{}, false
		}
		u.host, u.text, u.port, u.noPort = strings.ToLower(h), h, n, false
	}
	return u, true
}

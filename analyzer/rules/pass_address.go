package rules

import (
	"strconv"
	"strings"

	"github.com/nginx-lint/nginx-lint/parser"
)

// Reading the address of a *_pass as ngx_parse_url does, for the rules
// that look at the host it names (host-not-found).

// passDefaultPorts are the URL schemes each *_pass accepts, with the port
// nginx assumes without one (0: none).
var passDefaultPorts = map[string]map[string]int{
	"proxy_pass":     {"http://": 80, "https://": 443},
	"grpc_pass":      {"grpc://": 80, "grpcs://": 443, "": 80},
	"uwsgi_pass":     {"uwsgi://": 0, "suwsgi://": 0, "": 0},
	"fastcgi_pass":   {"": 0},
	"scgi_pass":      {"": 0},
	"memcached_pass": {"": 0},
}

// upstreamEntry is the address a *_pass names.
type upstreamEntry struct {
	host   string // lower-cased
	text   string // the host as written
	port   int
	noPort bool
	d      *parser.Directive
	word   parser.Word
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
	schemes := passDefaultPorts[d.Name.Value]
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

package rules

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/internal/ngxparse"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// InvalidEntry reports entries of map, geo and split_clients blocks that
// nginx refuses.
var InvalidEntry = &analyzer.Rule{
	Code: "NL2020", Name: "invalid-entry", Title: "map, geo or split_clients entry nginx refuses", Severity: parser.Error,
	Refuses: true,
	Run:     runInvalidEntry,
	Doc: analyzer.Doc{
		Text: "The lines of `map`, `geo` and `split_clients` blocks are not directives but entries, " +
			"which each module reads its own way (http and stream alike):\n\n" +
			"- `geo`: an entry is a network and a value, `192.168.0.0/16 1;` (`invalid network`), " +
			"or with `ranges` an address range, `192.168.0.1-192.168.0.255 1;` (`invalid range`: a " +
			"CIDR network is not a range); `ranges` must come first; an entry with other than two " +
			"words is `invalid number of the geo parameters`;\n" +
			"- `map`: an entry is a source value and a result (`invalid number of the map " +
			"parameters`: quote values with spaces), there is one `default`, and a source value " +
			"appears once, compared without case (`conflicting parameter \"a\"`; the wildcards of " +
			"a `hostnames` map are not compared);\n" +
			"- `split_clients`: each percentage is a number with up to two decimals and a `%` " +
			"(`invalid percent value`), greater than 0, and they may not add up to more than 100% " +
			"(`percent total is greater than 100%`);\n" +
			"- `charset_map`: two different charsets, `utf-8` only in the second column (1.31.3); each " +
			"entry a byte in hex, then towards `utf-8` the UTF-8 bytes in hex of one character up to " +
			"U+FFFF, not ASCII (at most three bytes since 1.27.5), else one byte in hex " +
			"(`invalid value`, `invalid parameters number`).",
		Bad: "events {}\nhttp {\n    geo $internal {\n        ranges;\n        default 0;\n        10.0.0.0/8 1;\n    }\n" +
			"    split_clients $remote_addr $variant {\n        60% a;\n        50% b;\n    }\n}\n",
		Good: "events {}\nhttp {\n    geo $internal {\n        default 0;\n        10.0.0.0/8 1;\n    }\n" +
			"    split_clients $remote_addr $variant {\n        50% a;\n        *   b;\n    }\n}\n",
		URL: "https://nginx.org/en/docs/http/ngx_http_geo_module.html",
	},
}

func runInvalidEntry(p *analyzer.Pass) {
	target := p.Target
	p.WalkNamed(func(d *parser.Directive, ctx directives.Context, _ []*parser.Directive) {
		if ctx&(directives.HTTP|directives.Stream) == 0 || d.Block == nil {
			return
		}
		entries := p.Body(d)
		switch d.Name().Value {
		case "geo":
			// volatile arrived in geo in 1.29.3.
			// The stream geo has no proxy entries (no X-Forwarded-For).
			checkGeo(p, entries, !target.Lacks("1.29.3"), ctx&directives.HTTP != 0)
		case "map":
			checkMap(p, entries)
		case "charset_map":
			checkCharsetMap(p, d, entries)
		case "split_clients":
			checkSplitClients(p, d, entries)
		}
	}, "geo", "map", "split_clients", "charset_map")
}

func checkGeo(p *analyzer.Pass, entries []*parser.Directive, volatile, proxies bool) {
	ranges, tree := false, false
	for _, e := range entries {
		name := e.Name().Value
		if len(e.Args()) == 0 {
			switch name {
			case "ranges":
				if tree {
					p.ReportDirective(e, "the \"ranges\" directive must be the first directive inside \"geo\" block")
				}
				ranges = true
				continue
			case "proxy_recursive":
				if proxies {
					continue
				}
			case "volatile":
				if volatile {
					continue
				}
			}
		}
		if len(e.Args()) != 1 {
			p.ReportDirective(e, "invalid number of the geo parameters").Detail =
				"a geo entry is a network (or a range, with ranges) and a value; quote a value with spaces"
			continue
		}
		net := e.Name()
		if name == "proxy" && !proxies {
			name = "" // an ordinary entry for the network "proxy"
		}
		switch name {
		case "include":
			continue
		case "proxy":
			net = e.Args()[0]
		case "default":
			tree = true
			continue
		case "delete":
			net = e.Args()[0]
		}
		isProxy := name == "proxy"
		if !isProxy {
			tree = true
		}
		if ranges && !isProxy {
			if !geoRange(net.Value) {
				p.Reportf(e.File, net.Range, "invalid range \"%s\"", net.Value).Detail =
					"with ranges, an entry is FIRST-LAST (192.168.0.0-192.168.255.255), IPv4 only; drop ranges to use CIDR networks"
			}
			continue
		}
		if !geoCIDR(net.Value) {
			p.Reportf(e.File, net.Range, "invalid network \"%s\"", net.Value).Detail =
				"a geo entry starts with an address or a network (192.168.0.0/16, 2001:db8::/32), or default, delete, include, proxy"
		}
	}
}

// geoRange follows ngx_http_geo_range: FIRST-LAST of IPv4 addresses.
func geoRange(s string) bool {
	first, last, ok := strings.Cut(s, "-")
	if !ok {
		return false
	}
	a, ok1 := ngxparse.InetAddr(first)
	b, ok2 := ngxparse.InetAddr(last)
	return ok1 && ok2 && bytes.Compare(a[:], b[:]) <= 0
}

// geoCIDR follows ngx_http_geo_cidr_value and ngx_ptocidr.
func geoCIDR(s string) bool {
	if s == "255.255.255.255" {
		return true
	}
	addr, mask, hasMask := strings.Cut(s, "/")
	bits := 32
	if _, ok := ngxparse.InetAddr(addr); !ok {
		if _, ok := ngxparse.Inet6Addr(addr); !ok {
			return false
		}
		bits = 128
	}
	if !hasMask {
		return true
	}
	n, ok := grammar.Atoi(mask)
	return ok && n <= bits
}

func checkMap(p *analyzer.Pass, entries []*parser.Directive) {
	var dflt *parser.Directive
	// keys are the exact source values so far, lower-cased as
	// ngx_hash_add_key stores them; with hostnames, wildcards make the
	// comparison nginx's hash business, and it is not replayed.
	keys := map[string]*parser.Directive{}
	hostnames := false
	for _, e := range entries {
		if len(e.Args()) == 0 && (e.Name().Value == "hostnames" || e.Name().Value == "volatile") {
			hostnames = hostnames || e.Name().Value == "hostnames"
			continue
		}
		if len(e.Args()) != 1 {
			p.ReportDirective(e, "invalid number of the map parameters").Detail =
				"a map entry is a source value and a result; quote a value with spaces"
			continue
		}
		if e.Name().Value == "default" {
			if dflt != nil {
				d := p.ReportDirective(e, "duplicate default map parameter")
				d.Related = []parser.Related{{File: dflt.File, Range: dflt.Name().Range, Message: "first default"}}
				continue
			}
			dflt = e
			continue
		}
		key := e.Name().Value
		if hostnames || e.Name().Value == "include" || strings.HasPrefix(key, "~") {
			continue
		}
		key = asciiLower(strings.TrimPrefix(key, "\\"))
		if first := keys[key]; first != nil {
			d := p.ReportDirective(e, "conflicting parameter \"%s\"", key)
			d.Detail = "the map already has this source value (keys are compared without case); remove one of the two"
			d.Related = []parser.Related{{File: first.File, Range: first.Name().Range, Message: "first given here"}}
			continue
		}
		keys[key] = e
	}
}

func checkSplitClients(p *analyzer.Pass, d *parser.Directive, entries []*parser.Directive) {
	sum := 0
	over := false
	for _, e := range entries {
		v := e.Name().Value
		pct := 0
		if v != "*" {
			n, ok := percent(v)
			if !ok {
				p.Reportf(e.File, e.Name().Range, "invalid percent value \"%s\"", v).Detail =
					"a split_clients entry is a percentage with up to two decimals (12.5%) or *, and a value"
				return
			}
			pct = n
		}
		if pct == 0 {
			sum = 10000
		} else {
			sum += pct
		}
		over = over || sum > 10000
	}
	if over && d.RBrace() >= 0 {
		p.Reportf(d.File, parser.Range{Start: d.RBrace(), End: d.RBrace() + 1}, "percent total is greater than 100%%").Detail =
			"the percentages of split_clients (a * counts as the rest) add up to more than 100%"
	}
}

// percent is ngx_atofp(s without "%", 2): the percentage in hundredths,
// refusing 0.
func percent(s string) (int, bool) {
	if !strings.HasSuffix(s, "%") {
		return 0, false
	}
	s = s[:len(s)-1]
	if s == "" {
		return 0, false
	}
	value, point, dot := 0, 2, false
	for i := 0; i < len(s); i++ {
		if point == 0 {
			return 0, false
		}
		c := s[i]
		if c == '.' {
			if dot {
				return 0, false
			}
			dot = true
			continue
		}
		if c < '0' || c > '9' || value > 1e15 {
			return 0, false
		}
		value = value*10 + int(c-'0')
		if dot {
			point--
		}
	}
	for ; point > 0; point-- {
		value *= 10
	}
	return value, value != 0
}

// asciiLower is ngx_tolower over a string: ASCII letters only.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// checkCharsetMap follows ngx_http_charset_map_block and ngx_http_charset_map:
// the two charsets differ, utf-8 only in the second column (1.31.3), and
// each entry is a byte in hex and, towards utf-8, the UTF-8 bytes of one
// character (at most three of them since 1.27.5, a character up to U+FFFF,
// never ASCII), else one byte in hex.
func checkCharsetMap(p *analyzer.Pass, d *parser.Directive, entries []*parser.Directive) {
	if len(d.Args()) != 2 {
		return
	}
	from, to := d.Args()[0].Value, d.Args()[1].Value
	if strings.EqualFold(from, to) {
		p.ReportDirective(d, "\"charset_map\" between the same charsets \"%s\" and \"%s\"", from, to)
		return
	}
	if strings.EqualFold(from, "utf-8") && !p.Target.Lacks("1.31.3") {
		p.ReportDirective(d, "\"charset_map\" with \"utf-8\" charset should be given in the second column")
		return
	}
	utf8 := strings.EqualFold(to, "utf-8")
	for _, e := range entries {
		if len(e.Args()) != 1 {
			p.ReportDirective(e, "invalid parameters number")
			continue
		}
		if n, ok := hexByte(e.Name().Value); !ok || n > 255 {
			p.ReportDirective(e, "invalid value \"%s\"", e.Name().Value)
			continue
		}
		v := e.Args()[0]
		bad := func() {
			p.Reportf(e.File, v.Range, "invalid value \"%s\"", v.Value).Detail =
				"the entry maps a byte of " + from + " (in hex) to " + to + ": " + map[bool]string{
					true:  "the UTF-8 bytes of one character, in hex (C1 D0B0)",
					false: "one byte, in hex (C1 E1)"}[utf8]
		}
		if !utf8 {
			if n, ok := hexByte(v.Value); !ok || n > 255 {
				bad()
			}
			continue
		}
		if v.Value == "" {
			continue // nginx reads what an earlier entry left: not judged
		}
		if len(v.Value)/2 > 3 && !p.Target.Lacks("1.27.5") || len(v.Value)%2 != 0 {
			bad()
			continue
		}
		var buf []byte
		for i := 0; i < len(v.Value); i += 2 {
			n, ok := hexByte(v.Value[i : i+2])
			if !ok {
				break
			}
			buf = append(buf, byte(n))
		}
		if len(buf)*2 != len(v.Value) || ngxUTF8Decode(buf) > 0xffff {
			bad()
		}
	}
}

// hexByte is ngx_hextoi on a short string: false for an empty or non-hex
// one, the value (possibly over 255) otherwise.
func hexByte(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	s = strings.TrimLeft(s, "0")
	if s == "" {
		return 0, true
	}
	if len(s) > 8 {
		return 0, false // past any byte, whatever it is
	}
	n, err := strconv.ParseUint(s, 16, 32)
	return int(n), err == nil
}

// ngxUTF8Decode is ngx_utf8_decode over the whole of b: the character its
// first bytes encode, or 0xffffffff for what it refuses (ASCII too, which
// it never expects), 0xfffffffe when b is too short.
func ngxUTF8Decode(b []byte) uint32 {
	u := uint32(b[0])
	var valid uint32
	var n int
	switch {
	case u >= 0xf8:
		return 0xffffffff
	case u >= 0xf0:
		u, valid, n = u&0x07, 0xffff, 3
	case u >= 0xe0:
		u, valid, n = u&0x0f, 0x7ff, 2
	case u >= 0xc2:
		u, valid, n = u&0x1f, 0x7f, 1
	default:
		return 0xffffffff
	}
	if len(b)-1 < n {
		return 0xfffffffe
	}
	for _, c := range b[1 : 1+n] {
		if c < 0x80 {
			return 0xffffffff
		}
		u = u<<6 | uint32(c&0x3f)
	}
	if u > valid {
		return u
	}
	return 0xffffffff
}

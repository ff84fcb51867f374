package rules

import (
	"slices"
	"strconv"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/script"
	"github.com/nginx-lint/nginx-lint/analyzer/symbols"
	"github.com/nginx-lint/nginx-lint/analyzer/taint"
	"github.com/nginx-lint/nginx-lint/internal/ipaddr"
	"github.com/nginx-lint/nginx-lint/internal/ngxparse"
	"github.com/nginx-lint/nginx-lint/parser"
)

// StaleDNSCache reports upstream host names that nginx resolves only once,
// at startup, and variable upstreams that no resolver can resolve.
var StaleDNSCache = &analyzer.Rule{
	Code: "NL3019", Name: "stale-dns-cache", Title: "upstream host name resolved only at startup", Severity: parser.Warning,
	Run: runStaleDNSCache,
	Doc: analyzer.Doc{
		Text: "A host name in a fixed `proxy_pass` (or `fastcgi_pass`, `grpc_pass`, ...) URL, or in " +
			"a `server` of an `upstream` block, is resolved once when nginx reads its configuration, " +
			"and nginx connects to those addresses until the next reload, whatever the name's TTL. " +
			"Cloud load balancers, PaaS endpoints and containers change addresses, and an old " +
			"address may by then belong to someone else, who receives the proxied requests with " +
			"their cookies and credentials. To follow DNS, put the name in a variable and define a " +
			"`resolver` (nginx then resolves it per request, honouring the TTL or `valid=`), or give " +
			"the upstream server the `resolve` parameter (nginx 1.27.3 or newer; the upstream needs a " +
			"`zone`). (A `proxy_pass` URL with variables sends its own URI part as written, in place " +
			"of the request's: leave the path out to pass the client's URI unchanged.) The reverse mistake is reported too: a URL with variables whose host is not an " +
			"upstream is resolved at request time, and without a `resolver` every request fails with " +
			"502; `server ... resolve` without a resolver stops nginx from starting. IP addresses, " +
			"unix sockets and `localhost` are not reported; a host taken from a variable is judged " +
			"only when its `set` or `map` values are known.",
		Bad: "events {}\nhttp {\n    server {\n        listen 80;\n        location / {\n" +
			"            proxy_pass https://api.example.com;\n        }\n    }\n}\n",
		Good: "events {}\nhttp {\n    resolver 127.0.0.53 valid=30s;\n    server {\n        listen 80;\n        location / {\n" +
			"            set $api api.example.com;\n            proxy_pass https://$api;\n        }\n    }\n}\n",
		URL: "https://nginx.org/en/docs/http/ngx_http_upstream_module.html#resolve",
	},
}

// dnsTarget is where a pass directive or an upstream server connects.
type dnsTarget struct {
	host, port string
	// static: nginx resolves the host at startup (no variables); an IP,
	// a unix socket or localhost has an empty host.
	static bool
}

// passTarget reads where the *_pass called name (in stream or http)
// connects with argument arg, as its handler reads it
// (ngxparse.ParsePass): a URL with variables is not static, and a host
// is lower-case and empty for addresses that need no DNS (IP literals,
// unix sockets, localhost) and where the handler reads no host.
func passTarget(name string, stream bool, arg string) dnsTarget {
	pp, ok := ngxparse.ParsePass(name, stream, arg)
	if !ok {
		return dnsTarget{static: true}
	}
	t := dnsTarget{static: !pp.Vars}
	if pp.Vars || pp.BadPrefix || pp.Unix || pp.Addr {
		return t
	}
	// An address nginx refuses (a port out of range) still names its
	// host: the lint drops this rule's finding beside the refusal,
	// unless the refusal is ignored.
	t.host = dnsName(pp.Host)
	if pp.Port != 0 {
		t.port = strconv.Itoa(pp.Port)
	}
	return t
}

// serverHost reads the host of an upstream block's server as
// ngx_http_upstream_server hands it to ngx_parse_url (no URI part), as
// dnsName gives it.
func serverHost(arg string) string {
	u := ngxparse.ParseURL(arg, false, 0)
	if u.Err != "" || u.Unix || u.Addr {
		return ""
	}
	return dnsName(u.Host)
}

// dnsName is host lower-case without its final dot, "" when nginx
// connects to it without asking DNS.
func dnsName(host string) string {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if noDNS(host) {
		return ""
	}
	return host
}

// noDNS reports whether nginx connects to host without asking DNS (or
// with an answer that never changes).
func noDNS(host string) bool {
	if _, ok := ipaddr.Parse(host); ok {
		return true
	}
	return host == "" || host == "localhost" || host == "ip6-localhost" || strings.HasSuffix(host, ".localhost")
}

// upstreamKey names an upstream block: http and stream have their own.
type upstreamKey struct {
	stream bool
	name   string
}

// dnsIndex is what the rule collects from the shared index before it
// judges the pass directives.
type dnsIndex struct {
	p  *analyzer.Pass
	ix *analyzer.Index
	// resolverIn holds the entries of blocks with a resolver; -1 is the
	// top level.
	resolverIn map[int32]bool
	// implicit holds "host:port" of fixed pass URLs: nginx makes an
	// upstream of each, which a variable URL with that host and port uses
	// instead of the resolver.
	implicit map[upstreamKey]bool
	// defs holds, per variable, its "set" entries by scope (setScope)
	// and its maps, from the symbol table's definitions, made on the
	// variable's first lookup: a lookup then costs the depth of the
	// directive, not the number of servers.
	defs map[symbols.Symbol]*varDefs
}

// varDefs are the set and map directives that define a variable.
type varDefs struct {
	sets map[int32][]int32
	maps []int32
}

func runStaleDNSCache(p *analyzer.Pass) {
	ix := p.Index()
	dx := &dnsIndex{p: p, ix: ix, resolverIn: map[int32]bool{}, implicit: map[upstreamKey]bool{}}
	for _, i := range ix.Named("resolver") {
		dx.resolverIn[ix.Entries[i].Parent] = true
	}
	passes := ix.Named(directives.PassDirectives()...)
	for _, i := range passes {
		e := &ix.Entries[i]
		if len(e.Directive.Args()) == 0 {
			continue
		}
		if t := passTarget(e.Directive.Name().Value, dx.inStream(i), e.Directive.Args()[0].Value); t.static && t.host != "" {
			dx.implicit[upstreamKey{dx.inStream(i), t.host + ":" + t.port}] = true
		}
	}
	dx.checkUpstreamServers(p)
	for _, i := range passes {
		dx.checkPass(p, i)
	}
}

// inStream reports whether entry i is inside a stream block.
func (dx *dnsIndex) inStream(i int32) bool {
	for ; i >= 0; i = dx.ix.Entries[i].Parent {
		if dx.ix.Entries[i].Context()&(directives.Stream|directives.StreamServer|directives.StreamUpstream) != 0 {
			return true
		}
	}
	return false
}

// hasResolver reports whether a resolver applies to entry i: one in an
// enclosing block or at the top level.
func (dx *dnsIndex) hasResolver(i int32) bool {
	if dx.resolverIn[-1] {
		return true
	}
	for p := dx.ix.Entries[i].Parent; p >= 0; p = dx.ix.Entries[p].Parent {
		if dx.resolverIn[p] {
			return true
		}
	}
	return false
}

// checkUpstreamServers reports the servers of upstream blocks that name
// a host without "resolve", and "resolve" without a resolver.
func (dx *dnsIndex) checkUpstreamServers(p *analyzer.Pass) {
	ix := dx.ix
	for _, i := range ix.Named("server") {
		e := &ix.Entries[i]
		if e.Context()&(directives.Upstream|directives.StreamUpstream) == 0 || len(e.Directive.Args()) == 0 {
			continue
		}
		d := e.Directive
		resolve := false
		for _, a := range d.Args()[1:] {
			resolve = resolve || a.Value == "resolve"
		}
		switch host := serverHost(d.Args()[0].Value); {
		case host == "":
		case resolve && !dx.hasResolver(i):
			diag := p.Reportf(d.File, d.Args()[0].Range, "upstream server %q has \"resolve\" but no resolver applies to it: nginx does not start", d.Args()[0].Value)
			diag.Detail = "nginx 1.27.3 and newer refuse \"resolve\" without a resolver; add \"resolver ADDRESS valid=30s;\" to the upstream or the http block"
			if diag.Severity == p.Rule.Severity {
				// A configuration nginx refuses is an error, unless the
				// user chose a severity for the rule.
				diag.Severity = parser.Error
			}
		case !resolve:
			diag := p.Reportf(d.File, d.Args()[0].Range, "upstream server %q is resolved only at startup: nginx keeps its old addresses when DNS changes", d.Args()[0].Value)
			diag.Detail = "add the \"resolve\" parameter (nginx 1.27.3 or newer; the upstream needs a zone and a resolver), " +
				"or proxy to the name through a variable with a resolver"
		}
	}
}

// checkPass judges the pass directive at entry i.
func (dx *dnsIndex) checkPass(p *analyzer.Pass, i int32) {
	d := dx.ix.Entries[i].Directive
	if len(d.Args()) == 0 {
		return
	}
	arg := d.Args()[0]
	stream := dx.inStream(i)
	t := passTarget(d.Name().Value, stream, arg.Value)
	if t.static {
		if t.host == "" {
			return
		}
		if symbols.Of(p).Defined(symbols.UpstreamSymbol(t.host, stream)) {
			return // its servers are checked where they are declared
		}
		if !strings.Contains(t.host, ".") && !p.WholeConfig() {
			// A bare name in a part of a configuration (a site file
			// linted without its nginx.conf) is almost always an
			// upstream declared in another file.
			return
		}
		diag := p.Reportf(d.File, arg.Range, "%q host %q is resolved only at startup: nginx keeps its old addresses when DNS changes", d.Name().Value, t.host)
		diag.Detail = "an address that changes may then belong to someone else; put the host in a variable and add a resolver " +
			"(nginx then resolves it per request), or use an upstream with \"server " + t.host + " resolve;\" (nginx 1.27.3 or newer)"
		return
	}
	// Variables: nginx builds the URL per request, then looks its host up
	// among the upstreams and asks the resolver for anything else.
	for _, url := range dx.hostCandidates(d.Name().Value, stream, arg.Value, i) {
		h := passTarget(d.Name().Value, stream, url)
		if h.host == "" || dx.hasResolver(i) {
			continue
		}
		if symbols.Of(p).Defined(symbols.UpstreamSymbol(h.host, stream)) {
			continue
		}
		if dx.implicit[upstreamKey{stream, h.host + ":" + h.port}] {
			continue
		}
		diag := p.Reportf(d.File, arg.Range, "%q resolves %q per request, but no resolver is defined: every request fails with 502", d.Name().Value, h.host)
		diag.Detail = "a URL with variables is resolved at request time unless its host names an upstream block; " +
			"add \"resolver ADDRESS valid=30s;\" to the http, server or location block"
		return
	}
}

// hostCandidates returns the scheme and the host and port of the *_pass
// called name with argument s, split as its handler will split the URL
// (ngxparse.ParsePass), with their variables replaced by the literal
// values "set" and "map" give them; nil when a variable that reaches
// the host may hold something else, or gives the scheme.
func (dx *dnsIndex) hostCandidates(name string, stream bool, s string, at int32) []string {
	pp, ok := ngxparse.ParsePass(name, stream, s)
	if !ok || !pp.Vars || pp.VarScheme || pp.Unix {
		return nil
	}
	out := []string{pp.Scheme}
	for _, part := range script.Split(strings.TrimSuffix(pp.Address, pp.URI)) {
		if part.Name == "" {
			for k := range out {
				out[k] += part.Text
			}
			continue
		}
		if t, ok := taint.Builtin(part.Name); ok && t.Slash {
			break // $request_uri, $uri: the path starts here
		}
		values := dx.varValues(part.Name, at)
		if values == nil || len(out)*len(values) > 16 {
			return nil
		}
		next := make([]string, 0, len(out)*len(values))
		for _, o := range out {
			for _, v := range values {
				if strings.ContainsAny(v, "/?#") {
					return nil // the value ends the host: too clever to follow
				}
				next = append(next, o+v)
			}
		}
		out = next
	}
	return out
}

// varValues returns every value variable name may hold at entry at, when
// all of them are literal text: the values of its "set" directives that
// run there, or of its map. nil means unknown.
func (dx *dnsIndex) varValues(name string, at int32) []string {
	// The definitions of the variable in at's http or stream block are
	// the symbol table's (names folded as nginx folds them), every
	// inclusion of a file apart. Definitions other than set and map
	// (geo, a regex's group, ...) are not followed.
	sym := symbols.VariableSymbol(name, dx.inStream(at))
	vd := dx.defs[sym]
	if vd == nil {
		vd = &varDefs{sets: map[int32][]int32{}}
		for _, i := range symbols.Of(dx.p).DefinedBy(sym) {
			switch d := dx.ix.Entries[i].Directive; {
			case d.Is("set") && len(d.Args()) == 2:
				scope := dx.setScope(i)
				vd.sets[scope] = append(vd.sets[scope], i)
			case d.Is("map") && d.Block != nil && len(d.Args()) == 2:
				vd.maps = append(vd.maps, i)
			}
		}
		if dx.defs == nil {
			dx.defs = map[symbols.Symbol]*varDefs{}
		}
		dx.defs[sym] = vd
	}
	// The sets that run at "at": those whose scope is the top level or
	// an ancestor of at, in the order of the configuration.
	sets := slices.Clone(vd.sets[-1])
	for p := dx.ix.Entries[at].Parent; p >= 0; p = dx.ix.Entries[p].Parent {
		sets = append(sets, vd.sets[p]...)
	}
	slices.Sort(sets)
	maps := vd.maps
	var out []string
	for _, i := range sets {
		v := dx.ix.Entries[i].Directive.Args()[1].Value
		if script.HasVars(v) {
			return nil
		}
		out = append(out, v)
	}
	for _, i := range maps {
		d := dx.ix.Entries[i].Directive
		for _, c := range dx.p.Body(d) {
			switch {
			case c.Is("hostnames") || c.Is("volatile"):
			case len(c.Args()) != 1 || script.HasVars(c.Args()[0].Value):
				return nil
			default:
				out = append(out, c.Args()[0].Value)
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// setScope returns the entry of the location or server a "set" runs in,
// or -1 when it is outside both.
func (dx *dnsIndex) setScope(i int32) int32 {
	for p := dx.ix.Entries[i].Parent; p >= 0; p = dx.ix.Entries[p].Parent {
		if d := dx.ix.Entries[p].Directive; d.Is("location") || d.Is("server") {
			return p
		}
	}
	return -1
}

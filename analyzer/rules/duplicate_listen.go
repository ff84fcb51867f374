package rules

import (
	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// DuplicateListen reports listens that nginx rejects or silently merges
// because they land on one socket: the same address twice in a server,
// socket options on two listens of one address, and ssl/http2/
// proxy_protocol given on some listens of a shared socket but not others.
var DuplicateListen = &analyzer.Rule{
	Code: "NL2004", Name: "duplicate-listen", Title: "two listens share one socket in a conflicting way", Severity: parser.Error,
	Refuses: true,
	Run:     runDuplicateListen,
	Doc: analyzer.Doc{
		Text: "nginx opens one socket per address:port (`80`, `*:80` and `0.0.0.0:80` are the same " +
			"socket; `127.0.0.1:80` is another one, even while a wildcard listens on port 80). " +
			"Three mistakes follow from that:\n\n" +
			"- the same address twice in one server: `a duplicate listen 0.0.0.0:80`, nginx refuses to start;\n" +
			"- socket options (`backlog=`, `rcvbuf=`, `sndbuf=`, `reuseport`, `deferred`, `bind`, " +
			"`ipv6only=`, `so_keepalive=`, `fastopen=`, `setfib=`, `accept_filter=`, `multipath`) on " +
			"listens of the same address in two servers: `duplicate listen options for 0.0.0.0:80`, " +
			"nginx refuses to start. Give them on one listen only, usually the default server's;\n" +
			"- `ssl`, `http2` or `proxy_protocol` on some listens of a shared socket but not on " +
			"others: they apply to the socket, so every server on it gets them. nginx 1.25.5 and later " +
			"warn `protocol options redefined`; older versions say nothing. Write the same protocol " +
			"parameters on every listen of the address.\n\n" +
			"stream servers follow the same rules (since nginx 1.25.5 they share sockets like http " +
			"servers; udp listens are separate sockets). mail servers cannot share an address at " +
			"all: `duplicate \"0.0.0.0:25\" address and port pair`. Host names are compared as " +
			"written, not resolved.",
		Bad:  "events {}\nhttp {\n    server {\n        listen 127.0.0.1:8080;\n        listen 127.0.0.1:8080;\n    }\n}\n",
		Good: "events {}\nhttp {\n    server {\n        listen 127.0.0.1:8080;\n        listen [::1]:8080;\n    }\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_core_module.html#listen",
	},
}

// DuplicateDefaultServer reports a second default_server on one socket.
var DuplicateDefaultServer = &analyzer.Rule{
	Code: "NL2005", Name: "duplicate-default-server", Title: "two default servers on one address:port", Severity: parser.Error,
	Refuses: true,
	Run:     runDuplicateDefaultServer,
	Doc: analyzer.Doc{
		Text: "Only one server may be `default_server` for an address:port; nginx refuses to start " +
			"with `a duplicate default server for 0.0.0.0:80`. A wildcard listen (`listen 80`) and " +
			"a specific address (`listen 127.0.0.1:80`) are different sockets and may each have " +
			"their own default server. Keep `default_server` on one of the two listens the finding " +
			"points at (the finding and its related location).",
		Bad: "events {}\nhttp {\n    server {\n        listen 127.0.0.1:8080 default_server;\n    }\n" +
			"    server {\n        listen 127.0.0.1:8080 default_server;\n    }\n}\n",
		Good: "events {}\nhttp {\n    server {\n        listen 127.0.0.1:8080 default_server;\n    }\n" +
			"    server {\n        listen 127.0.0.1:8080;\n        server_name example.com;\n    }\n}\n",
		URL: "https://nginx.org/en/docs/http/ngx_http_core_module.html#listen",
	},
}

func runDuplicateListen(p *analyzer.Pass) {
	for _, proto := range []parser.Protocol{parser.HTTP, parser.Stream} {
		for _, f := range sharedSockets(p, proto).findings {
			if !f.defaultServer {
				reportSocketFinding(p, f)
			}
		}
	}
	mailDuplicates(p)
}

func runDuplicateDefaultServer(p *analyzer.Pass) {
	for _, proto := range []parser.Protocol{parser.HTTP, parser.Stream} {
		for _, f := range sharedSockets(p, proto).findings {
			if f.defaultServer {
				reportSocketFinding(p, f)
			}
		}
	}
}

func reportSocketFinding(p *analyzer.Pass, f socketFinding) {
	d := p.ReportDirective(f.at, "%s", f.message)
	d.Detail = f.detail
	// nginx starts with redefined protocol options, so the finding is a
	// warning, unless the user configured a severity for the rule.
	if f.warning && d.Severity == p.Rule.Severity {
		d.Severity = parser.Warning
	}
	if f.first != nil {
		d.Related = []parser.Related{{File: f.first.File, Range: f.first.Name.Range, Message: f.firstMsg}}
	}
}

// Protocol bits of a socket, as ngx_http_add_addresses combines them.
const (
	lsProxy = 1 << iota
	lsSSL
	lsHTTP2
)

// listenSocket is one ngx_http_conf_addr_t: an address:port and what nginx has
// accumulated on it while reading listens in order.
type listenSocket struct {
	// addr is the address as nginx prints it ("0.0.0.0:80").
	addr string
	// last is the last server that used the socket, lastListen its
	// listen (nil for an implied one): a server's listens come together,
	// so only the last server can repeat.
	last       *parser.Server
	lastListen *parser.Directive
	// optsBy is the listen whose socket options the socket uses.
	optsBy *parser.Directive
	// defaultBy is the listen that made a server the default.
	defaultBy *parser.Directive
	// protoOr is what nginx keeps in addr->opt: every protocol bit any
	// listen so far gave.
	protoOr int
	// protocols, protocolsSet and changed mirror the fields of the same
	// names that nginx uses to decide when to warn.
	protocols    int
	protocolsSet bool
	changed      bool
	// protoBy is the first listen that gave a protocol parameter.
	protoBy *parser.Directive
}

type socketFinding struct {
	// at is the listen found at. For http and stream the texts have
	// addrMark for the address until the runs are merged.
	at            *parser.Directive
	message       string
	detail        string
	first         *parser.Directive
	firstMsg      string
	defaultServer bool
	// warning marks what nginx only warns about.
	warning bool
}

// socketTable is the result of replaying every listen of a protocol.
type socketTable struct {
	findings []socketFinding
}

// socketGrouping is serverSockets computed once per run and protocol:
// three rules read it.
var socketGrouping = &analyzer.Result[parser.Protocol, *socketTable]{
	Name: "socket grouping",
	Compute: func(p *analyzer.Pass, proto parser.Protocol) *socketTable {
		// The run's one model: the host facts do not change how listens
		// group into sockets, so no second model is computed for them.
		return serverSockets(costModel(p), proto)
	},
}

// sharedSockets returns the socket grouping of a protocol's servers.
func sharedSockets(p *analyzer.Pass, proto parser.Protocol) *socketTable {
	return socketGrouping.Get(p, proto)
}

// serverSockets replays, socket by socket, what ngx_http_add_addresses
// and ngx_http_add_server (or their stream twins, which current nginx
// shapes the same way) do with each listen of proto. The cost model has
// already grouped the listens into sockets, in the order nginx adds them
// (the implied listens of servers without one last); a socket's outcome
// depends only on its own listens, so replaying each socket's list is
// replaying the configuration. Listens whose arguments do not parse are
// not in the model: another rule reports them.
func serverSockets(r *costmodel.Result, proto parser.Protocol) *socketTable {
	t := &socketTable{}
	var found []runOf[socketFinding]
	for _, port := range r.Ports {
		if port.Protocol != proto {
			continue
		}
		for _, a := range port.Addrs {
			sock := listenSocket{addr: addrMark}
			n := len(t.findings)
			for i := range a.Instances {
				in := &a.Instances[i]
				if !inProtocolBlock(in.Server) {
					continue
				}
				var d *parser.Directive
				var spec *grammar.Listen
				if in.Listen != nil {
					d, spec = in.Listen.Directive, in.Listen.Spec
				}
				t.add(&sock, in.Server, d, spec)
			}
			for _, f := range t.findings[n:] {
				found = append(found, runOf[socketFinding]{f, a})
			}
			t.findings = t.findings[:n]
		}
	}
	// The runs of ports of one range say the same: once, with its ports.
	merged, addrs := mergeRuns(found, func(a, b socketFinding) bool { return a == b })
	for i, f := range merged {
		f.message, f.detail, f.firstMsg = withAddr(f.message, addrs[i]), withAddr(f.detail, addrs[i]), withAddr(f.firstMsg, addrs[i])
		t.findings = append(t.findings, f)
	}
	return t
}

// add replays one listen d of server s (d nil for an implied listen) on
// sock.
func (t *socketTable) add(sock *listenSocket, s *parser.Server, d *parser.Directive, l *grammar.Listen) {
	var set, dflt bool
	var protocols int
	if l != nil {
		set = l.ForcesOwnSocket()
		dflt = l.Has(grammar.ParamDefaultServer)
		if l.Has(grammar.ParamProxyProtocol) {
			protocols |= lsProxy
		}
		if l.Has(grammar.ParamSSL) {
			protocols |= lsSSL
		}
		if l.Has(grammar.ParamHTTP2) {
			protocols |= lsHTTP2
		}
	}
	addr := sock.addr
	if sock.last == nil {
		// ngx_http_add_address: a new socket takes this listen's options.
		sock.last, sock.lastListen = s, d
		if set {
			sock.optsBy = d
		}
		if dflt {
			sock.defaultBy = d
		}
		if protocols != 0 {
			sock.protoBy = d
		}
		sock.protoOr = protocols
		return
	}
	// ngx_http_add_server: a server may use a socket once. A server's
	// listens are replayed together, so only the last server can repeat.
	if sock.last == s {
		if d != nil {
			t.findings = append(t.findings, socketFinding{at: d,
				message:  "a duplicate listen " + addr,
				detail:   "this server already listens on " + addr + "; nginx refuses to start",
				first:    sock.lastListen,
				firstMsg: "first listen on " + addr})
		}
		return
	}
	sock.last, sock.lastListen = s, d

	prev := sock.protoOr
	if set {
		if sock.optsBy != nil {
			t.findings = append(t.findings, socketFinding{at: d,
				message: "duplicate listen options for " + addr,
				detail: "socket options (backlog=, reuseport, deferred, bind, ...) apply to the one socket of " +
					addr + " and may be given on one of its listens only; nginx refuses to start",
				first: sock.optsBy, firstMsg: "socket options first given here"})
			return
		}
		sock.optsBy = d
	}
	if dflt {
		if sock.defaultBy != nil {
			t.findings = append(t.findings, socketFinding{at: d, defaultServer: true,
				message:  "a duplicate default server for " + addr,
				detail:   "only one server may be the default for " + addr + "; nginx refuses to start",
				first:    sock.defaultBy,
				firstMsg: "default server for " + addr + " declared here"})
			return
		}
		sock.defaultBy = d
	}
	// The warning logic of ngx_http_add_addresses (nginx 1.25.5+), kept
	// as nginx has it so that we warn exactly when nginx does.
	warn := false
	union := protocols | prev
	switch {
	case union != prev: // this listen adds protocols
		warn = sock.optsBy != nil && !set || sock.changed || union != protocols
		sock.protocols, sock.protocolsSet, sock.changed = prev, true, true
	case union != protocols: // this listen lacks some
		warn = set || sock.protocolsSet && protocols != sock.protocols
		sock.protocols, sock.protocolsSet = protocols, true
	default:
		warn = set && sock.changed || sock.protocolsSet && protocols != sock.protocols
		sock.protocols, sock.protocolsSet = protocols, true
	}
	sock.protoOr = union
	if sock.protoBy == nil && protocols != 0 {
		sock.protoBy = d
	}
	if warn && d != nil {
		t.findings = append(t.findings, socketFinding{at: d, warning: true,
			message: "protocol options redefined for " + addr,
			detail: "ssl, http2 and proxy_protocol belong to the socket, so every server on " + addr +
				" gets " + protoNames(union) + " whatever its own listen says; write the same parameters on every listen of " + addr,
			first: sock.protoBy, firstMsg: "protocol parameters first given here"})
	}
}

func protoNames(bits int) string {
	var out string
	for _, n := range []struct {
		bit  int
		name string
	}{{lsSSL, "ssl"}, {lsHTTP2, "http2"}, {lsProxy, "proxy_protocol"}} {
		if bits&n.bit != 0 {
			if out != "" {
				out += ", "
			}
			out += n.name
		}
	}
	if out == "" {
		return "none of them"
	}
	return out
}

// mailDuplicates reports an address used twice by mail servers, in one
// server or in two: the mail module gives every listen its own socket and
// refuses a repeat with `duplicate "X" address and port pair`.
func mailDuplicates(p *analyzer.Pass) {
	seen := map[string]*parser.Directive{}
	for _, s := range p.Model().Servers {
		if s.Protocol != parser.Mail || !inProtocolBlock(s) {
			continue
		}
		for _, l := range s.Listens() {
			if l.Spec == nil {
				continue
			}
			key := l.Spec.Key
			if first := seen[key]; first != nil {
				reportSocketFinding(p, socketFinding{at: l.Directive,
					message: "duplicate \"" + key + "\" address and port pair",
					detail:  "every mail listen opens its own socket, so an address may be used once; nginx refuses to start",
					first:   first, firstMsg: "first listen on " + key})
				continue
			}
			seen[key] = l.Directive
		}
	}
}

// inProtocolBlock reports whether s sits directly in its http, stream or
// mail block; a server nested anywhere else is an error nginx stops at
// before opening any socket.
func inProtocolBlock(s *parser.Server) bool { return !s.Misplaced }

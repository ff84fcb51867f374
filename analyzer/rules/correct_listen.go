package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// DuplicateListen reports listens that nginx rejects or silently merges
// because they land on one socket: the same address twice in a server,
// socket options on two listens of one address, and ssl/http2/
// proxy_protocol given on some listens of a shared socket but not others.
var DuplicateListen = &analyzer.Rule{
	Code: "NL2004", Name: "duplicate-listen", Title: "two listens share one socket in a conflicting way", Severity: parser.Error,
	Run: runDuplicateListen,
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
	Run: runDuplicateDefaultServer,
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
	addr    string
	servers []*parser.Server
	// listens holds each server's listen on this socket (nil for a
	// server's implicit listen), parallel to servers.
	listens []*parser.Directive
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
	at            *parser.Directive
	message       string
	detail        string
	first         *parser.Directive
	firstMsg      string
	defaultServer bool
	// warning marks what nginx only warns about.
	warning bool
}

// socketTable is the result of replaying every http listen.
type socketTable struct {
	sockets  []*listenSocket
	byKey    map[string]*listenSocket
	findings []socketFinding

	// Storage for the sockets and their first server and listen: twenty
	// thousand sockets would otherwise cost sixty thousand allocations.
	slab       []listenSocket
	serverSlab []*parser.Server
	listenSlab []*parser.Directive
}

// implicitKey is where an http server without listen goes: nginx adds
// "listen *:80" for it (8000 when not started as root, which is not how
// nginx runs in production). A stream server without listen is an error.
const implicitKey = "0.0.0.0:80"

// serverSockets replays ngx_http_add_listen (or its twin
// ngx_stream_add_listen, which current nginx shapes the same way) for
// every listen of every server of proto in configuration order,
// collecting what nginx rejects or warns about. Listens whose arguments
// do not parse are skipped: another rule reports them.
type socketsKey parser.Protocol

// sharedSockets is serverSockets computed once per run: three rules read it.
func sharedSockets(p *analyzer.Pass, proto parser.Protocol) *socketTable {
	return p.Memo(socketsKey(proto), func() any { return serverSockets(p.Model(), proto) }).(*socketTable)
}

func serverSockets(m *parser.Model, proto parser.Protocol) *socketTable {
	// n bounds the sockets (one per listen, or per listen-less server), so
	// the slabs below never grow and pointers into them stay valid.
	n := 0
	for _, s := range m.Servers {
		if s.Protocol == proto {
			n += max(1, len(s.Listens))
		}
	}
	t := &socketTable{byKey: make(map[string]*listenSocket, n),
		slab: make([]listenSocket, 0, n), serverSlab: make([]*parser.Server, 0, n), listenSlab: make([]*parser.Directive, 0, n)}
	for _, s := range m.Servers {
		if s.Protocol != proto || !inProtocolBlock(s) {
			continue
		}
		if len(s.Listens) == 0 && proto == parser.HTTP {
			t.add(s, nil, implicitKey, nil)
			continue
		}
		for _, l := range s.Listens {
			if l.Spec == nil {
				continue
			}
			t.add(s, l.Directive, socketKey(l.Spec), l.Spec)
		}
	}
	return t
}

// socketKey is the listen's canonical address. QUIC (http) and udp
// (stream) listens are datagram sockets, which nginx keeps apart from
// TCP ones on the same port.
func socketKey(l *grammar.Listen) string {
	if l.Has(grammar.ParamQUIC) || l.Has(grammar.ParamUDP) {
		return l.Key + "/udp"
	}
	return l.Key
}

func (t *socketTable) add(s *parser.Server, d *parser.Directive, key string, l *grammar.Listen) {
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
	// addr is the address as nginx prints it, without the /udp that
	// keeps datagram sockets apart in the table.
	addr := strings.TrimSuffix(key, "/udp")
	sock := t.byKey[key]
	if sock == nil {
		// ngx_http_add_address: a new socket takes this listen's options.
		i := len(t.slab)
		t.serverSlab = append(t.serverSlab, s)
		t.listenSlab = append(t.listenSlab, d)
		t.slab = append(t.slab, listenSocket{addr: addr, servers: t.serverSlab[i : i+1 : i+1],
			listens: t.listenSlab[i : i+1 : i+1], protoOr: protocols})
		sock = &t.slab[i]
		if set {
			sock.optsBy = d
		}
		if dflt {
			sock.defaultBy = d
		}
		if protocols != 0 {
			sock.protoBy = d
		}
		t.byKey[key] = sock
		t.sockets = append(t.sockets, sock)
		return
	}
	// ngx_http_add_server: a server may use a socket once. A server's
	// listens are replayed together, so only the last server can repeat.
	if sock.servers[len(sock.servers)-1] == s {
		if d != nil {
			t.findings = append(t.findings, socketFinding{at: d,
				message:  "a duplicate listen " + addr,
				detail:   "this server already listens on " + addr + "; nginx refuses to start",
				first:    sock.listens[len(sock.listens)-1],
				firstMsg: "first listen on " + addr})
		}
		return
	}
	sock.servers = append(sock.servers, s)
	sock.listens = append(sock.listens, d)

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
		for _, l := range s.Listens {
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
// mail block (or at the top of an included file, whose parent the tree
// does not record); a server nested anywhere else is an error nginx stops
// at before opening any socket.
func inProtocolBlock(s *parser.Server) bool {
	return s.Directive.Parent == nil || s.Directive.Parent.Name.Value == s.Protocol.String()
}

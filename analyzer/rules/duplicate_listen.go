package rules

import (
	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/costpass"
	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/parser"
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
		for _, pr := range sharedSockets(p, proto) {
			if pr.Kind != routing.DuplicateDefault {
				reportSocketFinding(p, socketFinding(pr))
			}
		}
	}
	mailDuplicates(p)
}

func runDuplicateDefaultServer(p *analyzer.Pass) {
	for _, proto := range []parser.Protocol{parser.HTTP, parser.Stream} {
		for _, pr := range sharedSockets(p, proto) {
			if pr.Kind == routing.DuplicateDefault {
				reportSocketFinding(p, socketFinding(pr))
			}
		}
	}
}

// socketProblem is a finding about listens that share a socket, worded.
type socketProblem struct {
	at       *parser.Directive
	message  string
	detail   string
	first    *parser.Directive
	firstMsg string
	// warning marks what nginx only warns about.
	warning bool
}

// socketFinding words what the replay of the listens (routing.Problems)
// found.
func socketFinding(pr routing.Problem) socketProblem {
	addr := pr.Addr
	switch pr.Kind {
	case routing.DuplicateListen:
		return socketProblem{at: pr.At, first: pr.First,
			message:  "a duplicate listen " + addr,
			detail:   "this server already listens on " + addr + "; nginx refuses to start",
			firstMsg: "first listen on " + addr}
	case routing.DuplicateOptions:
		return socketProblem{at: pr.At, first: pr.First,
			message: "duplicate listen options for " + addr,
			detail: "socket options (backlog=, reuseport, deferred, bind, ...) apply to the one socket of " +
				addr + " and may be given on one of its listens only; nginx refuses to start",
			firstMsg: "socket options first given here"}
	case routing.DuplicateDefault:
		return socketProblem{at: pr.At, first: pr.First,
			message:  "a duplicate default server for " + addr,
			detail:   "only one server may be the default for " + addr + "; nginx refuses to start",
			firstMsg: "default server for " + addr + " declared here"}
	}
	return socketProblem{at: pr.At, first: pr.First, warning: true,
		message: "protocol options redefined for " + addr,
		detail: "ssl, http2 and proxy_protocol belong to the socket, so every server on " + addr +
			" gets " + protoNames(pr.Protocols) + " whatever its own listen says; write the same parameters on every listen of " + addr,
		firstMsg: "protocol parameters first given here"}
}

func reportSocketFinding(p *analyzer.Pass, f socketProblem) {
	d := p.ReportDirective(f.at, "%s", f.message)
	d.Detail = f.detail
	// nginx starts with redefined protocol options, so the finding is a
	// warning, unless the user configured a severity for the rule.
	if f.warning && d.Severity == p.Rule.Severity {
		d.Severity = parser.Warning
	}
	if f.first != nil {
		d.Related = []parser.Related{{File: f.first.File, Range: f.first.Name().Range, Message: f.firstMsg}}
	}
}

// listenReplay is what the rules about listens read of one replay of a
// protocol's listens (routing.Replay), computed once per run and
// protocol: what nginx refuses or warns about, and the addresses several
// servers share or that have ssl (a configuration of an address per
// server keeps none).
type listenReplay struct {
	problems []routing.Problem
	shared   []routing.Address
}

var socketGrouping = &analyzer.Result[parser.Protocol, *listenReplay]{
	Name: "socket grouping",
	Compute: func(p *analyzer.Pass, proto parser.Protocol) *listenReplay {
		// The run's one model: the host facts do not change how listens
		// group into sockets, so no second model is computed for them.
		problems, shared := routing.Replay(costpass.Get(p), proto, func(a routing.Address) bool {
			return a.Servers >= 2 || a.Protocols&routing.SSL != 0
		})
		return &listenReplay{problems, shared}
	},
}

// sharedSockets returns what nginx says about the listens of a protocol's
// servers that share sockets.
func sharedSockets(p *analyzer.Pass, proto parser.Protocol) []routing.Problem {
	return socketGrouping.Get(p, proto).problems
}

// sharedAddresses returns the addresses of a protocol that several
// servers share, or that have ssl, in nginx's order.
func sharedAddresses(p *analyzer.Pass, proto parser.Protocol) []routing.Address {
	return socketGrouping.Get(p, proto).shared
}

func protoNames(bits routing.Protocols) string {
	var out string
	for _, n := range []struct {
		bit  routing.Protocols
		name string
	}{{routing.SSL, "ssl"}, {routing.HTTP2, "http2"}, {routing.ProxyProtocol, "proxy_protocol"}} {
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
		if s.Protocol != parser.Mail || s.Misplaced {
			continue
		}
		for _, l := range s.Listens() {
			if l.Spec == nil {
				continue
			}
			key := l.Spec.Key
			if first := seen[key]; first != nil {
				reportSocketFinding(p, socketProblem{at: l.Directive,
					message: "duplicate \"" + key + "\" address and port pair",
					detail:  "every mail listen opens its own socket, so an address may be used once; nginx refuses to start",
					first:   first, firstMsg: "first listen on " + key})
				continue
			}
			seen[key] = l.Directive
		}
	}
}

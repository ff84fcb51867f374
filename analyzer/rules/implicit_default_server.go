package rules

import (
	"fmt"
	"path/filepath"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// ImplicitDefaultServer reports an address several HTTP servers share
// with none of them marked default_server.
var ImplicitDefaultServer = &analyzer.Rule{
	Code: "NL2054", Name: "implicit-default-server", Title: "servers share an address and none is the default_server", Severity: parser.Warning,
	Run: runImplicitDefaultServer,
	Doc: analyzer.Doc{
		Text: "A request whose `Host` matches no `server_name` of the address it came to goes to that " +
			"address's default server: the one whose `listen` says `default_server`, else the first " +
			"server nginx read. With several servers on one address and no `default_server`, which " +
			"site answers unknown names, IP-address requests and scanners depends on the order of " +
			"files an `include` glob happens to read: adding `sites-enabled/aaa.conf` silently changes " +
			"it. Mark one server `default_server`, ideally a catch-all that answers nothing " +
			"(`return 444;`, or `ssl_reject_handshake on;` for TLS). Reported once per address, at " +
			"the server that is the default today, when the whole configuration is linted.",
		Bad:  "events {}\nhttp {\n    server {\n        listen 80;\n        server_name a.example;\n    }\n    server {\n        listen 80;\n        server_name b.example;\n    }\n}\n",
		Good: "events {}\nhttp {\n    server {\n        listen 80 default_server;\n        server_name _;\n        return 444;\n    }\n    server {\n        listen 80;\n        server_name a.example;\n    }\n    server {\n        listen 80;\n        server_name b.example;\n    }\n}\n",
		URL:  "https://nginx.org/en/docs/http/request_processing.html",
	},
}

func runImplicitDefaultServer(p *analyzer.Pass) {
	if !wholeConfig(p) {
		return
	}
	var found []runOf[implicit]
	for _, port := range costModel(p).Ports {
		if port.Protocol != parser.HTTP {
			continue
		}
		for _, a := range port.Addrs {
			// TCP and QUIC sockets of one address keep their own servers.
			for _, udp := range []bool{false, true} {
				if f, ok := implicitDefault(a.Instances, udp); ok {
					found = append(found, runOf[implicit]{f, a})
				}
			}
		}
	}
	// The runs of ports of one range are one address to the user.
	merged, addrs := mergeRuns(found, func(a, b implicit) bool { return a == b })
	for i, f := range merged {
		what := addrs[i]
		if f.udp {
			what += " (QUIC)"
		}
		diag := p.ReportDirective(f.at, "%d servers share %s and none is its default_server: this one, the first read, answers every request for a name none of them has", f.servers, what)
		diag.Detail = "which server is read first depends on include order; add default_server to the listen of the server meant to answer unknown names (a catch-all with return 444 is the usual choice)"
		diag.Related = []parser.Related{{File: f.second.Directive.File, Range: f.second.Directive.Name.Range,
			Message: fmt.Sprintf("another server on %s (%s:%d)", what, filepath.Base(f.second.Directive.File.Path), f.second.Directive.Line())}}
	}
}

// implicit is an address whose default server is whichever is read
// first.
type implicit struct {
	at      *parser.Directive
	second  *parser.Server
	servers int
	udp     bool
}

// implicitDefault finds the servers on an address (its TCP or its QUIC
// socket) of which none is marked default_server.
func implicitDefault(ins []costmodel.Instance, udp bool) (implicit, bool) {
	var first, second *costmodel.Instance
	for i := range ins {
		in := &ins[i]
		if in.UDP != udp || !inProtocolBlock(in.Server) {
			continue
		}
		if in.Listen != nil && in.Listen.Spec != nil && in.Listen.Spec.Has(grammar.ParamDefaultServer) {
			return implicit{}, false
		}
		switch {
		case first == nil:
			first = in
		case second == nil && in.Server != first.Server:
			second = in
		}
	}
	if second == nil {
		return implicit{}, false
	}
	at := first.Server.Directive
	if first.Listen != nil {
		at = first.Listen.Directive
	}
	// A server's listens on one address come one after another (nginx
	// adds a server's listens together), so counting changes counts
	// servers.
	servers := 0
	var last *parser.Server
	for i := range ins {
		if in := &ins[i]; in.UDP == udp && inProtocolBlock(in.Server) && in.Server != last {
			servers++
			last = in.Server
		}
	}
	return implicit{at: at, second: second.Server, servers: servers, udp: udp}, true
}

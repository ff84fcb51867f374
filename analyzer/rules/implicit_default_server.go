package rules

import (
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/parser"
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
	if !p.WholeConfig() {
		return
	}
	// TCP and QUIC sockets of one address keep their own servers.
	var found []routing.Run[implicit]
	shared := sharedAddresses(p, parser.HTTP)
	for i := range shared {
		a := &shared[i]
		if a.DefaultBy != nil || a.Servers < 2 {
			continue
		}
		at := a.First.Server.Directive
		if a.First.Listen != nil {
			at = a.First.Listen.Directive
		}
		found = append(found, routing.Run[implicit]{Item: implicit{at: at, second: a.Second.Server, servers: a.Servers, udp: a.UDP}, Addr: a.Cost})
	}
	// The runs of ports of one range are one address to the user, even
	// where single ports inside it add servers: the same server answers
	// the names none of them has on all of them.
	type place struct {
		at  *parser.Directive
		udp bool
	}
	fewest := map[place]int{}
	most := map[place]int{}
	for _, f := range found {
		k := place{f.Item.at, f.Item.udp}
		if n, ok := fewest[k]; !ok || f.Item.servers < n {
			fewest[k] = f.Item.servers
		}
		most[k] = max(most[k], f.Item.servers)
	}
	merged, addrs := routing.MergeRunsPer(found, func(a implicit) place { return place{a.at, a.udp} },
		func(a, b implicit) bool { return a.at == b.at && a.udp == b.udp })
	for i, f := range merged {
		what := addrs[i]
		if f.udp {
			what += " (QUIC)"
		}
		k := place{f.at, f.udp}
		servers := strconv.Itoa(most[k])
		if fewest[k] != most[k] {
			servers = strconv.Itoa(fewest[k]) + " to " + servers
		}
		diag := p.ReportDirective(f.at, "%s servers share %s and none is its default_server: this one, the first read, answers every request for a name none of them has", servers, what)
		diag.Detail = "which server is read first depends on include order; add default_server to the listen of the server meant to answer unknown names (a catch-all with return 444 is the usual choice)"
		diag.Related = []parser.Related{{File: f.second.Directive.File, Range: f.second.Directive.Name().Range,
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

package rules

import (
	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/parser"
)

// ConflictingServerName reports a server name that an earlier server on
// the same address already claims; nginx warns and ignores it.
var ConflictingServerName = &analyzer.Rule{
	Code: "NL2006", Name: "conflicting-server-name", Title: "server name already used on this address", Severity: parser.Warning,
	Run: runConflictingServerName,
	Doc: analyzer.Doc{
		Text: "nginx picks the server for a request by address first and by name second, so each " +
			"name may belong to one server per address:port. A second claim is ignored with a " +
			"warning (`conflicting server name \"example.com\" on 0.0.0.0:80, ignored`): requests " +
			"for that name keep going to the first server, however the second one is configured.\n\n" +
			"Names conflict when nginx stores them under the same key: equal exact names (case does " +
			"not matter), `*.example.com` and `.example.com` (which both match subdomains), " +
			"`.example.com` and `example.com`, equal `www.example.*` forms. Regular expressions are " +
			"tried in order and never conflict. A server without `server_name` has the name `\"\"`, " +
			"so two such servers on one address conflict too. Addresses are compared as sockets: " +
			"`listen 80` and `listen 127.0.0.1:80` are different, and nginx checks names on each " +
			"separately. stream servers (nginx 1.25.5 and later) follow the same rules. Merge the " +
			"two servers or remove the name from one of them.",
		Bad: "events {}\nhttp {\n    server {\n        listen 127.0.0.1:8080;\n        server_name example.com;\n    }\n" +
			"    server {\n        listen 127.0.0.1:8080;\n        server_name example.com www.example.com;\n    }\n}\n",
		Good: "events {}\nhttp {\n    server {\n        listen 127.0.0.1:8080;\n        server_name example.com;\n    }\n" +
			"    server {\n        listen 127.0.0.1:8080;\n        server_name www.example.com;\n    }\n}\n",
		URL: "https://nginx.org/en/docs/http/server_names.html",
	},
}

func runConflictingServerName(p *analyzer.Pass) {
	// A name on several shared sockets clashes on each; once is enough.
	type place struct {
		d   *parser.Directive
		arg int
	}
	// A name clashes on every run of ports of a range the servers share:
	// one finding at the name, naming the ports.
	var clashes []routing.Run[routing.Clash]
	for _, proto := range []parser.Protocol{parser.HTTP, parser.Stream} {
		for _, h := range nameHashes.Get(p, proto) {
			for _, c := range h.clashes {
				clashes = append(clashes, routing.Run[routing.Clash]{Item: c, Addr: h.addr})
			}
		}
	}
	at := func(c routing.Clash) place { return place{c.At.Directive, c.At.Arg} }
	found, addrs := routing.MergeRunsPer(clashes, at, func(a, b routing.Clash) bool { return at(a) == at(b) })
	for i, c := range found {
		reportClash(p, c, addrs[i])
	}
}

func reportClash(p *analyzer.Pass, c routing.Clash, addr string) {
	d := p.Reportf(c.At.Directive.File, c.At.Range(), "conflicting server name %q on %s, ignored", c.Name, addr)
	if c.At.Arg < 0 {
		d.Detail = "this server has no server_name, so its name is \"\", which an earlier server on " + addr + " already has"
	} else {
		d.Detail = "requests for this name on " + addr + " go to the earlier server"
	}
	d.Related = []parser.Related{{File: c.First.Directive.File, Range: c.First.Range(), Message: "first claimed here"}}
}

// addressNames is what nginx's name hash of one shared address refuses:
// the names that clash with an earlier server's, and those it declines.
type addressNames struct {
	addr    *costmodel.Addr
	clashes []routing.Clash
	invalid []routing.Claim
}

// nameHashes files the server names of every address that several
// servers share, as ngx_http_optimize_servers (and its stream twin)
// builds the name hash only for such an address (or for one with a regex
// default server, whose names cannot conflict anyway).
// conflicting-server-name and invalid-parameter read it; only what the
// hashes refuse is kept, not the hashes, which hold every name.
var nameHashes = &analyzer.Result[parser.Protocol, []addressNames]{
	Name: "server name hashes",
	Compute: func(p *analyzer.Pass, proto parser.Protocol) []addressNames {
		var out []addressNames
		shared := sharedAddresses(p, proto)
		for i := range shared {
			a := &shared[i]
			if a.Servers < 2 {
				continue
			}
			n := a.Names()
			if len(n.Clashes) > 0 || len(n.Invalid) > 0 {
				out = append(out, addressNames{a.Cost, n.Clashes, n.Invalid})
			}
		}
		return out
	},
}

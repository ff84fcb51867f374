package rules

import (
	"slices"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
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

// nameClaim is where a hash key was first added on one socket.
type nameClaim struct {
	d   *parser.Directive // the server_name, or the server for an implicit ""
	arg int               // argument index, -1 for the implicit name
}

func runConflictingServerName(p *analyzer.Pass) {
	reported := map[nameClaim]bool{}
	var servers []*parser.Server
	for _, port := range costModel(p).Ports {
		if port.Protocol != parser.HTTP && port.Protocol != parser.Stream {
			continue
		}
		for _, a := range port.Addrs {
			// ngx_http_optimize_servers (and its stream twin) builds the
			// name hash only for an address shared by several servers (or
			// with a regex default server, whose names cannot conflict
			// anyway).
			if a.ServerCount() < 2 {
				continue
			}
			servers = slices.Grow(servers[:0], a.ServerCount())
			for s := range a.Servers() {
				if inProtocolBlock(s) {
					servers = append(servers, s)
				}
			}
			if len(servers) >= 2 {
				conflictingNames(p, reported, servers, a.Key)
			}
		}
	}
}

// conflictingNames reports the names that clash among the servers of
// one address, in the order nginx adds them to its hash.
func conflictingNames(p *analyzer.Pass, reported map[nameClaim]bool, servers []*parser.Server, addr string) {
	// The map sized once: an address shared by every server of a big
	// configuration holds all their names, and growing it step by step
	// allocated three times its size.
	n := 0
	for _, s := range servers {
		n += max(1, len(s.Names()))
	}
	claims := make(map[nameKey]nameClaim, n)
	for _, s := range servers {
		if len(s.Names()) == 0 {
			at := nameClaim{d: s.Directive, arg: -1}
			if first, dup := claims[nameKey{'=', ""}]; dup {
				reportName(p, reported, at, first, "", addr)
			} else {
				claims[nameKey{'=', ""}] = at
			}
			continue
		}
		for _, n := range s.Names() {
			at := nameClaim{d: n.Directive, arg: n.Arg}
			sn := n.Spec()
			keys, nk := nameKeys(sn)
			for _, k := range keys[:nk] {
				if first, dup := claims[k]; dup {
					reportName(p, reported, at, first, sn.Name, addr)
					// ngx_hash_add_key stops at the first clash.
					break
				}
				claims[k] = at
			}
		}
	}
}

// nameKey is a key of nginx's server name hash: the table ('=' exact,
// '*' leading wildcard, '.' trailing wildcard) and the name. (A pair
// rather than the two joined: no string is built per name.)
type nameKey struct {
	table byte
	name  string
}

// nameKeys returns the keys under which ngx_hash_add_key files a name
// (the first n of keys), in the order it checks them. Regexes, $hostname
// and names nginx rejects get none.
func nameKeys(sn grammar.ServerName) (keys [2]nameKey, n int) {
	switch sn.Kind {
	case grammar.NameExact:
		if sn.Hostname || strings.ContainsRune(sn.Name, '*') {
			return keys, 0
		}
		return [2]nameKey{{'=', sn.Name}}, 1
	case grammar.NameEmpty:
		return [2]nameKey{{'=', ""}}, 1
	case grammar.NameDotWildcard:
		return [2]nameKey{{'=', sn.Domain}, {'*', sn.Domain}}, 2
	case grammar.NameWildcardHead:
		return [2]nameKey{{'*', sn.Domain}}, 1
	case grammar.NameWildcardTail:
		return [2]nameKey{{'.', sn.Domain}}, 1
	}
	return keys, 0
}

func reportName(p *analyzer.Pass, reported map[nameClaim]bool, at, first nameClaim, name, addr string) {
	// A name on several shared sockets clashes on each; once is enough.
	if reported[at] {
		return
	}
	reported[at] = true
	d := p.Reportf(at.d.File, claimRange(at), "conflicting server name %q on %s, ignored", name, addr)
	if at.arg < 0 {
		d.Detail = "this server has no server_name, so its name is \"\", which an earlier server on " + addr + " already has"
	} else {
		d.Detail = "requests for this name on " + addr + " go to the earlier server"
	}
	d.Related = []parser.Related{{File: first.d.File, Range: claimRange(first), Message: "first claimed here"}}
}

func claimRange(c nameClaim) parser.Range {
	if c.arg < 0 {
		return c.d.Name.Range
	}
	return c.d.Args[c.arg].Range
}

package rules

import (
	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/costpass"
	"github.com/nginx-lint/nginx-lint/parser"
)

// ListenBindConflict reports sockets that collide at start although nginx
// -t passes.
var ListenBindConflict = &analyzer.Rule{
	Code: "NL4003", Name: "listen-bind-conflict", Title: "listen sockets collide at start although nginx -t passes", Severity: parser.Error,
	Cost:    true,
	Run:     runListenBindConflict,
	Options: withCostOptions(),
	Doc: analyzer.Doc{
		Text: "A listen that forces a socket of its own (`bind`, `backlog`, `rcvbuf`, `deferred`, " +
			"`reuseport`, ...) on a port that also has a wildcard listen makes nginx bind both the " +
			"address and the wildcard. nginx binds and listens on each socket in turn, so the kernel " +
			"refuses the second with `EADDRINUSE`. `nginx -t` ignores that error by design, so the test " +
			"passes; the start retries five times 500 ms apart and fails with `bind() to 0.0.0.0:80 " +
			"failed (98: Address already in use)`. Drop the socket options from the specific listen, " +
			"or use `reuseport` on both. The same happens with an IPv6 wildcard with `ipv6only=off` " +
			"and IPv4 listens on its port, and with http and stream listening on the same address.",
		Bad:  "events {}\nhttp {\n    server {\n        listen 80;\n    }\n    server {\n        listen 127.0.0.1:80 bind;\n    }\n}\n",
		Good: "events {}\nhttp {\n    server {\n        listen 80;\n    }\n    server {\n        listen 127.0.0.1:80;\n    }\n}\n",
	},
}

func runListenBindConflict(p *analyzer.Pass) {
	for _, c := range costpass.Get(p).Conflicts {
		reportAt(p, c.Own, "%s", c.Message)
	}
}

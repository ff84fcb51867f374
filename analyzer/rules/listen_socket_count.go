package rules

import (
	"fmt"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/costpass"
	"github.com/nginx-lint/nginx-lint/parser"
)

// maxSockets is listen-socket-count's limit.
var maxSockets = analyzer.IntOption("max-sockets", 1000, "Report a configuration that opens more listening sockets than this.")

// ListenSocketCount reports configurations that open very many sockets.
var ListenSocketCount = &analyzer.Rule{
	Code: "NL4002", Name: "listen-socket-count", Title: "nginx opens very many listening sockets", Severity: parser.Warning,
	Cost:    true,
	Run:     runListenSocketCount,
	Options: withCostOptions(maxSockets.Decl()),
	Doc: analyzer.Doc{
		Text: "Every listening socket costs a socket(), bind() and listen() at start, `nginx -t` and " +
			"reload, a file descriptor in the master and in every worker, and a connection slot per " +
			"worker. A wildcard listen on a port serves all its addresses with one socket unless a " +
			"listen forces its own (`bind`, `backlog`, `reuseport`, ...), and `reuseport` clones a " +
			"socket per worker at start (not under `nginx -t`). The threshold is the option " +
			"`max-sockets` (counted at start). A threshold the user sets (the option, or `nginx-lint " +
			"cost --max-sockets`) is a gate: exceeding it is an error, as an explicit startup budget is.",
		Bad: "worker_processes 256;\nevents { worker_connections 2048; }\nhttp {\n    server {\n" +
			repeat(4, 4, "        ", "listen 127.0.0.1:800%d reuseport;") + "    }\n}\n",
		Good: "worker_processes 256;\nevents { worker_connections 2048; }\nhttp {\n    server {\n" +
			repeat(4, 4, "        ", "listen 127.0.0.1:800%d;") + "    }\n}\n",
	},
}

func runListenSocketCount(p *analyzer.Pass) {
	limit := maxSockets.Get(p)
	r := costpass.Get(p)
	c := r.Counts
	if c.SocketsStart <= limit {
		return
	}
	// Report at the port with the most sockets.
	var worst *costmodel.Port
	for _, port := range r.Ports {
		if worst == nil || port.Sockets > worst.Sockets {
			worst = port
		}
	}
	var at *costmodel.Addr
	for _, a := range worst.Addrs {
		if a.Socket {
			at = a
			break
		}
	}
	if at == nil {
		return
	}
	msg := fmt.Sprintf("%d listening sockets at start (%d under nginx -t", c.SocketsStart, c.SocketsTest)
	if c.SocketsStart > c.SocketsTest {
		msg += fmt.Sprintf("; reuseport clones one per worker for %d workers", c.Workers)
	}
	msg += fmt.Sprintf(") ≈ %s of socket, bind and listen", costmodel.Seconds(float64(c.SocketsStart)*r.Profile.Cost(costmodel.CostSocket)))
	d := reportAt(p, at, "%s", msg)
	// A limit the user set (max-sockets in the settings, cost
	// --max-sockets) is a gate; the default is advice.
	if maxSockets.Given(p) {
		d.Message += fmt.Sprintf(", over max-sockets %d", limit)
		d.Severity = parser.Error
	}
}

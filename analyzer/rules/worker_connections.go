package rules

import (
	"fmt"
	"strconv"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/costpass"
	"github.com/nginx-lint/nginx-lint/parser"
)

// WorkerConnections reports worker_connections that cannot hold the
// listening sockets.
var WorkerConnections = &analyzer.Rule{
	Code: "NL4004", Name: "worker-connections", Title: "worker_connections is not above the number of listening sockets", Severity: parser.Error,
	Cost:    true,
	Fixable: true,
	Run:     runWorkerConnections,
	Options: withCostOptions(),
	Doc: analyzer.Doc{
		Text: "Every worker keeps one connection per listening socket plus one for the channel to the " +
			"master, so nginx refuses `worker_connections` not above the number of sockets " +
			"(`ngx_event_init_conf`: `512 worker_connections are not enough for 512 listening " +
			"sockets`). Raise `worker_connections` (and `worker_rlimit_nofile`), or open fewer sockets.",
		Bad:  "events {\n    worker_connections 2;\n}\nhttp {\n    server { listen 127.0.0.1:8001; }\n    server { listen 127.0.0.1:8002; }\n}\n",
		Good: "events {\n    worker_connections 3;\n}\nhttp {\n    server { listen 127.0.0.1:8001; }\n    server { listen 127.0.0.1:8002; }\n}\n",
	},
}

func runWorkerConnections(p *analyzer.Pass) {
	r := costpass.Get(p)
	l := r.Limits[0]
	if l.OK {
		return
	}
	msg := l.Message + fmt.Sprintf(" (nginx needs at least %d)", l.Need)
	if l.Directive != nil {
		d := l.Directive
		diag := p.Reportf(d.File, d.Args()[0].Range, "%s", msg)
		diag.Edits = []parser.Edit{{File: d.File, Range: d.Args()[0].Range, NewText: strconv.Itoa(l.Need)}}
		return
	}
	if a := r.FirstSocket(); a != nil {
		reportAt(p, a, "%s; the default is 512", msg)
	}
}

package rules

import (
	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
)

// workerProcessesReport turns worker-processes-unset on.
var workerProcessesReport = analyzer.BoolOption("report", false, "Run the check (opt-in: one worker is the right choice in a container that is given one CPU).")

// WorkerProcessesUnset reports a configuration that leaves nginx with
// its default of one worker process.
var WorkerProcessesUnset = &analyzer.Rule{
	Code: "NL4010", Name: "worker-processes-unset", Title: "worker_processes is not set: nginx runs one worker", Severity: parser.Info,
	Run:     runWorkerProcessesUnset,
	Options: []analyzer.Option{workerProcessesReport.Decl()},
	Doc: analyzer.Doc{
		Text: "nginx's default is `worker_processes 1`: one process, one CPU core, for every connection. " +
			"Distribution packages set `worker_processes auto;` (one per core) in their `nginx.conf`; a " +
			"configuration written from scratch often forgets it. In a container limited to one CPU one " +
			"worker is right (and `auto` counts the host's cores, not the container's), so the check " +
			"is opt-in: `report: true` in the rule's options. It then reports once, for a whole " +
			"configuration (one with `events {}`), when no `worker_processes` is set.",
		Bad:  "events {}\nhttp {\n    server {\n        listen 80;\n    }\n}\n",
		Good: "worker_processes auto;\nevents {}\nhttp {\n    server {\n        listen 80;\n    }\n}\n",
		URL:  "https://nginx.org/en/docs/ngx_core_module.html#worker_processes",
	},
}

func runWorkerProcessesUnset(p *analyzer.Pass) {
	ix := p.Index()
	if !workerProcessesReport.Get(p) || !p.WholeConfig() || len(ix.Named("worker_processes")) > 0 {
		return
	}
	for _, i := range ix.Named("events") {
		if e := &ix.Entries[i]; e.Parent < 0 {
			diag := p.ReportDirective(e.Directive, "worker_processes is not set: nginx runs a single worker process, on one CPU core")
			diag.Detail = "add worker_processes auto; to the main context for one worker per core"
			return
		}
	}
}

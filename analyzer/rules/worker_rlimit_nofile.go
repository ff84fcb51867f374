package rules

import (
	"strconv"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/internal/ngxparse"
	"github.com/nginx-lint/nginx-lint/parser"
)

// WorkerRlimitNofile reports workers whose open-file limit cannot hold
// their connections.
var WorkerRlimitNofile = &analyzer.Rule{
	Code: "NL4008", Name: "worker-rlimit-nofile", Title: "worker_connections need more open files than a worker may have", Severity: parser.Warning,
	Run:     runWorkerRlimitNofile,
	Options: withCostOptions(),
	Doc: analyzer.Doc{
		Text: "Each connection is a file descriptor, and a proxied request holds two (the client's and " +
			"the upstream's), so a busy worker needs about twice `worker_connections` descriptors. " +
			"`worker_rlimit_nofile` sets a worker's limit; without it the worker keeps the limit it was " +
			"started with (`nofile` under `host:` in the settings, else 1024, systemd's default soft limit). Past the " +
			"limit, `accept()` and `socket()` fail with `(24: Too many open files)` under load. nginx " +
			"itself only warns when `worker_connections` alone exceeds the limit. Reported when the " +
			"limit is below twice `worker_connections` (512 when unset): a warning when " +
			"`worker_rlimit_nofile` or the host's `nofile` says the limit, information when it is the assumed 1024.",
		Bad:  "worker_rlimit_nofile 1024;\nevents {\n    worker_connections 1024;\n}\n",
		Good: "worker_rlimit_nofile 4096;\nevents {\n    worker_connections 1024;\n}\n",
		URL:  "https://nginx.org/en/docs/ngx_core_module.html#worker_rlimit_nofile",
	},
}

func runWorkerRlimitNofile(p *analyzer.Pass) {
	ix := p.Index()
	var conns, limit *parser.Directive
	for _, i := range ix.Named("worker_connections") {
		conns = ix.Entries[i].Directive
	}
	for _, i := range ix.Named("worker_rlimit_nofile") {
		limit = ix.Entries[i].Directive
	}
	need := 2 * 512
	if conns != nil {
		n, ok := numberArg(conns)
		if !ok {
			return
		}
		need = 2 * n
	}
	if limit != nil {
		n, ok := numberArg(limit)
		if !ok || n >= need {
			return
		}
		diag := p.ReportDirective(limit, "worker_rlimit_nofile %d is below twice worker_connections (%d): a worker proxying that many requests runs out of file descriptors", n, need/2)
		diag.Detail = "a proxied request holds two descriptors, the client's and the upstream's; set worker_rlimit_nofile " + strconv.Itoa(need) + " or more"
		return
	}
	if conns == nil {
		return
	}
	soft, assumed := p.Host.NoFile, false
	if soft <= 0 {
		soft, assumed = 1024, true
	}
	if need <= soft {
		return
	}
	diag := p.ReportDirective(conns, "worker_connections %d without worker_rlimit_nofile: workers keep the open-file limit they start with (%d), below the %d descriptors that many proxied connections take", need/2, soft, need)
	diag.Detail = "set worker_rlimit_nofile " + strconv.Itoa(need) + " in the main context (the option nofile says what limit nginx starts with)"
	if assumed && diag.Severity == p.Rule.Severity {
		// The limit is a guess about the host: information, unless the
		// user set the rule's severity.
		diag.Severity = parser.Info
	}
}

// numberArg returns d's single argument as nginx reads a number
// (ngx_atoi, which worker_connections and worker_rlimit_nofile's slots
// call).
func numberArg(d *parser.Directive) (int, bool) {
	if len(d.Args()) != 1 {
		return 0, false
	}
	return ngxparse.Atoi(d.Args()[0].Value)
}

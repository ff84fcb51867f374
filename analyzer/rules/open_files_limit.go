package rules

import (
	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/costpass"
	"github.com/nginx-lint/nginx-lint/parser"
)

// OpenFilesLimit reports a master that needs more descriptors than the
// limit allows.
var OpenFilesLimit = &analyzer.Rule{
	Code: "NL4005", Name: "open-files-limit", Title: "the master needs more open files than the limit", Severity: parser.Warning,
	Cost:    true,
	Run:     runOpenFilesLimit,
	Options: withCostOptions(),
	Doc: analyzer.Doc{
		Text: "The master process holds every listening socket (with `reuseport`, one per worker), the " +
			"log files and its standard streams. Past the open-file limit `socket()` fails with " +
			"`(24: Too many open files)`. `worker_rlimit_nofile` raises the workers' limit only; the " +
			"master's comes from the service manager (systemd's default soft limit is 1024: set " +
			"`LimitNOFILE=` in the unit). The limit is the option `nofile` (default 1024). nginx cannot " +
			"start past it, so a limit given explicitly (the option, or `nginx-lint cost --nofile`) makes " +
			"the finding an error; against the assumed default it stays a warning.",
		Bad: "worker_processes 256;\nevents { worker_connections 2048; }\nhttp {\n    server {\n" +
			repeat(4, 4, "        ", "listen 127.0.0.1:800%d reuseport;") + "    }\n}\n",
		Good: "worker_processes 4;\nevents { worker_connections 2048; }\nhttp {\n    server {\n" +
			repeat(4, 4, "        ", "listen 127.0.0.1:800%d reuseport;") + "    }\n}\n",
	},
}

func runOpenFilesLimit(p *analyzer.Pass) {
	r := costpass.Get(p)
	l := r.Limits[1]
	if l.OK {
		return
	}
	if a := r.FirstSocket(); a != nil {
		d := reportAt(p, a, "%s", l.Message)
		// Past the limit nginx cannot start; but 1024 is only the usual
		// default, so that is certain only for a limit the user gave.
		if p.Host.NoFile > 0 {
			d.Severity = parser.Error
		}
	}
}

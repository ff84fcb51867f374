package rules

import (
	"fmt"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/costpass"
	"github.com/nginx-lint/nginx-lint/parser"
)

// startupBudget is the startup time allowed.
var startupBudget = analyzer.DurationOption("budget", time.Second, "The startup time allowed (\"2s\", \"800ms\" or seconds); setting it makes a finding an error.")

// DefaultStartupBudget is the startup-budget rule's budget when no option
// sets one: the default its option declares (the chart of nginx-lint cost
// draws it).
var DefaultStartupBudget = startupBudget.Default()

// StartupBudget reports an estimated startup above a budget.
var StartupBudget = &analyzer.Rule{
	Code: "NL4007", Name: "startup-budget", Title: "estimated startup exceeds the budget", Severity: parser.Warning,
	Cost:    true,
	Run:     runStartupBudget,
	Options: withCostOptions(startupBudget.Decl()),
	Doc: analyzer.Doc{
		Text: "nginx-lint estimates how long nginx takes to start from the configuration alone (see " +
			"`nginx-lint cost`). The budget is the option `budget` (a duration, default 1s) or " +
			"`nginx-lint cost --startup-budget`; an explicit budget makes the finding an error, for CI " +
			"gates. Reload takes about twice as long, since the signaller and the master both read the " +
			"configuration.",
		Bad: "worker_processes 1024;\nevents { worker_connections 4096; }\nhttp {\n    server {\n" +
			repeat(160, 8, "        ", "listen 127.0.0.1:%d reuseport;") + "    }\n}\n",
		Good: "worker_processes 4;\nevents { worker_connections 4096; }\nhttp {\n    server {\n" +
			repeat(160, 8, "        ", "listen 127.0.0.1:%d reuseport;") + "    }\n}\n",
	},
}

func runStartupBudget(p *analyzer.Pass) {
	// A budget the user set is a gate: exceeding it is an error.
	explicit := startupBudget.Given(p)
	budget := startupBudget.Get(p)
	r := costpass.Get(p)
	est := time.Duration(r.StartupSeconds * float64(time.Second))
	if est <= budget {
		return
	}
	top := r.Contributors(1)
	msg := fmt.Sprintf("estimated startup %s exceeds the budget of %s (nginx -t %s, reload %s)",
		costmodel.Seconds(r.StartupSeconds), budget, costmodel.Seconds(r.TestSeconds), costmodel.Seconds(r.ReloadSeconds))
	var d *parser.Diagnostic
	if h := r.HTTPBlock; h != nil {
		d = p.ReportDirective(h, "%s", msg)
	} else {
		d = p.Reportf(p.Config.Main, parser.Range{}, "%s", msg)
	}
	if len(top) > 0 {
		d.Detail = "largest cost: " + top[0]
	}
	if explicit {
		d.Severity = parser.Error
	}
}

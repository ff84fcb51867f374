package rules

import (
	"fmt"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/parser"
)

// The cost rules' helpers: what the startup-cost rules (category 4, Cost)
// share in how they declare options, report and document themselves. The
// model they read is the run's, costpass.Get; the host facts that change
// it are run-wide (Pass.Host), and so is the calibration profile
// (costpass.Profile), so every rule reads the same model. This file holds
// no rule (TestRulesFilesHoldRules allows it by name).

// withCostOptions returns a rule's own options followed by the host facts
// the cost rules accepted before the settings' host: section, still
// accepted there, deprecated (analyzer.HostAliases): the settings fold
// them into the run-wide Host, so a rule never reads them itself.
func withCostOptions(own ...analyzer.Option) []analyzer.Option {
	return append(own, analyzer.HostAliases()...)
}

// reportAt reports at a listen directive's address argument, or at the
// server block when the listen is implied, or at the main file's start.
func reportAt(p *analyzer.Pass, a *costmodel.Addr, format string, args ...any) *parser.Diagnostic {
	if d := a.First(); d != nil {
		r := d.Name().Range
		if len(d.Args()) > 0 {
			r = d.Args()[0].Range
		}
		return p.Reportf(d.File, r, format, args...)
	}
	if len(a.Instances) > 0 && a.Instances[0].Server != nil {
		return p.ReportDirective(a.Instances[0].Server.Directive, format, args...)
	}
	return p.Reportf(p.Config.Main, parser.Range{}, format, args...)
}

// repeat writes n copies of format (with the index, from 1), per to a
// line, for the documentation examples of rules about large configs.
func repeat(n, per int, indent, format string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if (i-1)%per == 0 {
			b.WriteString(indent)
		}
		fmt.Fprintf(&b, format, i)
		if i%per == 0 || i == n {
			b.WriteString("\n")
		} else {
			b.WriteString(" ")
		}
	}
	return b.String()
}

package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/internal/didyoumean"
)

type rulesCmd struct{}

func (rulesCmd) run(e *env) (int, error) {
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CODE\tNAME\tSEVERITY\tTITLE")
	for _, r := range rules.All().Rules() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Code, r.Name, r.Severity, r.Title)
	}
	return exitClean, tw.Flush()
}

type explainCmd struct {
	Rule string `arg:"" name:"rule" help:"Rule name or code."`
}

func (cmd explainCmd) run(e *env) (int, error) {
	reg := rules.All()
	r := reg.Lookup(cmd.Rule)
	if r == nil {
		return 0, usageError{fmt.Sprintf("no rule %q%s (see nginx-lint rules)", cmd.Rule, didyoumean.Suffix(reg.Suggest(cmd.Rule)))}
	}
	_, err := fmt.Fprint(e.stdout, rules.Markdown(r))
	return exitClean, err
}

package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
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
	r := rules.All().Lookup(cmd.Rule)
	if r == nil {
		return 0, usageError{fmt.Sprintf("no rule %q (see nginx-lint rules)", cmd.Rule)}
	}
	_, err := fmt.Fprint(e.stdout, explainText(r))
	return exitClean, err
}

// explainText renders a rule's documentation as Markdown; the reference
// pages under docs/rules are the same text.
func explainText(r *analyzer.Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s %s\n\n%s (%s, %s by default)\n\n%s\n", r.Code, r.Name, r.Title, r.Category(), r.Severity, r.Doc.Text)
	fmt.Fprintf(&b, "\n## Bad\n\n```nginx\n%s```\n\n## Good\n\n```nginx\n%s```\n", r.Doc.Bad, r.Doc.Good)
	if r.Doc.URL != "" {
		fmt.Fprintf(&b, "\nSee %s\n", r.Doc.URL)
	}
	return b.String()
}

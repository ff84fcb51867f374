package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/internal/didyoumean"
	"github.com/nginx-lint/nginx-lint/internal/report"
)

type rulesCmd struct {
	Format string `short:"f" enum:"text,json" default:"text" help:"Output format: ${enum} (json: every rule with its category, options and documentation link)."`
}

// jsonRule is the stable JSON schema of one rule in "rules --format json".
type jsonRule struct {
	Code     string `json:"code"`
	Name     string `json:"name"`
	Severity string `json:"severity"`
	Category string `json:"category"`
	Title    string `json:"title"`
	// DocsURL is the rule's reference page (what explain prints), the
	// page SARIF's helpUri and the editor's code link point at.
	DocsURL string `json:"docs_url"`
	// NginxURL is the nginx documentation the rule is about, if any.
	NginxURL string `json:"nginx_url,omitempty"`
	Since    string `json:"since,omitempty"`
	// Fixable is set for a rule whose findings may carry a fix that
	// --fix applies (when the target accepts its result).
	Fixable bool         `json:"fixable"`
	Options []jsonOption `json:"options"`
}

// jsonOption is one option of a rule. Default is written as a user
// would write it in .nginx-lint.yaml ("" when there is none); Type
// names its kind (boolean, integer, string, list of strings, duration).
type jsonOption struct {
	Name       string   `json:"name"`
	Type       string   `json:"type"`
	Default    string   `json:"default"`
	Doc        string   `json:"doc"`
	Deprecated []string `json:"deprecated_names,omitempty"`
}

// Run is called by kong when the command is chosen (run); the exit
// code goes to e.
func (cmd rulesCmd) Run(e *env) error { return e.exit(cmd.run(e)) }

func (cmd rulesCmd) run(e *env) (int, error) {
	all := rules.All().Rules()
	if cmd.Format == "json" {
		out := struct {
			Rules []jsonRule `json:"rules"`
		}{Rules: make([]jsonRule, 0, len(all))}
		for _, r := range all {
			out.Rules = append(out.Rules, toJSONRule(r))
		}
		w := bufio.NewWriter(e.stdout)
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return 0, err
		}
		return exitClean, w.Flush()
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CODE\tNAME\tSEVERITY\tTITLE")
	for _, r := range all {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Code, r.Name, r.Severity, r.Title)
	}
	return exitClean, tw.Flush()
}

func toJSONRule(r *analyzer.Rule) jsonRule {
	j := jsonRule{
		Code: r.Code, Name: r.Name, Severity: r.Severity.String(), Category: r.Category().String(), Title: r.Title,
		DocsURL: report.RuleURL(r.Name), NginxURL: r.Doc.URL, Since: r.Doc.Since, Fixable: r.Fixable, Options: []jsonOption{},
	}
	for _, o := range r.Options {
		j.Options = append(j.Options, jsonOption{Name: o.Name, Type: o.Type.String(), Default: o.Default, Doc: o.Doc, Deprecated: o.Deprecated})
	}
	return j
}

type explainCmd struct {
	Rule   string `arg:"" name:"rule" help:"Rule name or code."`
	Format string `short:"f" enum:"auto,text,markdown" default:"auto" help:"text: rendered for a terminal (wrapped, code indented); markdown: the reference page's source; auto: text on a terminal, else markdown."`
	Color  string `enum:"auto,always,never" default:"auto" help:"Color the text format: ${enum}, as for lint."`
}

// Run is called by kong when the command is chosen (run); the exit
// code goes to e.
func (cmd explainCmd) Run(e *env) error { return e.exit(cmd.run(e)) }

func (cmd explainCmd) run(e *env) (int, error) {
	reg := rules.All()
	r := reg.Lookup(cmd.Rule)
	if r == nil {
		return 0, &lint.UsageError{Msg: fmt.Sprintf("no rule %q%s (see nginx-lint rules)", cmd.Rule, didyoumean.Suffix(reg.Suggest(cmd.Rule)))}
	}
	md := report.RuleMarkdown(r)
	if cmd.Format == "markdown" || (cmd.Format == "auto" && !e.isTerminal) {
		_, err := fmt.Fprint(e.stdout, md)
		return exitClean, err
	}
	return exitClean, renderMarkdown(e.stdout, md, textWidth(e.stdout), useColor(cmd.Color, e.isTerminal))
}

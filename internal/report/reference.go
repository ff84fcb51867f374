package report

import (
	"fmt"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
)

// ReferenceDir is where `go generate ./analyzer/rules` writes the rule
// reference pages (ReferencePages), relative to the repository's top.
const ReferenceDir = "docs/rules"

// RuleURL is where the page of the rule called name is published.
func RuleURL(name string) string {
	return "https://github.com/nginx-lint/nginx-lint/blob/main/docs/rules/" + name + ".md"
}

// RuleMarkdown renders a rule's documentation as a Markdown page: the
// same text `nginx-lint explain` prints, SARIF carries as help and the
// reference page under docs/rules holds, so they cannot drift apart.
func RuleMarkdown(r *analyzer.Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s %s\n\n%s (%s, %s by default)\n\n%s\n", r.Code, r.Name, r.Title, r.Category(), r.Severity, r.Doc.Text)
	fmt.Fprintf(&b, "\n## Bad\n\n```nginx\n%s```\n\n## Good\n\n```nginx\n%s```\n", r.Doc.Bad, r.Doc.Good)
	if len(r.Options) > 0 {
		b.WriteString("\n## Options\n\nSet under `rules: {" + r.Name + ": {options: {...}}}` in `.nginx-lint.yaml`.\n\n")
		b.WriteString("| Option | Type | Default | Meaning |\n|---|---|---|---|\n")
		for _, o := range r.Options {
			def := o.Default
			if def == "" {
				def = "—"
			} else {
				def = "`" + def + "`"
			}
			doc := o.Doc
			if len(o.Deprecated) > 0 {
				doc += " (formerly `" + strings.Join(o.Deprecated, "`, `") + "`, still accepted with a warning)"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", o.Name, o.Type, def, strings.ReplaceAll(doc, "|", `\|`))
		}
	}
	if r.Doc.URL != "" {
		fmt.Fprintf(&b, "\nSee %s\n", r.Doc.URL)
	}
	if r.Doc.Since != "" {
		fmt.Fprintf(&b, "\nSince nginx-lint %s.\n", r.Doc.Since)
	}
	return b.String()
}

// ReferenceIndex renders the index page of the reference: one row per
// rule, linking to its page, in code order.
func ReferenceIndex(rs []*analyzer.Rule) string {
	var b strings.Builder
	b.WriteString("# nginx-lint rules\n\n")
	b.WriteString("Generated from the rule definitions by `go generate ./analyzer/rules`; do not edit.\n")
	b.WriteString("`nginx-lint explain NAME` prints the same pages.\n\n")
	b.WriteString("| Code | Name | Category | Severity | Title |\n|---|---|---|---|---|\n")
	for _, r := range rs {
		fmt.Fprintf(&b, "| %s | [%s](%s) | %s | %s | %s |\n", r.Code, r.Name, ReferencePage(r), r.Category(), r.Severity,
			strings.ReplaceAll(r.Title, "|", `\|`))
	}
	return b.String()
}

// ReferencePages renders every page of ReferenceDir by file name: the
// index, the options table and a page per rule.
func ReferencePages(rs []*analyzer.Rule) map[string]string {
	pages := map[string]string{"README.md": ReferenceIndex(rs), OptionsPage: OptionsTable(rs)}
	for _, r := range rs {
		pages[ReferencePage(r)] = RuleMarkdown(r)
	}
	return pages
}

// OptionsPage is the file name of the options table in ReferenceDir.
const OptionsPage = "options.md"

// OptionsTable renders every rule option, from the rules' declarations:
// the one place a name, type, default and meaning are written.
func OptionsTable(rs []*analyzer.Rule) string {
	var b strings.Builder
	b.WriteString("# Rule options\n\n")
	b.WriteString("Generated from the rule definitions by `go generate ./analyzer/rules`; do not edit.\n")
	b.WriteString("Set them under `rules: {NAME: {options: {...}}}` in `.nginx-lint.yaml`; a rule reads the default when an option is not set.\n\n")
	b.WriteString("| Rule | Option | Type | Default | Meaning |\n|---|---|---|---|---|\n")
	for _, r := range rs {
		for _, o := range r.Options {
			def := "—"
			if o.Default != "" {
				def = "`" + o.Default + "`"
			}
			fmt.Fprintf(&b, "| [%s](%s) | `%s` | %s | %s | %s |\n", r.Name, ReferencePage(r), o.Name, o.Type, def,
				strings.ReplaceAll(o.Doc, "|", `\|`))
		}
	}
	return b.String()
}

// ReferencePage is the file name of a rule's page in ReferenceDir.
func ReferencePage(r *analyzer.Rule) string { return r.Name + ".md" }

package docs

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/config"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
)

// schemaFile is the published JSON Schema of the settings, for
// SchemaStore and editors (see configuration.md).
const schemaFile = "nginx-lint.schema.json"

// TestSchemaUpToDate: the published schema is the one the declarations
// give today (go generate ./analyzer/rules writes it with the rule
// pages), so a new rule or option reaches editors.
func TestSchemaUpToDate(t *testing.T) {
	want, err := config.Schema(rules.All())
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatalf("%v; go generate ./analyzer/rules writes it", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale; go generate ./analyzer/rules rewrites it", schemaFile)
	}
}

// compileSchema compiles the published schema under its draft
// (draft-07), as SchemaStore's and editors' validators do.
func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	b, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(config.SchemaURL, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(config.SchemaURL)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// settingsBlock is one ```yaml block of a page that is a settings file.
type settingsBlock struct {
	where string // page:line
	text  string
}

var fence = regexp.MustCompile("(?m)^( *)```ya?ml\\n")

// settingsExamples are the ```yaml blocks of the documentation that show
// .nginx-lint.yaml, every one but those that show another file: a GitHub
// workflow or Action step, a pre-commit configuration.
func settingsExamples(t *testing.T) []settingsBlock {
	t.Helper()
	pages, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob(filepath.Join("..", "editors", "*", "*.md"))
	pages = append(append(pages, filepath.Join("..", "README.md"), filepath.Join("..", "editors", "README.md")), more...)
	var out []settingsBlock
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		for _, m := range fence.FindAllStringSubmatchIndex(src, -1) {
			indent := src[m[2]:m[3]]
			rest := src[m[1]:]
			end := strings.Index(rest, "\n"+indent+"```")
			if end < 0 {
				t.Fatalf("%s: unterminated yaml block", p)
			}
			var lines []string
			for _, l := range strings.Split(rest[:end+1], "\n") {
				lines = append(lines, strings.TrimPrefix(l, indent))
			}
			text := strings.Join(lines, "\n")
			if !isSettings(text) {
				continue
			}
			line := strings.Count(src[:m[1]], "\n") + 1
			out = append(out, settingsBlock{p + ":" + itoa(line), text})
		}
	}
	return out
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// isSettings tells a settings file from the other YAML the pages show:
// a list (workflow steps), a block that starts indented (a fragment of
// a workflow), or a mapping with a workflow's or pre-commit's keys.
func isSettings(text string) bool {
	var doc yaml.Node
	if yaml.Unmarshal([]byte(text), &doc) != nil || len(doc.Content) == 0 {
		return true // let the test say it does not parse
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i < len(top.Content); i += 2 {
		switch top.Content[i].Value {
		case "name", "on", "jobs", "repos", "with", "steps", "permissions", "uses":
			return false
		}
	}
	return !strings.HasPrefix(strings.TrimLeft(text, "\n"), " ")
}

// instance is a settings text as the schema sees it: YAML decoded, then
// the JSON of it, as an editor's validator has it.
func instance(t *testing.T, text string) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal([]byte(text), &v); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return inst
}

// readable reports whether nginx-lint reads text as settings: it parses
// and applies to the registry.
func readable(text string) error {
	f, err := config.Parse("/x/.nginx-lint.yaml", []byte(text))
	if err != nil {
		return err
	}
	opts := analyzer.Options{}
	return f.Apply(&opts, rules.All().Lookup)
}

// TestSchemaValidatesSettingsExamples: every settings file the pages
// show is valid under the schema and read by nginx-lint; a misspelt key,
// rule, option, host fact or fmt key is refused by both.
func TestSchemaValidatesSettingsExamples(t *testing.T) {
	s := compileSchema(t)
	examples := settingsExamples(t)
	if len(examples) < 4 {
		t.Fatalf("only %d settings examples found in the pages", len(examples))
	}
	for _, ex := range examples {
		if err := readable(ex.text); err != nil {
			t.Errorf("%s: nginx-lint does not read it: %v", ex.where, err)
		}
		if err := s.Validate(instance(t, ex.text)); err != nil {
			t.Errorf("%s: not valid under %s: %v", ex.where, schemaFile, err)
		}
	}
	main := ""
	for _, ex := range examples {
		if strings.HasPrefix(ex.where, "configuration.md:") && strings.Contains(ex.text, "rules:") && strings.Contains(ex.text, "host:") {
			main = ex.text
		}
	}
	if main == "" {
		t.Fatal("configuration.md shows no full settings file")
	}
	for _, tc := range []struct{ from, to string }{
		{"\nrules:", "\nrulez:"},
		{"version-disclosure: off", "version-disclosur: off"},
		{"max-sockets: 500", "max-socket: 500"},
		{"nofile: 65536", "nofiles: 65536"},
		{"indent: tab", "indnet: tab"},
		{"unknown-directive: error", "unknown-directive: eror"},
		{"check-files: true", "check-files: maybe"},
	} {
		if !strings.Contains(main, tc.from) {
			t.Fatalf("the example has no %q", tc.from)
		}
		bad := strings.Replace(main, tc.from, tc.to, 1)
		if err := s.Validate(instance(t, bad)); err == nil {
			t.Errorf("%q: the schema accepts it", strings.TrimSpace(tc.to))
		}
		if err := readable(bad); err == nil {
			t.Errorf("%q: nginx-lint reads it", strings.TrimSpace(tc.to))
		}
	}
}

// TestSchemaAcceptsWhatNginxLintReads: the forms Parse and Convert accept
// beside the plain one (a number as a string, a kernel that YAML reads
// as a number, a rule by code, a duration in seconds, a former option
// name) are valid under the schema too, so an editor never underlines a
// file nginx-lint reads.
func TestSchemaAcceptsWhatNginxLintReads(t *testing.T) {
	s := compileSchema(t)
	for _, text := range []string{
		"",
		"rules:\n  NL4002: {options: {max-sockets: \"500\"}}\n",
		"rules:\n  listen-socket-count: true\n  version-disclosure: \"off\"\n  NL2003: Warning\n",
		"host: {kernel: 5.15, nofile: 65536, nonroot: true}\n",
		"rules:\n  startup-budget: {options: {budget: 2}}\n  NL4007: {options: {budget: 1.5s}}\n",
		"fmt: {indent: 2, spacing: single, max-blank-lines: 1}\n",
		"max-file-size: 32MiB\ncost-profile: ./profile.json\nnginx-version: 1.22.1\n",
		"rules:\n  open-files-limit: {options: {nofile: 4096}}\n",
	} {
		if err := readable(text); err != nil {
			t.Errorf("%q: nginx-lint does not read it: %v", text, err)
			continue
		}
		if err := s.Validate(instance(t, text)); err != nil {
			t.Errorf("%q: refused by the schema: %v", text, err)
		}
	}
}

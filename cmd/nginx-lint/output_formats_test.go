package main

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/internal/testfiles"

	nlrules "github.com/nginx-lint/nginx-lint/analyzer/rules"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
)

// writeConf writes files into a fresh directory and returns it.
func writeConf(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	testfiles.Write(t, dir, files)
	return dir
}

// chdir moves the test into dir; output formats print paths relative to
// the working directory.
func chdir(t *testing.T, dir string) {
	t.Helper()
	t.Chdir(dir)
}

// findingsConf has an error with a fix, a warning, a multi-byte character
// before a finding (UTF-16 columns), and characters GitHub must escape.
const findingsConf = "events {}\nhttp {\n    server {\n        server_name \"é\"; gzipp on;\n" +
	"        location / {\n            proxy_passs http://127.0.0.1;\n        }\n        root /srv\n    }\n}\n"

func TestSARIFSchema(t *testing.T) {
	dir := writeConf(t, map[string]string{"conf/nginx.conf": findingsConf})
	chdir(t, dir)
	code, out, errOut := runCLI(t, "", "--format", "sarif", "conf/nginx.conf")
	if code != exitFindings {
		t.Fatalf("exit %d\n%s", code, errOut)
	}

	sch := compileSARIFSchema(t)
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("SARIF output is not valid against the 2.1.0 schema: %v", err)
	}
	// The validator must reject a broken log, or the check above proves
	// nothing.
	broken := strings.Replace(out, `"version": "2.1.0"`, `"version": "2.0"`, 1)
	bad, _ := jsonschema.UnmarshalJSON(strings.NewReader(broken))
	if sch.Validate(bad) == nil {
		t.Fatal("schema accepted version 2.0")
	}

	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID, Name, HelpURI    string
						ShortDescription     struct{ Text string }
						DefaultConfiguration struct{ Level string }
					}
				}
			}
			Results []struct {
				RuleID    string
				RuleIndex int
				Level     string
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI, URIBaseID string }
						Region           struct{ StartLine, StartColumn, EndLine, EndColumn int }
					}
				}
				Fixes []struct {
					ArtifactChanges []struct {
						Replacements []struct {
							DeletedRegion   struct{ StartLine, StartColumn, EndColumn int }
							InsertedContent struct{ Text string }
						}
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	rules := run.Tool.Driver.Rules
	if len(rules) < len(nlrules.All().Rules()) {
		t.Errorf("%d rules in metadata, registry has %d", len(rules), len(nlrules.All().Rules()))
	}
	byCode := map[string]int{}
	for i, r := range rules {
		byCode[r.ID] = i
	}
	ud := rules[byCode["NL2001"]]
	if ud.Name != "unknown-directive" || ud.DefaultConfiguration.Level != "error" || ud.ShortDescription.Text == "" ||
		ud.HelpURI != "https://github.com/nginx-lint/nginx-lint/blob/main/docs/rules/unknown-directive.md" {
		t.Errorf("rule metadata %+v", ud)
	}
	got := map[string]bool{}
	for _, r := range run.Results {
		if rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("ruleIndex %d does not point at %s", r.RuleIndex, r.RuleID)
		}
		loc := r.Locations[0].PhysicalLocation
		if loc.ArtifactLocation.URI != "conf/nginx.conf" || loc.ArtifactLocation.URIBaseID != "SRCROOT" {
			t.Errorf("artifact %+v", loc.ArtifactLocation)
		}
		switch {
		case strings.Contains(r.Message.Text, "gzipp"):
			// Line 4: `        server_name "é"; gzipp on;` — é is two
			// bytes but one UTF-16 unit, so gzipp starts at column 26
			// (byte column 27).
			if loc.Region.StartLine != 4 || loc.Region.StartColumn != 26 || loc.Region.EndColumn != 31 {
				t.Errorf("gzipp region %+v", loc.Region)
			}
			got["gzipp"] = true
		case strings.Contains(r.Message.Text, "proxy_passs"):
			if len(r.Fixes) != 1 || r.Fixes[0].ArtifactChanges[0].Replacements[0].InsertedContent.Text != "proxy_pass" {
				t.Errorf("fix %+v", r.Fixes)
			} else if dr := r.Fixes[0].ArtifactChanges[0].Replacements[0].DeletedRegion; dr.StartLine != 6 || dr.StartColumn != 13 || dr.EndColumn != 24 {
				t.Errorf("fix region %+v", dr)
			}
			got["fix"] = true
		case r.RuleID == parser.CodeSyntax:
			if r.Level != "error" {
				t.Errorf("syntax error level %q", r.Level)
			}
			got["syntax"] = true
		}
	}
	if len(got) != 3 {
		t.Errorf("missing results: have %v\n%s", got, out)
	}
}

// compileSARIFSchema compiles the published SARIF 2.1.0 schema.
func compileSARIFSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	schemaFile, err := os.Open(filepath.Join(testdataDir(t), "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer schemaFile.Close()
	doc, err := jsonschema.UnmarshalJSON(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("sarif-schema-2.1.0.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// testdataDir is this package's testdata, found before a test changes
// directory.
var testdataAbs, _ = filepath.Abs("testdata")

func testdataDir(t *testing.T) string {
	t.Helper()
	return testdataAbs
}

func TestSARIFEmptyAndUnreadable(t *testing.T) {
	dir := writeConf(t, map[string]string{"clean.conf": "events {}\n"})
	chdir(t, dir)
	code, out, _ := runCLI(t, "", "-f", "sarif", "clean.conf", "missing.conf")
	if code != exitError {
		t.Errorf("exit %d", code)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           *struct{}
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range log.Runs[0].Results {
		if r.RuleID != parser.CodeUnreadable {
			continue
		}
		found = true
		if loc := r.Locations[0].PhysicalLocation; loc.Region != nil || !strings.HasSuffix(loc.ArtifactLocation.URI, "missing.conf") {
			t.Errorf("unreadable result %+v", r)
		}
	}
	if !found {
		t.Errorf("no unreadable-file result:\n%s", out)
	}
}

func TestGitHubOutput(t *testing.T) {
	dir := writeConf(t, map[string]string{"a,b.conf": "events {}\nhttp {\n    gzipp on;\n    gzip maybe;\n}\n"})
	chdir(t, dir)
	code, out, _ := runCLI(t, "", "--format", "github", "a,b.conf")
	if code != exitFindings {
		t.Fatalf("exit %d", code)
	}
	// Other rules may fire on this config too; look at the two it is about.
	var got []string
	for _, line := range strings.SplitAfter(out, "\n") {
		if strings.Contains(line, "title=NL2001 ") || strings.Contains(line, "title=NL2003 ") {
			got = append(got, line)
		}
	}
	want := "::error file=a%2Cb.conf,line=3,col=5,endLine=3,endColumn=10,title=NL2001 unknown-directive::unknown directive \"gzipp\"; did you mean \"gzip\"?" +
		"%0Aa near miss of a known directive; nginx refuses to start on it. If a third-party module defines it, declare it under custom-directives in .nginx-lint.yaml\n" +
		"::error file=a%2Cb.conf,line=4,col=10,endLine=4,endColumn=15,title=NL2003 invalid-arguments::invalid value \"maybe\" in \"gzip\" directive, it must be \"on\" or \"off\"\n"
	if strings.Join(got, "") != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(line, "::error ") && !strings.HasPrefix(line, "::warning ") && !strings.HasPrefix(line, "::notice ") {
			t.Errorf("not a workflow command: %q", line)
		}
	}
}

func TestCheckstyleOutput(t *testing.T) {
	dir := writeConf(t, map[string]string{
		"nginx.conf": "events {}\nhttp {\n    gzipp on;\n    include inc.conf;\n}\n",
		"inc.conf":   "gzip <maybe>;\n",
	})
	chdir(t, dir)
	code, out, _ := runCLI(t, "", "-f", "checkstyle", "nginx.conf")
	if code != exitFindings {
		t.Fatalf("exit %d", code)
	}
	if !strings.HasPrefix(out, "<?xml") {
		t.Errorf("no XML header: %q", out[:min(len(out), 40)])
	}
	var doc struct {
		Files []struct {
			Name   string `xml:"name,attr"`
			Errors []struct {
				Line     int    `xml:"line,attr"`
				Column   int    `xml:"column,attr"`
				Severity string `xml:"severity,attr"`
				Message  string `xml:"message,attr"`
				Source   string `xml:"source,attr"`
			} `xml:"error"`
		} `xml:"file"`
	}
	if err := xml.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(doc.Files) != 2 || doc.Files[0].Name != "inc.conf" || doc.Files[1].Name != "nginx.conf" {
		t.Fatalf("files %+v", doc.Files)
	}
	found := false
	for _, e := range doc.Files[0].Errors {
		if e.Source != "nginx-lint.NL2003.invalid-arguments" {
			continue
		}
		found = true
		if e.Line != 1 || e.Column != 6 || e.Severity != "error" || !strings.Contains(e.Message, `"<maybe>"`) {
			t.Errorf("error %+v", e)
		}
	}
	if !found {
		t.Errorf("no invalid-arguments in inc.conf:\n%s", out)
	}
}

func TestTextGroupsFiles(t *testing.T) {
	dir := writeConf(t, map[string]string{
		"a.conf": "events {}\nhttp {\n    gzipp on;\n}\n",
		"b.conf": "events {}\nhttp {\n    gzipq on;\n}\n",
	})
	chdir(t, dir)
	_, out, _ := runCLI(t, "", "--color", "never", "a.conf", "b.conf")
	parts := strings.Split(out, "\n\n")
	if len(parts) != 2 || !strings.Contains(parts[0], "a.conf:3:5") || !strings.Contains(parts[1], "b.conf:3:5") ||
		strings.Contains(parts[0], "b.conf") || strings.Contains(parts[1], "a.conf") {
		t.Errorf("not grouped by file:\n%s", out)
	}
	if !strings.HasSuffix(out, " in 2 files\n") {
		t.Errorf("summary:\n%s", out)
	}
}

func TestSARIFRuleMetadataCoversSuppression(t *testing.T) {
	reg := nlrules.All()
	for _, code := range []string{"NL5001", "NL5002", "NL5003"} {
		if r := reg.Lookup(code); r == nil || r.Category() != analyzer.Style {
			t.Errorf("%s missing from the lint registry", code)
		}
	}
}

// gitlabIssue is the part of a Code Quality issue GitLab's merge request
// widget reads.
type gitlabIssue struct {
	Description string `json:"description"`
	CheckName   string `json:"check_name"`
	Fingerprint string `json:"fingerprint"`
	Severity    string `json:"severity"`
	Location    struct {
		Path  string `json:"path"`
		Lines struct {
			Begin int `json:"begin"`
			End   int `json:"end"`
		} `json:"lines"`
	} `json:"location"`
}

// TestGitLabOutput: a Code Quality report GitLab's merge request widget
// reads: every issue has the fields it needs, fingerprints are unique
// (GitLab shows one issue per fingerprint) and do not change when lines
// move above a finding, so the widget does not call it new.
func TestGitLabOutput(t *testing.T) {
	src := "events {}\nhttp {\n    gzipp on;\n    gzipp on;\n    server_tokens on;\n}\n"
	dir := writeConf(t, map[string]string{"nginx.conf": src})
	chdir(t, dir)
	report := func() []gitlabIssue {
		t.Helper()
		code, out, errs := runCLI(t, "", "-f", "gitlab", "nginx.conf")
		if code != exitFindings {
			t.Fatalf("exit %d: %s", code, errs)
		}
		var issues []gitlabIssue
		if err := json.Unmarshal([]byte(out), &issues); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return issues
	}
	issues := report()
	if len(issues) < 3 {
		t.Fatalf("%d issues, want the two gzipp and server_tokens", len(issues))
	}
	seen := map[string]bool{}
	lines := map[int]string{}
	for _, is := range issues {
		if is.Description == "" || is.CheckName == "" || len(is.Fingerprint) != 32 || is.Location.Path != "nginx.conf" || is.Location.Lines.Begin < 1 {
			t.Errorf("incomplete issue %+v", is)
		}
		if seen[is.Fingerprint] {
			t.Errorf("fingerprint %s twice", is.Fingerprint)
		}
		seen[is.Fingerprint] = true
		switch is.Severity {
		case "info", "minor", "major":
		default:
			t.Errorf("severity %q", is.Severity)
		}
		lines[is.Location.Lines.Begin] = is.CheckName
	}
	if !strings.HasPrefix(lines[3], "NL2001 ") || !strings.HasPrefix(lines[4], "NL2001 ") {
		t.Errorf("unknown directives not on lines 3 and 4: %v", lines)
	}
	// Two blank lines above everything: the same fingerprints.
	if err := os.WriteFile(filepath.Join(dir, "nginx.conf"), []byte("\n\n"+src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, is := range report() {
		if !seen[is.Fingerprint] {
			t.Errorf("moved finding %s at line %d got a new fingerprint", is.CheckName, is.Location.Lines.Begin)
		}
	}
}

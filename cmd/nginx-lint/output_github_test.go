package main

import (
	"encoding/json"
	"encoding/xml"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/nginx-lint/nginx-lint/analyzer"
	nlrules "github.com/nginx-lint/nginx-lint/analyzer/rules"
)

// fingerprintKey names nginx-lint's fingerprint among a SARIF result's
// partialFingerprints; code scanning matches alerts across uploads by it.
const fingerprintKey = "nginxLintFingerprint/v1"

// githubSARIF is the part of a SARIF log GitHub code scanning reads.
type githubSARIF struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Name, Version, SemanticVersion string
				Rules                          []struct {
					ID         string
					Properties map[string]any
				}
			}
		}
		Results []struct {
			RuleID              string
			RuleIndex           *int
			Message             struct{ Text string }
			PartialFingerprints map[string]string
			Locations           []struct {
				PhysicalLocation struct {
					ArtifactLocation struct{ URI, URIBaseID string }
					Region           struct{ StartLine int }
				}
			}
		}
	}
}

// TestSARIFForGitHub checks what GitHub's code scanning upload needs on
// top of the SARIF schema: fingerprints that survive moved lines, the
// security metadata of security rules, a semantic version, rule indexes
// that match rule ids, and relative URIs that are RFC 3986 references.
func TestSARIFForGitHub(t *testing.T) {
	old := version
	version = "v1.4.2"
	t.Cleanup(func() { version = old })

	conf := "events {}\nhttp {\n    server_tokens on;\n    gzipp on;\n    server {\n        location /a { alias /srv/a/; }\n    }\n}\n"
	site := "server {\n    gzipq on;\n}\n"
	dir := writeConf(t, map[string]string{"conf/nginx.conf": conf, "a:b/x.conf": site, "with space/y.conf": site})
	chdir(t, dir)
	lint := func() (string, githubSARIF) {
		t.Helper()
		_, out, errOut := runCLI(t, "", "-f", "sarif", "conf/nginx.conf", "a:b/x.conf", "with space/y.conf")
		var log githubSARIF
		if err := json.Unmarshal([]byte(out), &log); err != nil {
			t.Fatalf("%v\n%s%s", err, out, errOut)
		}
		return out, log
	}
	out, log := lint()
	inst, _ := jsonschema.UnmarshalJSON(strings.NewReader(out))
	if err := compileSARIFSchema(t).Validate(inst); err != nil {
		t.Fatalf("not valid SARIF 2.1.0: %v", err)
	}
	run := log.Runs[0]
	if d := run.Tool.Driver; d.Version != "v1.4.2" || d.SemanticVersion != "1.4.2" {
		t.Errorf("driver version %q, semanticVersion %q", d.Version, d.SemanticVersion)
	}

	// Rules: precision on all; security rules tagged with a severity
	// score GitHub can rank, the others with a problem severity.
	security := 0
	for _, r := range run.Tool.Driver.Rules {
		p := r.Properties
		switch p["precision"] {
		case "very-high", "high", "medium", "low":
		default:
			t.Errorf("%s: precision %v", r.ID, p["precision"])
		}
		tags, _ := p["tags"].([]any)
		tagged := false
		for _, tag := range tags {
			tagged = tagged || tag == "security"
		}
		sev, hasSev := p["security-severity"].(string)
		if rr := nlrules.All().Lookup(r.ID); rr != nil && rr.Category() == analyzer.Security {
			security++
			f, err := strconv.ParseFloat(sev, 64)
			if !tagged || !hasSev || err != nil || f <= 0 || f > 10 {
				t.Errorf("%s: tags %v, security-severity %q", r.ID, tags, sev)
			}
		} else if tagged || hasSev || p["problem.severity"] == nil {
			t.Errorf("%s is not a security rule: tags %v, security-severity %q, problem.severity %v", r.ID, tags, sev, p["problem.severity"])
		}
	}
	if security < 20 {
		t.Errorf("%d security rules in the metadata", security)
	}

	fingerprints := map[string]string{} // fingerprint -> message
	uris := map[string]bool{}
	hasSecurity := false
	for _, r := range run.Results {
		if r.RuleIndex == nil || *r.RuleIndex >= len(run.Tool.Driver.Rules) || run.Tool.Driver.Rules[*r.RuleIndex].ID != r.RuleID {
			t.Errorf("%s: ruleIndex %v does not point at its rule", r.RuleID, r.RuleIndex)
		}
		hasSecurity = hasSecurity || strings.HasPrefix(r.RuleID, "NL3")
		fp := r.PartialFingerprints[fingerprintKey]
		if !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(fp) {
			t.Errorf("%s: partialFingerprints %v", r.RuleID, r.PartialFingerprints)
		}
		if prev, dup := fingerprints[fp]; dup {
			t.Errorf("two results share fingerprint %s: %q and %q", fp, prev, r.Message.Text)
		}
		fingerprints[fp] = r.Message.Text
		al := r.Locations[0].PhysicalLocation.ArtifactLocation
		u, err := url.Parse(al.URI)
		if err != nil || u.Scheme != "" || u.IsAbs() || strings.HasPrefix(al.URI, "/") || al.URIBaseID != "SRCROOT" {
			t.Errorf("uri %q (base %q) is not a relative reference under SRCROOT", al.URI, al.URIBaseID)
			continue
		}
		// The reference resolves to the file, relative to the checkout.
		if _, err := os.Stat(filepath.FromSlash(u.Path)); err != nil {
			t.Errorf("uri %q does not name a file here: %v", al.URI, err)
		}
		uris[al.URI] = true
	}
	if !hasSecurity {
		t.Error("no security finding to check")
	}
	for _, want := range []string{"conf/nginx.conf", "./a:b/x.conf", "with%20space/y.conf"} {
		if !uris[want] {
			t.Errorf("no result with uri %q; have %v", want, uris)
		}
	}

	// Lines inserted above move every finding; the fingerprints stay.
	if err := os.WriteFile("conf/nginx.conf", []byte("# a comment\n\n"+conf), 0o644); err != nil {
		t.Fatal(err)
	}
	_, moved := lint()
	for _, r := range moved.Runs[0].Results {
		if _, ok := fingerprints[r.PartialFingerprints[fingerprintKey]]; !ok {
			t.Errorf("fingerprint of %q changed when lines moved", r.Message.Text)
		}
	}
}

// TestPathStyle checks that every format names files alike: relative to
// the working directory under it, absolute outside, <stdin> for
// standard input.
func TestPathStyle(t *testing.T) {
	bad := "events {}\nhttp {\n    gzipp on;\n}\n"
	outside := writeConf(t, map[string]string{"out.conf": bad})
	dir := writeConf(t, map[string]string{"conf/in.conf": bad})
	chdir(t, dir)
	outPath := filepath.Join(outside, "out.conf")
	// The same file named relatively and absolutely shows the same way.
	args := []string{"conf/in.conf", filepath.Join(dir, "conf", "in.conf"), outPath}

	files := map[string][]string{}
	_, text, _ := runCLI(t, "", append([]string{"--color", "never"}, args...)...)
	for _, m := range regexp.MustCompile(`(?m)^(\S+):3:5: error: unknown directive`).FindAllStringSubmatch(text, -1) {
		files["text"] = append(files["text"], m[1])
	}
	_, js, _ := runCLI(t, "", append([]string{"-f", "json"}, args...)...)
	var j struct{ Diagnostics []struct{ File, Code string } }
	json.Unmarshal([]byte(js), &j)
	for _, d := range j.Diagnostics {
		if d.Code == "NL2001" {
			files["json"] = append(files["json"], d.File)
		}
	}
	_, gh, _ := runCLI(t, "", append([]string{"-f", "github"}, args...)...)
	for _, m := range regexp.MustCompile(`file=([^,]+),line=3,col=5,.*title=NL2001`).FindAllStringSubmatch(gh, -1) {
		f, _ := url.PathUnescape(m[1])
		files["github"] = append(files["github"], f)
	}
	_, cs, _ := runCLI(t, "", append([]string{"-f", "checkstyle"}, args...)...)
	var doc struct {
		Files []struct {
			Name string `xml:"name,attr"`
		} `xml:"file"`
	}
	xml.Unmarshal([]byte(cs), &doc)
	for _, f := range doc.Files {
		files["checkstyle"] = append(files["checkstyle"], f.Name)
	}
	_, gl, _ := runCLI(t, "", append([]string{"-f", "gitlab"}, args...)...)
	var issues []gitlabIssue
	json.Unmarshal([]byte(gl), &issues)
	for _, is := range issues {
		if strings.HasPrefix(is.CheckName, "NL2001 ") {
			files["gitlab"] = append(files["gitlab"], is.Location.Path)
		}
	}
	_, sr, _ := runCLI(t, "", append([]string{"-f", "sarif"}, args...)...)
	var log githubSARIF
	json.Unmarshal([]byte(sr), &log)
	for _, r := range log.Runs[0].Results {
		if r.RuleID == "NL2001" {
			al := r.Locations[0].PhysicalLocation.ArtifactLocation
			files["sarif"] = append(files["sarif"], al.URI)
		}
	}
	want := []string{"conf/in.conf", filepath.ToSlash(outPath)}
	for _, format := range []string{"text", "json", "github", "gitlab", "checkstyle"} {
		if strings.Join(files[format], " ") != strings.Join(want, " ") {
			t.Errorf("%s names %q, want %q", format, files[format], want)
		}
	}
	if s := files["sarif"]; len(s) != 2 || s[0] != "conf/in.conf" || s[1] != (&url.URL{Scheme: "file", Path: filepath.ToSlash(outPath)}).String() {
		t.Errorf("sarif names %q", s)
	}

	// Standard input.
	for format, pattern := range map[string]string{
		"text":       `(?m)^<stdin>:3:5: `,
		"json":       `"file": "<stdin>"`,
		"github":     `file=<stdin>,`,
		"checkstyle": `name="&lt;stdin&gt;"`,
		"gitlab":     `"path": "<stdin>"`,
		"sarif":      `"uri": "%3Cstdin%3E"`,
	} {
		_, out, _ := runCLI(t, bad, "-f", format, "-")
		if !regexp.MustCompile(pattern).MatchString(out) {
			t.Errorf("%s output for standard input lacks %s:\n%s", format, pattern, out)
		}
		if format != "sarif" && strings.Contains(out, dir) { // SARIF's SRCROOT is the directory
			t.Errorf("%s output for standard input names the working directory:\n%s", format, out)
		}
	}
}

// TestTextEscapesControls lints a config whose words carry terminal
// escape sequences: text and github output show them escaped, and the
// caret still points at the finding.
func TestTextEscapesControls(t *testing.T) {
	conf := "events {}\nhttp {\n    server_name \"\x1b]0;pwned\x07\x1b[2J\"; gzipp on;\n    gzip\x1b[31m on;\n}\n"
	dir := writeConf(t, map[string]string{"evil.conf": conf})
	chdir(t, dir)
	for _, format := range []string{"text", "github"} {
		_, out, _ := runCLI(t, "", "--color", "never", "-f", format, "evil.conf")
		if strings.ContainsAny(out, "\x1b\x07") {
			t.Errorf("%s output passes raw control characters:\n%q", format, out)
		}
		if !strings.Contains(out, `gzip\x1b[31m`) {
			t.Errorf("%s output does not show the escaped name:\n%s", format, out)
		}
	}
	_, out, _ := runCLI(t, "", "--color", "never", "evil.conf")
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "evil.conf:3:") && strings.Contains(l, `"gzipp"`) {
			src, caret := lines[i+1], lines[i+2]
			if strings.Index(src, "gzipp") != strings.Index(caret, "^") || !strings.HasSuffix(caret, "^~~~~") {
				t.Errorf("caret not under gzipp:\n%s\n%s", src, caret)
			}
			return
		}
	}
	t.Errorf("no finding on gzipp:\n%s", out)
}

func TestVersionOf(t *testing.T) {
	stamped := &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261203081147-a7c2d0d3c9a5"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "a7c2d0d3c9a54bf9048bddb7be1b27ee096d6902"}, {Key: "vcs.modified", Value: "true"}}}
	devel := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "a7c2d0d3c9a54bf9048bddb7be1b27ee096d6902"}}}
	tests := []struct {
		bi             *debug.BuildInfo
		linked         string
		line, semantic string
	}{
		{&debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "", "nginx-lint v1.2.3", "1.2.3"},
		{stamped, "", "nginx-lint v0.0.0-20261203081147-a7c2d0d3c9a5 revision a7c2d0d3c9a54bf9048bddb7be1b27ee096d6902, modified", "0.0.0-20261203081147-a7c2d0d3c9a5"},
		{devel, "", "nginx-lint (devel) revision a7c2d0d3c9a54bf9048bddb7be1b27ee096d6902", "0.0.0-devel+a7c2d0d3c9a54bf9048bddb7be1b27ee096d6902"},
		{nil, "", "nginx-lint (devel)", "0.0.0-devel"},
		{devel, "v2.0.0-rc.1", "nginx-lint v2.0.0-rc.1 revision a7c2d0d3c9a54bf9048bddb7be1b27ee096d6902", "2.0.0-rc.1"},
	}
	for _, tt := range tests {
		v := versionOf(tt.bi, tt.linked)
		if v.Line() != tt.line || v.Semantic() != tt.semantic || !semverPattern.MatchString(v.Semantic()) {
			t.Errorf("%+v: %q, %q; want %q, %q", tt.bi, v.Line(), v.Semantic(), tt.line, tt.semantic)
		}
	}
}

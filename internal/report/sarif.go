package report

import (
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/baseline"
	"github.com/nginx-lint/nginx-lint/parser"
)

// SARIF 2.1.0 (OASIS). Only the properties nginx-lint fills are modelled;
// the test validates the output against the published schema.

const (
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion = "2.1.0"
	projectURL   = "https://github.com/nginx-lint/nginx-lint"
	// srcRoot is the uriBaseId of paths under the working directory, the
	// form code-scanning services map onto the repository.
	srcRoot = "SRCROOT"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                   `json:"tool"`
	OriginalURIBaseIDs map[string]sarifArtifactLoc `json:"originalUriBaseIds,omitempty"`
	Results            []sarifResult               `json:"results"`
	ColumnKind         string                      `json:"columnKind"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string      `json:"name"`
	InformationURI  string      `json:"informationUri"`
	Version         string      `json:"version,omitempty"`
	SemanticVersion string      `json:"semanticVersion,omitempty"`
	Rules           []sarifRule `json:"rules"`
}

type sarifText struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string         `json:"id"`
	Name                 string         `json:"name"`
	ShortDescription     sarifText      `json:"shortDescription"`
	FullDescription      sarifText      `json:"fullDescription"`
	Help                 sarifText      `json:"help"`
	HelpURI              string         `json:"helpUri"`
	DefaultConfiguration sarifRuleConf  `json:"defaultConfiguration"`
	Properties           map[string]any `json:"properties,omitempty"`
}

type sarifRuleConf struct {
	Level string `json:"level"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           *int              `json:"ruleIndex,omitempty"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints,omitempty"`
	RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
	Fixes               []sarifFix        `json:"fixes,omitempty"`
	// Properties carry the nginx a version-dependent finding or its fix
	// assumed ({"target": "nginx 1.22.1"}).
	Properties map[string]string `json:"properties,omitempty"`
}

type sarifLocation struct {
	ID               *int          `json:"id,omitempty"`
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
	Message          *sarifText    `json:"message,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
	Region           *sarifRegion     `json:"region,omitempty"`
}

type sarifArtifactLoc struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

type sarifFix struct {
	Description     sarifText             `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifactLoc   `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion `json:"deletedRegion"`
	InsertedContent sarifText   `json:"insertedContent"`
}

// fingerprintKey names nginx-lint's fingerprint among a result's
// partialFingerprints; the version changes if the hash ever does.
const fingerprintKey = "nginxLintFingerprint/v1"

// securitySeverity is the score GitHub code scanning ranks security
// alerts by ("security-severity": over 9 critical, 7 to 8.9 high, 4 to
// 6.9 medium, below low), from a security rule's default severity.
var securitySeverity = map[parser.Severity]string{parser.Error: "8.0", parser.Warning: "5.5", parser.Info: "2.0"}

// problemSeverity is GitHub's severity of a rule that is not about
// security.
var problemSeverity = map[parser.Severity]string{parser.Error: "error", parser.Warning: "warning", parser.Info: "recommendation"}

// sarifRuleProperties is what GitHub code scanning reads from a rule's
// properties: tags (security rules are tagged "security", which puts
// their alerts among security alerts, with a security-severity), the
// severity of other rules, and the precision, which says how often the
// rule is right: syntax and the linter's own comments follow nginx's
// parser exactly, correctness and security rules are checked against
// nginx and gixy's cases (README), the cost rules rest on an estimate.
func sarifRuleProperties(r *analyzer.Rule) map[string]any {
	cat := r.Category()
	props := map[string]any{"category": cat.String(), "tags": []string{cat.String()}}
	switch cat {
	case analyzer.Syntax, analyzer.Style:
		props["precision"] = "very-high"
	case analyzer.Performance:
		props["precision"] = "medium"
	default:
		props["precision"] = "high"
	}
	if cat == analyzer.Security {
		props["security-severity"] = securitySeverity[r.Severity]
	} else {
		props["problem.severity"] = problemSeverity[r.Severity]
	}
	return props
}

// sarifLevel maps a severity onto SARIF's levels (info is "note").
func sarifLevel(s parser.Severity) string {
	switch s {
	case parser.Error:
		return "error"
	case parser.Warning:
		return "warning"
	}
	return "note"
}

// sarifFormat prints one run with every rule of the registry as
// metadata, so a viewer can show the docs of a rule even for results it
// has not seen. Paths under the working directory are relative to the
// SRCROOT base, which code-scanning uploads resolve against the checkout.
type sarifFormat struct{}

// Format writes l's findings as a SARIF 2.1.0 log.
func (sarifFormat) Format(w io.Writer, l *Lint) error {
	ds, reg, cwd := l.Findings, l.Registry, l.Dir
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{Name: "nginx-lint", InformationURI: projectURL, Rules: []sarifRule{},
			Version: l.Tool.Version, SemanticVersion: l.Tool.Semantic}},
		Results:    []sarifResult{},
		ColumnKind: "utf16CodeUnits",
	}
	if cwd != "" {
		run.OriginalURIBaseIDs = map[string]sarifArtifactLoc{srcRoot: {URI: fileURI(cwd) + "/"}}
	}
	index := map[string]int{}
	for i, r := range reg.Rules() {
		index[r.Code] = i
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{
			ID:                   r.Code,
			Name:                 r.Name,
			ShortDescription:     sarifText{Text: r.Title},
			FullDescription:      sarifText{Text: r.Doc.Text},
			Help:                 sarifText{Text: r.Doc.Text, Markdown: RuleMarkdown(r)},
			HelpURI:              RuleURL(r.Name),
			DefaultConfiguration: sarifRuleConf{Level: sarifLevel(r.Severity)},
			Properties:           sarifRuleProperties(r),
		})
	}
	// The baseline's fingerprint (rule, path, flagged text, occurrence;
	// no line numbers) lets code scanning match an alert across uploads
	// when lines move, instead of opening it again.
	fps := baseline.New(cwd, nil).Fingerprints(ds)
	// The results are written as encoded, one at a time (jsonStream).
	log := sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}}
	return jsonStream(w, log, "results", 3, len(ds), func(di int) any {
		d := ds[di]
		res := sarifResult{
			RuleID:              d.Code,
			Level:               sarifLevel(d.Severity),
			Message:             sarifText{Text: d.Message},
			Locations:           []sarifLocation{{PhysicalLocation: sarifPhysicalOf(d.File, d.FilePath(), d.Range, cwd)}},
			PartialFingerprints: map[string]string{fingerprintKey: fps[di]},
		}
		if d.Detail != "" {
			res.Message.Text += "\n" + d.Detail
		}
		if i, ok := index[d.Code]; ok {
			res.RuleIndex = &i
		}
		for i, rel := range d.Related {
			if rel.File == nil {
				continue
			}
			id := i + 1
			res.RelatedLocations = append(res.RelatedLocations, sarifLocation{
				ID: &id, PhysicalLocation: sarifPhysicalOf(rel.File, rel.File.Path, rel.Range, cwd), Message: &sarifText{Text: rel.Message},
			})
		}
		if fix, ok := sarifFixOf(d, cwd); ok {
			res.Fixes = []sarifFix{fix}
		}
		if d.Target != "" {
			res.Properties = map[string]string{"target": d.Target}
		}
		return res
	}, true)
}

func sarifPhysicalOf(f *parser.File, path string, r parser.Range, cwd string) sarifPhysical {
	p := sarifPhysical{ArtifactLocation: artifactOf(path, cwd)}
	if f != nil {
		p.Region = regionOf(f, r)
	}
	return p
}

// regionOf converts a byte range into SARIF's 1-based lines and UTF-16
// columns (the default columnKind, which is what editors count in). An
// empty range stays empty (start == end: an insertion point for a fix).
func regionOf(f *parser.File, r parser.Range) *sarifRegion {
	start, end := int(r.Start), int(r.End)
	s, e := f.Position(start), f.Position(end)
	reg := &sarifRegion{StartLine: s.Line, StartColumn: f.UTF16Column(start) + 1, EndLine: e.Line, EndColumn: f.UTF16Column(end) + 1}
	if reg.EndLine < reg.StartLine || (reg.EndLine == reg.StartLine && reg.EndColumn < reg.StartColumn) {
		reg.EndLine, reg.EndColumn = reg.StartLine, reg.StartColumn
	}
	return reg
}

// sarifFixOf turns a diagnostic's edits into one fix; edits in files with
// no text (none today) are skipped.
func sarifFixOf(d *parser.Diagnostic, cwd string) (sarifFix, bool) {
	fix := sarifFix{Description: sarifText{Text: "apply the suggested change"}}
	byPath := map[string]int{}
	for _, ed := range d.Edits {
		f := ed.File
		if f == nil {
			f = d.File
		}
		if f == nil {
			continue
		}
		i, ok := byPath[f.Path]
		if !ok {
			i = len(fix.ArtifactChanges)
			byPath[f.Path] = i
			fix.ArtifactChanges = append(fix.ArtifactChanges, sarifArtifactChange{ArtifactLocation: artifactOf(f.Path, cwd)})
		}
		fix.ArtifactChanges[i].Replacements = append(fix.ArtifactChanges[i].Replacements, sarifReplacement{
			DeletedRegion: *regionOf(f, ed.Range), InsertedContent: sarifText{Text: ed.NewText},
		})
	}
	if len(d.Edits) == 1 && d.Edits[0].NewText != "" {
		fix.Description.Text = "replace with \"" + d.Edits[0].NewText + "\""
	}
	return fix, len(fix.ArtifactChanges) > 0
}

// artifactOf names a file relative to SRCROOT when it is under cwd, and
// by absolute file URI otherwise (standard input and dumps keep their
// names, as relative references).
func artifactOf(path, cwd string) sarifArtifactLoc {
	if cwd != "" && filepath.IsAbs(path) {
		if rel, err := filepath.Rel(cwd, path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return sarifArtifactLoc{URI: relativeRef(filepath.ToSlash(rel)), URIBaseID: srcRoot}
		}
	}
	if filepath.IsAbs(path) {
		return sarifArtifactLoc{URI: fileURI(path)}
	}
	return sarifArtifactLoc{URI: relativeRef(filepath.ToSlash(path))}
}

// relativeRef makes a slash path an RFC 3986 relative reference:
// characters a URI cannot hold (spaces, "%", "#", "?", ...) are
// percent-encoded, and a first segment holding a colon gets "./" before
// it, or "a:b/x.conf" would read as the scheme "a" (RFC 3986, 4.2).
func relativeRef(p string) string {
	ref := (&url.URL{Path: p}).EscapedPath()
	first, _, _ := strings.Cut(ref, "/")
	if strings.Contains(first, ":") {
		ref = "./" + ref
	}
	return ref
}

// fileURI makes an absolute path a file:// URI.
func fileURI(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // Windows drive paths
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

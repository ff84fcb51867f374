// Package config reads .nginx-lint.yaml, the per-project settings of
// nginx-lint, and turns it into analyzer options and loader settings.
//
//	# .nginx-lint.yaml
//	prefix: ./nginx              # nginx's -p; relative to this file
//	include-paths:               # where absolute include paths live here
//	  /etc/nginx/: ./nginx/
//	custom-directives: [vts_status, my_module_flag]
//	nginx-build: ./nginx-V.txt   # lint for this build (saved "nginx -V" output)
//	rules:
//	  server-tokens: off         # off, on, or a severity
//	  unknown-directive: error
//	  weak-ssl-tls:
//	    severity: error
//	    options: {min-version: TLSv1.2}
//
// The file is looked up from the linted file's directory upward, so a
// repository of configs can carry one at its root.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
)

// Names is the file names Find looks for, in order of preference.
var Names = []string{".nginx-lint.yaml", ".nginx-lint.yml"}

// File is one parsed configuration file.
type File struct {
	// Path is where the file was read from (absolute); relative paths in
	// it resolve against its directory.
	Path string
	// Prefix is nginx's configuration prefix, absolute; empty if unset.
	Prefix string
	// IncludePaths map path prefixes as nginx sees them to where the files
	// are here, longest prefix first. Both sides are absolute.
	IncludePaths []PathMap
	// CustomDirectives are directive names the unknown-directive rule
	// accepts (third-party modules nginx-lint does not know).
	CustomDirectives []string
	// NginxBuild is a saved "nginx -V" output (absolute path): lint for
	// that build, as the command line's --nginx-build does. Empty if
	// unset.
	NginxBuild string
	// Rules holds per-rule settings by the key written in the file (a name
	// or a code).
	Rules map[string]RuleConfig
}

// PathMap rewrites paths starting with From to start with To.
type PathMap struct{ From, To string }

// RuleConfig is the settings of one rule. Nil fields keep the default.
type RuleConfig struct {
	Enabled  *bool
	Severity *parser.Severity
	Options  map[string]any
}

// raw mirrors the YAML document.
type raw struct {
	Prefix           string               `yaml:"prefix"`
	IncludePaths     map[string]string    `yaml:"include-paths"`
	CustomDirectives []string             `yaml:"custom-directives"`
	NginxBuild       string               `yaml:"nginx-build"`
	Rules            map[string]yaml.Node `yaml:"rules"`
}

type rawRule struct {
	Enabled  *bool          `yaml:"enabled"`
	Severity string         `yaml:"severity"`
	Options  map[string]any `yaml:"options"`
}

// Find returns the configuration file nearest to start (a file or a
// directory), searching its directory and then each parent; "" if none.
func Find(start string) (string, error) {
	return FindWithin(start, nil)
}

// FindWithin is Find with a bound: after searching a directory for which
// stop returns true it searches no further up (nil: up to the root). The
// language server stops at the workspace root or a repository's root, so
// a settings file of someone else's directory above never applies. Only
// regular files count: a FIFO or device under the name is never opened.
func FindWithin(start string, stop func(dir string) bool) (string, error) {
	dir, err := filepath.Abs(start)
	if err != nil {
		return "", err
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		dir = filepath.Dir(dir)
	}
	for {
		for _, n := range Names {
			p := filepath.Join(dir, n)
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
				return p, nil
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir || stop != nil && stop(dir) {
			return "", nil
		}
		dir = parent
	}
}

// Load reads and parses the configuration file at path.
func Load(path string) (*File, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	src, err := os.ReadFile(abs)
	if err != nil {
		return nil, err
	}
	return Parse(abs, src)
}

// Parse reads a configuration file's text; path (absolute) anchors its
// relative paths and names it in errors. Unknown keys are errors, so a
// misspelt setting does not silently do nothing.
func Parse(path string, src []byte) (*File, error) {
	var r raw
	dec := yaml.NewDecoder(bytes.NewReader(src))
	dec.KnownFields(true)
	if err := dec.Decode(&r); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	dir := filepath.Dir(path)
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return filepath.Clean(p)
		}
		return filepath.Join(dir, p)
	}
	f := &File{Path: path, CustomDirectives: r.CustomDirectives, Rules: map[string]RuleConfig{}}
	if r.Prefix != "" {
		f.Prefix = abs(r.Prefix)
	}
	if r.NginxBuild != "" {
		f.NginxBuild = abs(r.NginxBuild)
	}
	for from, to := range r.IncludePaths {
		if !filepath.IsAbs(from) {
			return nil, fmt.Errorf("%s: include-paths: %q is not an absolute path (it is a path as nginx sees it)", path, from)
		}
		f.IncludePaths = append(f.IncludePaths, PathMap{From: filepath.Clean(from), To: abs(to)})
	}
	// Longest first, so /etc/nginx/conf.d wins over /etc/nginx.
	sort.Slice(f.IncludePaths, func(i, j int) bool {
		a, b := f.IncludePaths[i].From, f.IncludePaths[j].From
		if len(a) != len(b) {
			return len(a) > len(b)
		}
		return a < b
	})
	for key, node := range r.Rules {
		rc, err := parseRule(&node)
		if err != nil {
			return nil, fmt.Errorf("%s: rules: %s: %w", path, key, err)
		}
		f.Rules[key] = rc
	}
	return f, nil
}

// parseRule accepts "off", "on", a severity, or a mapping.
func parseRule(n *yaml.Node) (RuleConfig, error) {
	var rc RuleConfig
	if n.Kind == yaml.ScalarNode {
		// YAML 1.1 words (off, no, false) all mean disabled; the decoder
		// reads "off" as a string in YAML 1.2, so compare the text.
		switch v := strings.ToLower(n.Value); v {
		case "off", "false", "no", "disabled":
			rc.Enabled = new(false)
		case "on", "true", "yes", "enabled":
			rc.Enabled = new(true)
		default:
			s, ok := parser.ParseSeverity(v)
			if !ok {
				return rc, fmt.Errorf("line %d: %q is not on, off, error, warning or info", n.Line, n.Value)
			}
			rc.Severity = &s
		}
		return rc, nil
	}
	var rr rawRule
	if err := n.Decode(&rr); err != nil {
		return rc, err
	}
	// Decode ignores KnownFields; check the keys by hand.
	for i := 0; i+1 < len(n.Content); i += 2 {
		switch k := n.Content[i].Value; k {
		case "enabled", "severity", "options":
		default:
			return rc, fmt.Errorf("line %d: unknown key %q (want enabled, severity, options)", n.Content[i].Line, k)
		}
	}
	rc.Enabled, rc.Options = rr.Enabled, rr.Options
	if rr.Severity != "" {
		s, ok := parser.ParseSeverity(strings.ToLower(rr.Severity))
		if !ok {
			return rc, fmt.Errorf("severity %q is not error, warning or info", rr.Severity)
		}
		rc.Severity = &s
	}
	return rc, nil
}

// CustomOption is the rule option the unknown-directive rule reads for
// extra directive names.
const CustomOption = "custom"

// unknownDirective names the rule custom-directives feeds.
const unknownDirective = "unknown-directive"

// Apply merges f into opts. lookup resolves a rule name or code (nil: no
// such rule), so settings keyed by code land on the rule's name, which is
// how analyzer.Options is keyed. opts' maps must be non-nil.
func (f *File) Apply(opts *analyzer.Options, lookup func(string) *analyzer.Rule) error {
	if opts.Disabled == nil {
		opts.Disabled = map[string]bool{}
	}
	if opts.Severity == nil {
		opts.Severity = map[string]parser.Severity{}
	}
	if opts.RuleOptions == nil {
		opts.RuleOptions = map[string]map[string]any{}
	}
	keys := make([]string, 0, len(f.Rules))
	for k := range f.Rules {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		r := lookup(key)
		if r == nil {
			return fmt.Errorf("%s: rules: no rule %q (see nginx-lint rules)", f.Path, key)
		}
		rc := f.Rules[key]
		if rc.Enabled != nil {
			if *rc.Enabled {
				delete(opts.Disabled, r.Name)
			} else {
				opts.Disabled[r.Name] = true
			}
		}
		if rc.Severity != nil {
			opts.Severity[r.Name] = *rc.Severity
		}
		if len(rc.Options) > 0 {
			if opts.RuleOptions[r.Name] == nil {
				opts.RuleOptions[r.Name] = map[string]any{}
			}
			for k, v := range rc.Options {
				opts.RuleOptions[r.Name][k] = v
			}
		}
	}
	if len(f.CustomDirectives) > 0 {
		ro := opts.RuleOptions[unknownDirective]
		if ro == nil {
			ro = map[string]any{}
			opts.RuleOptions[unknownDirective] = ro
		}
		var names []any
		if prev, ok := ro[CustomOption].([]any); ok {
			names = prev
		}
		for _, n := range f.CustomDirectives {
			names = append(names, n)
		}
		ro[CustomOption] = names
	}
	return nil
}

// MapPath rewrites a path as nginx sees it to where it is here, using the
// first (longest) matching include-paths entry; ok is false if none
// matches.
func (f *File) MapPath(p string) (string, bool) {
	for _, m := range f.IncludePaths {
		if rest, ok := cutDir(p, m.From); ok {
			return filepath.Join(m.To, rest), true
		}
	}
	return p, false
}

// unmapPath is MapPath backwards.
func (f *File) unmapPath(p string) string {
	for _, m := range f.IncludePaths {
		if rest, ok := cutDir(p, m.To); ok {
			return filepath.Join(m.From, rest)
		}
	}
	return p
}

// cutDir removes the directory prefix dir from p, only at a path
// separator, so /etc/nginx does not match /etc/nginx2.
func cutDir(p, dir string) (string, bool) {
	if p == dir {
		return "", true
	}
	rest, ok := strings.CutPrefix(p, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator))
	return rest, ok
}

// FS is a parser.FileSystem that reads include paths through f's
// include-paths map. Paths it returns stay as nginx sees them, so the
// loader's view (include cycles, messages) matches nginx's.
type FS struct {
	Base parser.FileSystem
	File *File
}

// ReadFile reads p from where the map says it lives.
func (m FS) ReadFile(p string) ([]byte, error) {
	local, _ := m.File.MapPath(p)
	return m.Base.ReadFile(local)
}

// Glob expands pattern where the map says, and returns nginx's paths.
func (m FS) Glob(pattern string) ([]string, error) {
	local, mapped := m.File.MapPath(pattern)
	out, err := m.Base.Glob(local)
	if err != nil || !mapped {
		return out, err
	}
	for i, p := range out {
		out[i] = m.File.unmapPath(p)
	}
	return out, nil
}

// Package config reads .nginx-lint.yaml, the per-project settings of
// nginx-lint, and turns it into analyzer options and loader settings.
//
//	# .nginx-lint.yaml
//	prefix: ./nginx              # nginx's -p; relative to this file
//	include-paths:               # where absolute include paths live here
//	  /etc/nginx/: ./nginx/
//	custom-directives: [vts_status, my_module_flag]
//	custom-variables: [my_module_var, "my_prefix_*"]
//	check-files: true            # on the host: missing certificates, unresolvable hosts
//	host:                        # the machine nginx runs on, for the cost model
//	  nofile: 65536
//	  cpus: 8
//	max-file-size: 32MiB         # per-file read limit (default 128MiB)
//	nginx-build: ./nginx-V.txt   # lint for this build (saved "nginx -V" output)
//	nginx-version: 1.22.1        # or only for this version (every module possible)
//	cost-profile: ./profile.json # nginx-lint calibrate's, for the cost model
//	fmt:                         # nginx-lint fmt and the editor's formatting
//	  indent: tab                # auto (as the file is), tab, or 1-16 spaces
//	  spacing: keep              # keep (between words as written) or single
//	  max-blank-lines: 2         # at most 2 in a row (unset: all kept)
//	rules:
//	  version-disclosure: off    # off, on, or a severity
//	  unknown-directive: error
//	  listen-socket-count:
//	    severity: error
//	    options: {max-sockets: 500}
//
// The file is looked up from the linted file's directory upward, so a
// repository of configs can carry one at its root.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/internal/didyoumean"
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
	// CustomVariables are variable names (without "$"; a trailing "*"
	// for a prefix family) that modules nginx-lint does not know define.
	CustomVariables []string
	// CheckFiles turns on the environment-dependent checks (files nginx
	// loads at startup must exist), for linting on the host itself.
	CheckFiles bool
	// NginxBuild is a saved "nginx -V" output (absolute path): lint for
	// that build, as the command line's --nginx-build does. Empty if
	// unset.
	NginxBuild string
	// NginxVersion is the nginx version to lint for when no build is
	// named (any module possible); empty if unset.
	NginxVersion string
	// CostProfile is the cost profile nginx-lint calibrate wrote
	// (absolute path), for the cost model; empty if unset.
	CostProfile string
	// Rules holds per-rule settings by the key written in the file (a name
	// or a code).
	Rules map[string]RuleConfig
	// Warnings are what Apply found worth telling but not refusing (an
	// option under a deprecated name), each once.
	Warnings []string
	// MaxFileSize is the per-file read limit in bytes (max-file-size);
	// zero keeps the default.
	MaxFileSize int64
	// Fmt is the formatter's settings (the fmt: section); the zero value
	// is the formatter's defaults.
	Fmt parser.FormatOptions
	// Host are the facts about the machine nginx runs on that the host:
	// section gives (analyzer.HostFacts), by name, converted to their
	// types; HostLines are where each is.
	Host      map[string]any
	HostLines map[string]int
}

// PathMap rewrites paths starting with From to start with To.
type PathMap struct{ From, To string }

// RuleConfig is the settings of one rule. Nil fields keep the default.
type RuleConfig struct {
	Enabled  *bool
	Severity *parser.Severity
	Options  map[string]any
	// Line is where the rule's key is in the file, and OptionLines where
	// each option's key is, for messages.
	Line        int
	OptionLines map[string]int
}

// topKeys are the keys a settings file may have at its top level.
var topKeys = names(Keys)

// fmtKeys are the keys of the fmt: section.
var fmtKeys = names(FmtKeys)

// versionPattern is an nginx release number.
var versionPattern = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+$`)

// ruleKeys are the keys of a rule's mapping form.
var ruleKeys = names(RuleKeys)

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

// MaxSize is the largest settings file Load reads.
const MaxSize = 1 << 20

// Load reads and parses the configuration file at path.
func Load(path string) (*File, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	// Read like a configuration: a FIFO or device named .nginx-lint.yaml
	// must not hang or flood the run, and settings are a few lines (a
	// 50 MiB one took 5 s and 360 MB to refuse).
	src, err := parser.ReadConfigFile(abs, MaxSize)
	if err != nil {
		return nil, err
	}
	return Parse(abs, src)
}

// Parse reads a configuration file's text; path (absolute) anchors its
// relative paths and names it in errors. Unknown keys are errors, so a
// misspelt setting does not silently do nothing. Errors read
// "FILE:LINE: what is wrong" in the file's own terms (keys and YAML
// kinds), never in Go's.
func Parse(path string, src []byte) (*File, error) {
	f := &File{Path: path, Rules: map[string]RuleConfig{}}
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, f.syntaxError(err)
	}
	if len(doc.Content) == 0 {
		return f, nil // an empty file sets nothing
	}
	top := doc.Content[0]
	if top.Kind == yaml.ScalarNode && top.Tag == "!!null" {
		return f, nil
	}
	if top.Kind != yaml.MappingNode {
		return nil, f.errorf(top, "the settings must be a mapping of keys (%s), not %s", strings.Join(topKeys, ", "), kindName(top))
	}
	dir := filepath.Dir(path)
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return filepath.Clean(p)
		}
		return filepath.Join(dir, p)
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		if seen[k.Value] {
			return nil, f.errorf(k, "key %q given twice", k.Value)
		}
		seen[k.Value] = true
		switch k.Value {
		case "prefix":
			if err := f.wantScalar(v, "prefix"); err != nil {
				return nil, err
			}
			if v.Value != "" {
				f.Prefix = abs(v.Value)
			}
		case "include-paths":
			if err := f.wantKind(v, yaml.MappingNode, "include-paths", "a mapping of nginx paths to local paths"); err != nil {
				return nil, err
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				from, to := v.Content[j], v.Content[j+1]
				if err := f.wantScalar(from, "include-paths"); err != nil {
					return nil, err
				}
				if err := f.wantScalar(to, "include-paths: "+from.Value); err != nil {
					return nil, err
				}
				if !filepath.IsAbs(from.Value) {
					return nil, f.errorf(from, "include-paths: %q is not an absolute path (it is a path as nginx sees it)", from.Value)
				}
				f.IncludePaths = append(f.IncludePaths, PathMap{From: filepath.Clean(from.Value), To: abs(to.Value)})
			}
		case "custom-directives":
			if err := f.wantKind(v, yaml.SequenceNode, "custom-directives", "a list of directive names"); err != nil {
				return nil, err
			}
			for _, n := range v.Content {
				if err := f.wantScalar(n, "custom-directives"); err != nil {
					return nil, err
				}
				f.CustomDirectives = append(f.CustomDirectives, n.Value)
			}
		case "custom-variables":
			if err := f.wantKind(v, yaml.SequenceNode, "custom-variables", "a list of variable names"); err != nil {
				return nil, err
			}
			for _, n := range v.Content {
				if err := f.wantScalar(n, "custom-variables"); err != nil {
					return nil, err
				}
				f.CustomVariables = append(f.CustomVariables, strings.TrimPrefix(n.Value, "$"))
			}
		case "check-files":
			var b bool
			if v.Kind != yaml.ScalarNode || v.Decode(&b) != nil {
				return nil, f.errorf(v, "check-files: %q is not true or false", v.Value)
			}
			f.CheckFiles = b
		case "nginx-build":
			if err := f.wantScalar(v, "nginx-build"); err != nil {
				return nil, err
			}
			if v.Value != "" {
				f.NginxBuild = abs(v.Value)
			}
		case "cost-profile":
			if err := f.wantScalar(v, "cost-profile"); err != nil {
				return nil, err
			}
			if v.Value != "" {
				f.CostProfile = abs(v.Value)
			}
		case "nginx-version":
			if err := f.wantScalar(v, "nginx-version"); err != nil {
				return nil, err
			}
			if !versionPattern.MatchString(v.Value) {
				return nil, f.errorf(v, "nginx-version: %q is not a version such as 1.22.1", v.Value)
			}
			f.NginxVersion = v.Value
		case "max-file-size":
			if err := f.wantScalar(v, "max-file-size"); err != nil {
				return nil, err
			}
			n, err := parser.ParseSize(v.Value)
			if err != nil || n <= 0 {
				if err == nil {
					err = fmt.Errorf("size %q must be positive", v.Value)
				}
				return nil, f.errorf(v, "max-file-size: %v", err)
			}
			f.MaxFileSize = n
		case "fmt":
			if err := f.parseFmt(v); err != nil {
				return nil, err
			}
		case "host":
			if err := f.parseHost(v); err != nil {
				return nil, err
			}
		case "rules":
			if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
				continue
			}
			if err := f.wantKind(v, yaml.MappingNode, "rules", "a mapping of rule names to settings"); err != nil {
				return nil, err
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				key, val := v.Content[j], v.Content[j+1]
				rc, err := f.parseRule(key.Value, val)
				if err != nil {
					return nil, err
				}
				rc.Line = key.Line
				f.Rules[key.Value] = rc
			}
		default:
			return nil, f.errorf(k, "unknown key %q%s", k.Value, didyoumean.Suffix(didyoumean.Closest(k.Value, topKeys)))
		}
	}
	// Longest first, so /etc/nginx/conf.d wins over /etc/nginx.
	sort.Slice(f.IncludePaths, func(i, j int) bool {
		a, b := f.IncludePaths[i].From, f.IncludePaths[j].From
		if len(a) != len(b) {
			return len(a) > len(b)
		}
		return a < b
	})
	return f, nil
}

// parseFmt reads the fmt: section into f.Fmt.
func (f *File) parseFmt(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	if err := f.wantKind(n, yaml.MappingNode, "fmt", "a mapping of "+strings.Join(fmtKeys, ", ")); err != nil {
		return err
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if seen[k.Value] {
			return f.errorf(k, "fmt: key %q given twice", k.Value)
		}
		seen[k.Value] = true
		if k.Value != "indent" && k.Value != "spacing" && k.Value != "max-blank-lines" {
			return f.errorf(k, "fmt: unknown key %q%s (want %s)", k.Value,
				didyoumean.Suffix(didyoumean.Closest(k.Value, fmtKeys)), strings.Join(fmtKeys, ", "))
		}
		if err := f.wantScalar(v, "fmt: "+k.Value); err != nil {
			return err
		}
		switch k.Value {
		case "indent":
			in, err := ParseIndent(v.Value)
			if err != nil {
				return f.errorf(v, "fmt: indent: %v", err)
			}
			f.Fmt.Tabs, f.Fmt.Spaces = in.Tabs, in.Spaces
		case "spacing":
			sp, err := ParseSpacing(v.Value)
			if err != nil {
				return f.errorf(v, "fmt: spacing: %v", err)
			}
			f.Fmt.Spacing = sp
		case "max-blank-lines":
			var m int
			if v.Decode(&m) != nil || m < 1 {
				return f.errorf(v, "fmt: max-blank-lines: %q is not a number of lines from 1 up (leave it out to keep every blank line)", v.Value)
			}
			f.Fmt.MaxBlankLines = m
		}
	}
	return nil
}

// parseHost reads the host: section into f.Host.
func (f *File) parseHost(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	names := make([]string, len(analyzer.HostFacts))
	for i, o := range analyzer.HostFacts {
		names[i] = o.Name
	}
	if err := f.wantKind(n, yaml.MappingNode, "host", "a mapping of "+strings.Join(names, ", ")); err != nil {
		return err
	}
	f.Host, f.HostLines = map[string]any{}, map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if _, dup := f.Host[k.Value]; dup {
			return f.errorf(k, "host: key %q given twice", k.Value)
		}
		fact := analyzer.LookupHostFact(k.Value)
		if fact == nil {
			return f.errorf(k, "host: unknown key %q%s (want %s)", k.Value,
				didyoumean.Suffix(didyoumean.Closest(k.Value, names)), strings.Join(names, ", "))
		}
		if err := f.wantScalar(v, "host: "+k.Value); err != nil {
			return err
		}
		var raw any = v.Value // a kernel written 5.15 is the text, not a number
		if fact.Type != analyzer.StringType {
			if err := v.Decode(&raw); err != nil {
				return f.errorf(v, "host: %s: %s", k.Value, yamlMessage(err))
			}
		}
		cv, err := fact.Convert(raw)
		if err != nil {
			return f.errorf(v, "host: %v", err)
		}
		f.Host[k.Value], f.HostLines[k.Value] = cv, k.Line
	}
	return nil
}

// ParseIndent reads an indentation as the fmt: section and the command
// line's --indent write it: "auto" (the zero Indent: as the file is
// indented), "tab", or a number of spaces from 1 to 16.
func ParseIndent(s string) (parser.Indent, error) {
	switch strings.ToLower(s) {
	case "auto", "":
		return parser.Indent{}, nil
	case "tab", "tabs":
		return parser.Indent{Tabs: true}, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 16 {
		return parser.Indent{}, fmt.Errorf("%q is not auto, tab or a number of spaces from 1 to 16", s)
	}
	return parser.Indent{Spaces: n}, nil
}

// ParseSpacing reads "keep" or "single".
func ParseSpacing(s string) (parser.Spacing, error) {
	switch strings.ToLower(s) {
	case "keep":
		return parser.SpacingKeep, nil
	case "single":
		return parser.SpacingSingle, nil
	}
	return 0, fmt.Errorf("%q is not keep or single", s)
}

// parseRule accepts "off", "on", a severity, or a mapping.
func (f *File) parseRule(key string, n *yaml.Node) (RuleConfig, error) {
	var rc RuleConfig
	where := "rules: " + key
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
				return rc, f.errorf(n, "%s: %q is not on, off, error, warning or info", where, n.Value)
			}
			rc.Severity = &s
		}
		return rc, nil
	}
	if err := f.wantKind(n, yaml.MappingNode, where, "on, off, a severity or a mapping of "+strings.Join(ruleKeys, ", ")); err != nil {
		return rc, err
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "enabled":
			var b bool
			if v.Kind != yaml.ScalarNode || v.Decode(&b) != nil {
				return rc, f.errorf(v, "%s: enabled: %q is not true or false", where, v.Value)
			}
			rc.Enabled = &b
		case "severity":
			if err := f.wantScalar(v, where+": severity"); err != nil {
				return rc, err
			}
			s, ok := parser.ParseSeverity(strings.ToLower(v.Value))
			if !ok {
				return rc, f.errorf(v, "%s: severity %q is not error, warning or info", where, v.Value)
			}
			rc.Severity = &s
		case "options":
			if err := f.wantKind(v, yaml.MappingNode, where+": options", "a mapping of option names to values"); err != nil {
				return rc, err
			}
			if err := v.Decode(&rc.Options); err != nil {
				return rc, f.errorf(v, "%s: options: %s", where, yamlMessage(err))
			}
			rc.OptionLines = map[string]int{}
			for j := 0; j+1 < len(v.Content); j += 2 {
				rc.OptionLines[v.Content[j].Value] = v.Content[j].Line
			}
		default:
			return rc, f.errorf(k, "%s: unknown key %q%s (want %s)", where, k.Value,
				didyoumean.Suffix(didyoumean.Closest(k.Value, ruleKeys)), strings.Join(ruleKeys, ", "))
		}
	}
	return rc, nil
}

// errorf words an error at node n: "FILE:LINE: message".
func (f *File) errorf(n *yaml.Node, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", displayPath(f.Path), n.Line, fmt.Sprintf(format, args...))
}

// wantScalar checks that n is a single value.
func (f *File) wantScalar(n *yaml.Node, where string) error {
	return f.wantKind(n, yaml.ScalarNode, where, "a single value")
}

// wantKind checks n's kind, naming what was expected in the user's terms.
func (f *File) wantKind(n *yaml.Node, kind yaml.Kind, where, want string) error {
	if n.Kind == kind {
		return nil
	}
	return f.errorf(n, "%s: expected %s, got %s", where, want, kindName(n))
}

// kindName names a YAML node's kind for a message.
func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	if n.Tag == "!!null" {
		return "nothing"
	}
	return fmt.Sprintf("the value %q", n.Value)
}

// syntaxError rewords the YAML parser's "yaml: line 3: ..." as
// "FILE:3: ...".
func (f *File) syntaxError(err error) error {
	msg := yamlMessage(err)
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if i := strings.Index(rest, ": "); i > 0 {
			return fmt.Errorf("%s:%s: %s", displayPath(f.Path), rest[:i], rest[i+2:])
		}
	}
	return fmt.Errorf("%s: %s", displayPath(f.Path), msg)
}

// yamlMessage drops the YAML package's "yaml: " prefix.
func yamlMessage(err error) string {
	return strings.TrimSpace(strings.TrimPrefix(err.Error(), "yaml: "))
}

// displayPath shows a settings file's path relative to the working
// directory when it is under it, as the user would type it.
func displayPath(p string) string {
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	if rel, err := filepath.Rel(wd, p); err == nil && filepath.IsLocal(rel) {
		return rel
	}
	return p
}

// UnknownRuleError is Apply's error for a rules key that names no rule.
// Suggestions, when the caller fills it (from the registry it looked
// the key up in), become a "did you mean".
type UnknownRuleError struct {
	Path        string
	Line        int
	Key         string
	Suggestions []string
}

func (e *UnknownRuleError) Error() string {
	return fmt.Sprintf("%s:%d: rules: no rule %q%s (see nginx-lint rules)", displayPath(e.Path), e.Line, e.Key, didyoumean.Suffix(e.Suggestions))
}

// hostValue is a host fact's value and where it was given, for the
// message when two places disagree.
type hostValue struct {
	where string
	v     any
}

// Apply merges f into opts. lookup resolves a rule name or code (nil: no
// such rule), so settings keyed by code land on the rule's name, which is
// how analyzer.Options is keyed. opts' maps must be non-nil. The host:
// section sets opts.Host, one value for the whole run; so do the host
// facts a cost rule still accepts among its options (deprecated, with a
// warning), and two places that disagree are an error.
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
	hostSet := map[string]hostValue{}
	hostNames := make([]string, 0, len(f.Host))
	for name := range f.Host {
		hostNames = append(hostNames, name)
	}
	sort.Strings(hostNames)
	for _, name := range hostNames {
		if err := opts.Host.Set(name, f.Host[name]); err != nil {
			return fmt.Errorf("%s:%d: host: %v", f.Path, f.HostLines[name], err)
		}
		hostSet[name] = hostValue{fmt.Sprintf("under host: (line %d)", f.HostLines[name]), f.Host[name]}
	}
	for _, key := range keys {
		r := lookup(key)
		if r == nil {
			return &UnknownRuleError{Path: f.Path, Line: f.Rules[key].Line, Key: key}
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
			names := make([]string, 0, len(rc.Options))
			for k := range rc.Options {
				names = append(names, k)
			}
			sort.Strings(names)
			for _, k := range names {
				at := f.Path
				if line := rc.OptionLines[k]; line > 0 {
					at = fmt.Sprintf("%s:%d", f.Path, line)
				}
				opt, deprecated := r.LookupOption(k)
				if opt == nil {
					return fmt.Errorf("%s: rule %q has no option %q%s", at, r.Name, k, optionHint(r, k))
				}
				v, err := opt.Convert(rc.Options[k])
				if err != nil {
					return fmt.Errorf("%s: rule %q: %v", at, r.Name, err)
				}
				if deprecated {
					f.warn(fmt.Sprintf("%s: rule %q: option %q is deprecated, write %q", at, r.Name, k, opt.Name))
				}
				if opt.HostFact {
					// A fact about the host, not about this rule: it
					// goes to the run's one Host.
					f.warn(fmt.Sprintf("%s: rule %q: option %q is deprecated: it describes the host, write it under host: (%s: %v)", at, r.Name, k, opt.Name, v))
					if prev, ok := hostSet[opt.Name]; ok && prev.v != v {
						return fmt.Errorf("%s: rule %q: option %q is %v here but %v %s; it describes the host, for every rule's cost model: give it one value",
							at, r.Name, opt.Name, v, prev.v, prev.where)
					}
					hostSet[opt.Name] = hostValue{fmt.Sprintf("for rule %q", r.Name), v}
					if err := opts.Host.Set(opt.Name, v); err != nil {
						return fmt.Errorf("%s: rule %q: %v", at, r.Name, err)
					}
					continue
				}
				opts.RuleOptions[r.Name][opt.Name] = v
			}
		}
	}
	// check-files runs the rules that check this machine (those marked
	// Host), all at once.
	opts.CheckFiles = opts.CheckFiles || f.CheckFiles
	// custom-directives is a run-wide fact, a typed field of the options;
	// the unknown-directive rule reads it beside its own custom option.
	opts.CustomDirectives = append(opts.CustomDirectives, f.CustomDirectives...)
	opts.CustomVariables = append(opts.CustomVariables, f.CustomVariables...)
	return nil
}

// optionHint suggests the option a misspelt name meant, or lists the
// rule's options.
func optionHint(r *analyzer.Rule, name string) string {
	if len(r.Options) == 0 {
		return " (it takes none)"
	}
	names := make([]string, len(r.Options))
	for i, o := range r.Options {
		names[i] = o.Name
	}
	if s := didyoumean.Suffix(didyoumean.Closest(strings.ReplaceAll(name, "_", "-"), names)); s != "" {
		return s
	}
	return " (options: " + strings.Join(names, ", ") + ")"
}

func (f *File) warn(msg string) {
	for _, w := range f.Warnings {
		if w == msg {
			return
		}
	}
	f.Warnings = append(f.Warnings, msg)
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
	local, err := m.Resolve(p)
	if err != nil {
		return nil, err
	}
	b, err := m.Base.ReadFile(local)
	return b, m.packageFile(p, err)
}

// ReadFileMax is ReadFile within max bytes.
func (m FS) ReadFileMax(p string, max int64) ([]byte, error) {
	local, err := m.Resolve(p)
	if err != nil {
		return nil, err
	}
	b, err := parser.ReadFileMax(m.Base, local, max)
	return b, m.packageFile(p, err)
}

// packageFiles are the files nginx's packages install in the conf prefix
// (nginx's own conf/ directory, Debian's proxy_params and snippets): a
// copy of a configuration in a repository often leaves them to the
// package or image it deploys onto.
var packageFiles = map[string]bool{
	"mime.types": true, "fastcgi_params": true, "fastcgi.conf": true, "scgi_params": true,
	"uwsgi_params": true, "koi-utf": true, "koi-win": true, "win-utf": true, "proxy_params": true,
	"snippets/fastcgi-php.conf": true, "snippets/snakeoil.conf": true,
}

// PackageFile reports whether rel, a path relative to a conf prefix
// (mime.types, snippets/fastcgi-php.conf), names a file that nginx's
// packages install there.
func PackageFile(rel string) bool { return packageFiles[filepath.ToSlash(rel)] }

// packageFile turns err, from reading the mapped path p, into
// parser.ErrElsewhere when the checkout lacks p and p is a file the
// nginx package installs under the mapped prefix (/etc/nginx/mime.types,
// or fastcgi_params in the checkout's directory that stands for it): the deployment host has it, so its absence
// here is no error, only an incomplete configuration.
func (m FS) packageFile(p string, err error) error {
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for _, e := range m.File.IncludePaths {
		// A relative include ("include fastcgi_params;") comes here
		// resolved against the conf prefix, which is the mapped
		// directory of the checkout.
		rest, ok := cutDir(p, e.From)
		if !ok {
			rest, ok = cutDir(p, e.To)
		}
		if ok && packageFiles[filepath.ToSlash(rest)] {
			return &fs.PathError{Op: "open", Path: p, Err: fmt.Errorf("a file of the nginx package: %w", parser.ErrElsewhere)}
		}
	}
	return err
}

// Local returns where p is here: mapped, and, when it is a symbolic link
// to an absolute path under a mapped prefix (Debian's sites-enabled/x ->
// /etc/nginx/sites-available/x), where that target is here, not on this
// machine. A link to an absolute path no entry maps is returned as it is.
func (m FS) Local(p string) string {
	local, _ := m.resolve(p)
	return local
}

// Resolve is Local for reading: a symbolic link of the mapped tree to an
// absolute path that no entry maps (Debian's modules-enabled/x.conf ->
// /usr/share/nginx/modules-available/x.conf) is a file of the deployment
// host, which the checkout does not hold: the error wraps
// parser.ErrElsewhere, and this machine's file of that name is never
// read (it is not the deployment's).
func (m FS) Resolve(p string) (string, error) {
	local, elsewhere := m.resolve(p)
	if elsewhere != "" {
		return local, &fs.PathError{Op: "open", Path: p, Err: fmt.Errorf("a link to %s: %w", elsewhere, parser.ErrElsewhere)}
	}
	return local, nil
}

// resolve returns where p is here and, for a link in a mapped tree (under
// an entry's local directory) to an absolute path outside every mapped
// prefix, that path.
func (m FS) resolve(p string) (local, elsewhere string) {
	local, _ = m.File.MapPath(p)
	for range 8 {
		target, err := os.Readlink(local)
		if err != nil || !filepath.IsAbs(target) {
			return local, ""
		}
		to, ok := m.File.MapPath(target)
		if !ok {
			if m.inTree(local) {
				return local, target
			}
			return local, ""
		}
		local = to
	}
	return local, ""
}

// inTree reports whether local lies in a directory an entry maps to.
func (m FS) inTree(local string) bool {
	for _, e := range m.File.IncludePaths {
		if _, ok := cutDir(local, e.To); ok {
			return true
		}
	}
	return false
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

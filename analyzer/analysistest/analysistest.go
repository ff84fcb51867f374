// Package analysistest runs rules on txtar test cases, in the style of
// golang.org/x/tools/go/analysis/analysistest.
//
// A case is a txtar archive of config files. The first file is the main
// configuration (or a fragment, linted in the context inferred from it).
// Every line that a rule must flag carries a comment
//
//	listen 80; # want "is declared twice"
//
// whose quoted texts ("..." or `...`) are regular expressions; each must match the message
// of one finding that starts on that line, and every finding of the rules
// under test must be matched by some want. Several wants may follow one
// another: # want "a" "b". A want may name the finding's severity before
// its text: # want error "unknown directive". A line "nginx-version: 1.22.1" in the archive's
// comment lints for that nginx version, as --nginx-build does, and a line
// "nginx-configure: --with-threads" for a build with those arguments; a
// line "option: hsts.require=true" sets a rule's option, and a line
// "host: nofile=1024" a host fact (the settings' host: section).
package analysistest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/buildinfo"
	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/parser"
)

var wantComment = regexp.MustCompile("#\\s*want\\s+((?:(?:(?:error|warning|info)\\s+)?(?:\"(?:[^\"\\\\]|\\\\.)*\"|`[^`]*`)\\s*)+)$")
var quoted = regexp.MustCompile("(?:(error|warning|info)\\s+)?(\"(?:[^\"\\\\]|\\\\.)*\"|`[^`]*`)")

// Registry is the set of rules that runs; the test package sets it to
// the full registry (rules.All()), which this package cannot import.
var Registry *analyzer.Registry

// Run lints every *.txtar file in dir with rules and checks the wants.
func Run(t *testing.T, dir string, rules ...*analyzer.Rule) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no txtar cases in %s", dir)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(f)
			if err != nil {
				t.Fatal(err)
			}
			RunArchive(t, ar, rules...)
		})
	}
}

// RunArchive lints one archive with rules and checks the wants.
func RunArchive(t *testing.T, ar *txtar.Archive, rules ...*analyzer.Rule) []*parser.Diagnostic {
	t.Helper()
	if len(ar.Files) == 0 {
		t.Fatal("empty archive")
	}
	dir := t.TempDir()
	type want struct {
		re       *regexp.Regexp
		severity string // "" for any
		matched  bool
	}
	wants := map[string][]*want{} // "path:line"
	for _, f := range ar.Files {
		path := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(f.Data), "\n") {
			m := wantComment.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			for _, qm := range quoted.FindAllStringSubmatch(m[1], -1) {
				sev, q := qm[1], qm[2]
				s, err := strconv.Unquote(q)
				if err != nil {
					t.Fatalf("%s:%d: bad want %s: %v", f.Name, i+1, q, err)
				}
				re, err := regexp.Compile(s)
				if err != nil {
					t.Fatalf("%s:%d: bad want regexp %q: %v", f.Name, i+1, s, err)
				}
				key := fmt.Sprintf("%s:%d", path, i+1)
				wants[key] = append(wants[key], &want{re: re, severity: sev})
			}
		}
	}
	main := filepath.Join(dir, filepath.FromSlash(ar.Files[0].Name))
	ds := lintWith(t, main, archiveOptions(ar), rules...)
	for _, d := range ds {
		key := fmt.Sprintf("%s:%d", d.FilePath(), d.Start().Line)
		ok := false
		for _, w := range wants[key] {
			if !w.matched && w.re.MatchString(d.Message) && (w.severity == "" || w.severity == d.Severity.String()) {
				w.matched, ok = true, true
				break
			}
		}
		if !ok {
			t.Errorf("%s: unexpected finding: %s: %s [%s]", rel(dir, key), d.Severity, d.Message, d.Name)
		}
	}
	keys := make([]string, 0, len(wants))
	for k := range wants {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, w := range wants[k] {
			if !w.matched {
				t.Errorf("%s: no finding matches %q", rel(dir, k), w.re)
			}
		}
	}
	return ds
}

// Lint loads the config at path as the command line does (context
// inferred for fragments, includes followed, ignore comments applied) and
// returns the findings of rules only (parser findings included when a rule
// under test is one of the parser's own codes).
func Lint(t testing.TB, path string, rules ...*analyzer.Rule) []*parser.Diagnostic {
	t.Helper()
	return lintWith(t, path, analyzer.Options{}, rules...)
}

// nginxVersionLine and nginxConfigureLine are archive comment lines that
// make the case lint for one nginx build, as --nginx-build does:
// "nginx-version: 1.22.1", "nginx-configure: --with-threads ...".
var (
	nginxVersionLine   = regexp.MustCompile(`(?m)^nginx-version:\s*(\S+)\s*$`)
	nginxConfigureLine = regexp.MustCompile(`(?m)^nginx-configure:(.*)$`)
	nginxBuildLine     = regexp.MustCompile(`(?m)^nginx-build:(.*)$`)
)

// archiveOptions returns the options an archive's comment asks for: the
// nginx version and configure arguments the run targets, and rule
// options. A line "nginx-build: --with-stream=dynamic ..." (with
// nginx-version) names a whole build, as a saved nginx -V does: its
// modules are then known. A line "option: rule-name.option=value" sets a
// rule's option, as the settings file does (true/false and numbers are
// typed); a line "host: nofile=1024" sets a fact of the host, as the
// settings' host: section does.
func archiveOptions(ar *txtar.Archive) analyzer.Options {
	opts := analyzer.Options{Target: archiveTarget(ar)}
	for _, m := range optionLine.FindAllSubmatch(ar.Comment, -1) {
		rule, name, value := string(m[1]), string(m[2]), string(m[3])
		if opts.RuleOptions == nil {
			opts.RuleOptions = map[string]map[string]any{}
		}
		if opts.RuleOptions[rule] == nil {
			opts.RuleOptions[rule] = map[string]any{}
		}
		var v any = value
		if b, err := strconv.ParseBool(value); err == nil {
			v = b
		} else if n, err := strconv.Atoi(value); err == nil {
			v = n
		}
		opts.RuleOptions[rule][name] = v
	}
	for _, m := range hostLine.FindAllSubmatch(ar.Comment, -1) {
		if err := opts.Host.Set(string(m[1]), string(m[2])); err != nil {
			panic("analysistest: host line: " + err.Error())
		}
	}
	return opts
}

// hostLine is an archive comment line setting a host fact.
var hostLine = regexp.MustCompile(`(?m)^host:\s*([a-z]+)=(\S*)\s*$`)

// optionLine is an archive comment line setting a rule's option.
var optionLine = regexp.MustCompile(`(?m)^option:\s*([a-z0-9-]+)\.([a-z0-9-]+)=(\S*)\s*$`)

// archiveTarget is the build an archive's comment names, nil for none.
func archiveTarget(ar *txtar.Archive) *analyzer.Target {
	v := nginxVersionLine.FindSubmatch(ar.Comment)
	if b := nginxBuildLine.FindSubmatch(ar.Comment); b != nil {
		version := "1.22.1"
		if v != nil {
			version = string(v[1])
		}
		info, err := buildinfo.Parse("nginx version: nginx/" + version + "\nconfigure arguments:" + string(b[1]) + "\n")
		if err != nil {
			panic("analysistest: nginx-build line: " + err.Error())
		}
		return analyzer.BuildTarget(info)
	}
	c := nginxConfigureLine.FindSubmatch(ar.Comment)
	if v == nil && c == nil {
		return nil
	}
	t := &analyzer.Target{}
	if v != nil {
		t.Version = string(v[1])
	}
	if c != nil {
		t.Configure = strings.Fields(string(c[1]))
	}
	return t
}

func lintWith(t testing.TB, path string, opts analyzer.Options, rules ...*analyzer.Rule) []*parser.Diagnostic {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := analyzer.LoadInferred(&parser.Loader{Kinds: analyzer.Kinds}, path, src)
	codes := map[string]bool{}
	for _, r := range rules {
		codes[r.Code] = true
	}
	var out []*parser.Diagnostic
	// Every rule runs, as for a user, so ignore comments know all names;
	// only the findings of the rules under test are compared.
	ds, _ := lint.Run(c, Registry, opts)
	for _, d := range ds {
		// The fix test covers the rules marked Fixable: a fix from any
		// other would go unchecked by nginx.
		if r := Registry.Lookup(d.Code); len(d.Edits) > 0 && r != nil && !r.Fixable {
			t.Errorf("%s: %s offers a fix but is not marked Fixable", path, d.Name)
		}
		if codes[d.Code] {
			out = append(out, d)
		}
	}
	return out
}

func rel(dir, key string) string {
	if r, err := filepath.Rel(dir, key); err == nil {
		return r
	}
	return key
}

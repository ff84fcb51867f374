package rules_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/buildinfo"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/corpustest"
)

// semanticFloor is how many of the corpus main configs that Debian's
// nginx 1.22.1 rejects with a semantic error (fail_class=semantic) get an
// error from nginx-lint at nginx's file and line. Raise it as checks are
// added; TestCorpusSemantic fails when the count drops below it.
const semanticFloor = 87

// debianBuild is the recorded `nginx -V` of the build that labelled the
// corpus (Debian's nginx 1.22.1), so the test runs without nginx. The
// corpus was checked with Debian's dynamic modules loaded, so they count.
var debianBuild = sync.OnceValues(func() (*buildinfo.Info, error) {
	b, err := os.ReadFile(filepath.Join("testdata", "nginx-V", "debian-1.22.1.txt"))
	if err != nil {
		return nil, err
	}
	return buildinfo.Parse(string(b))
})

// buildLintOptions targets every rule at info, as the command line does
// with --nginx-build, with the build's shared objects counted as loaded:
// the corpus was labelled with a preamble of load_module lines for all of
// Debian's dynamic modules (debian_modules_preamble in NGINX_T_LOG.jsonl),
// which the files themselves do not carry.
func buildLintOptions(info *buildinfo.Info) analyzer.Options {
	t := analyzer.BuildTarget(info)
	t.Dynamic = nil
	return analyzer.Options{Target: t}
}

// nginxLog is one line of NGINX_T_LOG.jsonl.
type nginxLog struct {
	Path  string   `json:"path"`
	Lines []string `json:"lines"`
}

var logLocation = regexp.MustCompile(`^\[(\w+)\] (.*?)(?: in (\S+):(\d+))?$`)

// firstError returns the first error line nginx logged for a config: its
// text, and its file (corpus-relative) and line when nginx gave them.
func firstError(lines []string) (text, file string, line int, ok bool) {
	for _, l := range lines {
		m := logLocation.FindStringSubmatch(l)
		if m == nil || m[1] == "warn" || m[1] == "notice" || m[1] == "info" {
			continue
		}
		line, _ = strconv.Atoi(m[4])
		return m[2], m[3], line, true
	}
	return "", "", 0, false
}

func readNginxLog(t *testing.T, root string) map[string][]string {
	f, err := os.Open(filepath.Join(root, "NGINX_T_LOG.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var l nginxLog
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		out[l.Path] = l.Lines
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// failing reports whether a finding means "nginx -t fails": an error of
// a syntax or correctness rule.
func failing(d *parser.Diagnostic) bool {
	return d.Severity == parser.Error && (strings.HasPrefix(d.Code, "NL1") || strings.HasPrefix(d.Code, "NL2"))
}

// TestCorpusSemantic lints every corpus main config that Debian's nginx
// 1.22.1 rejects with a semantic error (an argument's value, a variable,
// a regex, a reference) for that build, and counts those where an error
// covers nginx's file and line; where nginx gives no line (unknown
// variables, zones and certificates are checked after the whole block is
// read), a finding with nginx's exact message anywhere counts. It lists
// the misses with nginx's message and fails when the count of hits drops
// below semanticFloor.
func TestCorpusSemantic(t *testing.T) {
	root := corpustest.Root(t)
	info, err := debianBuild()
	if err != nil {
		t.Fatal(err)
	}
	opts := buildLintOptions(info)
	logs := readNginxLog(t, root)
	var hits, total int
	var misses []string
	for _, e := range corpustest.Manifest(t) {
		if e["kind"] != "main" || e["fail_class"] != "semantic" {
			continue
		}
		total++
		text, file, line, ok := firstError(logs[e["path"]])
		if !ok {
			t.Fatalf("%s: no error in NGINX_T_LOG.jsonl", e["path"])
		}
		c, err := (&parser.Loader{Kinds: analyzer.Kinds}).Load(filepath.Join(root, e["path"]))
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, d := range ruleFindings(c, rules.All(), opts) {
			if !failing(d) {
				continue
			}
			if file == "" {
				found = found || d.Message == text
				continue
			}
			rel, err := filepath.Rel(root, d.FilePath())
			if err != nil || rel != file {
				continue
			}
			found = found || coversLine(d, line)
		}
		if found {
			hits++
			continue
		}
		where := "no location"
		if file != "" {
			where = file + ":" + strconv.Itoa(line)
		}
		misses = append(misses, e["path"]+": nginx: "+text+" ("+where+")")
	}
	sort.Strings(misses)
	t.Logf("%d of %d semantic configs get an error at nginx's line; %d missed:\n%s", hits, total, len(misses), strings.Join(misses, "\n"))
	if total < 80 {
		t.Fatalf("only %d semantic configs in the manifest", total)
	}
	if hits < semanticFloor {
		t.Errorf("%d hits, below the floor of %d", hits, semanticFloor)
	}
}

// coversLine reports whether line lies between the start of the finding
// and the end of the directive's line span (nginx gives the line where a
// directive ends, the ";" or "{").
func coversLine(d *parser.Diagnostic, line int) bool {
	start, end := d.Start().Line, d.End().Line
	if d.File != nil {
		// The directive around the finding may end lines later.
		off := int(d.Range.End)
		src := d.File.Src
		for off < len(src) && src[off] != ';' && src[off] != '{' {
			off++
		}
		end = d.File.Line(off)
	}
	return start <= line && line <= end
}

// TestCorpusAcceptedSemantic: the variable, regex and reference rules
// find nothing in the corpus main configs nginx accepts, whether for
// Debian's 1.22.1 (configs it accepts) or with no build given (configs
// the newest nginx accepts).
func TestCorpusAcceptedSemantic(t *testing.T) {
	root := corpustest.Root(t)
	info, err := debianBuild()
	if err != nil {
		t.Fatal(err)
	}
	mine := map[string]bool{}
	for _, r := range rules.All().Rules() {
		if r.Code >= "NL2035" && r.Code <= "NL2049" {
			mine[r.Name] = true
		}
	}
	checked := 0
	for _, e := range corpustest.Manifest(t) {
		if e["kind"] != "main" {
			continue
		}
		var runs []analyzer.Options
		if e["nginx_t"] == "ok" {
			runs = append(runs, buildLintOptions(info))
		}
		if e["nginx_t_head"] == "ok" {
			runs = append(runs, analyzer.Options{})
		}
		if len(runs) == 0 {
			continue
		}
		checked++
		c, err := (&parser.Loader{Kinds: analyzer.Kinds}).Load(filepath.Join(root, e["path"]))
		if err != nil {
			t.Fatal(err)
		}
		for _, opts := range runs {
			for _, d := range ruleFindings(c, rules.All(), opts) {
				if mine[d.Name] {
					t.Errorf("%s: nginx accepts it, but %v [%s]", e["path"], d, d.Name)
				}
			}
		}
	}
	if checked < 300 {
		t.Fatalf("only %d accepted configs", checked)
	}
}

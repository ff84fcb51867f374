package rules_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/corpustest"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// semanticMutant is a seed with one word changed, and what nginx should
// then say: a located error of rule at line, or (line 0) the exact
// unlocated message. valid mutants must stay accepted.
type semanticMutant struct {
	seed    seed
	src     string
	how     string
	rule    string
	message string // nginx's message, for the unlocated ones
	line    int
	valid   bool
}

// insertAt returns src with text inserted at the end of word w (inside
// its quotes when quoted).
func insertAt(src string, f *parser.File, w parser.Word, text string) string {
	at := w.Range.End
	if w.Quote(f) != 0 && !w.Unterminated(f) {
		at--
	}
	return src[:at] + text + src[at:]
}

// semanticMutants breaks seed in the ways the variable, regex and
// reference rules cover, with a valid twin for each where one exists:
// an unbalanced "(" in each regex (twin: a harmless group), an undefined
// variable appended to each compiled argument (twin: $host), a zone and
// a log format renamed to undefined names.
func semanticMutants(sd seed) []semanticMutant {
	src := sd.files["nginx.conf"]
	f := parser.ParseFile("nginx.conf", []byte(src), &parser.Options{Kinds: analyzer.Kinds})
	c := &parser.Config{Main: f, Files: []*parser.File{f}}
	ix := analyzer.NewIndex(c)
	var out []semanticMutant
	n := 0
	blocks := map[string]bool{}
	for _, i := range ix.Named("upstream") {
		if d := ix.Entries[i].Directive; len(d.Args()) == 1 && ix.Entries[i].Context()&directives.StreamContexts == 0 {
			blocks[strings.ToLower(d.Args()[0].Value)] = true
		}
	}
	add := func(m semanticMutant) {
		m.seed = sd
		out = append(out, m)
	}
	end := func(d *parser.Directive) int {
		switch {
		case d.Semicolon() >= 0:
			return f.Line(int(d.Semicolon()))
		case d.LBrace() >= 0:
			return f.Line(int(d.LBrace()))
		}
		return d.Line()
	}
	for i := range ix.Entries {
		e := &ix.Entries[i]
		d := e.Directive
		if e.Context() == 0 || d.RawBlock() || e.Context()&(directives.Geo|directives.StreamGeo) != 0 {
			continue
		}
		n++
		// Regexes: the arguments regex-syntax checks.
		for _, w := range mutantRegexWords(e) {
			add(semanticMutant{src: insertAt(src, d.File, w, "("), how: fmt.Sprintf("regex of %s +(", d.Name().Value), rule: "regex-syntax", line: end(d)})
			add(semanticMutant{src: insertAt(src, d.File, w, "(?:z)?"), how: fmt.Sprintf("regex of %s +(?:z)?", d.Name().Value), valid: true})
		}
		if e.Context()&(directives.Map|directives.StreamMap) != 0 {
			continue
		}
		// Compiled arguments: the first one the table lists.
		if w, ok := compiledWord(d); ok {
			v := fmt.Sprintf("zz_undefined_%d", n)
			add(semanticMutant{src: insertAt(src, d.File, w, "$"+v), how: fmt.Sprintf("%s +$undefined", d.Name().Value), rule: "unknown-variable", message: `unknown "` + v + `" variable`})
			add(semanticMutant{src: insertAt(src, d.File, w, "$host"), how: fmt.Sprintf("%s +$host", d.Name().Value), valid: true})
		}
		switch {
		case d.Is("limit_req"):
			for _, a := range d.Args() {
				if name, ok := strings.CutPrefix(a.Value, "zone="); ok {
					add(semanticMutant{src: insertAt(src, d.File, a, "_undefined"), how: "limit_req zone", rule: "unknown-zone", message: `zero size shared memory zone "` + name + `_undefined"`})
				}
			}
		case d.Is("limit_conn") && len(d.Args()) == 2:
			add(semanticMutant{src: insertAt(src, d.File, d.Args()[0], "_undefined"), how: "limit_conn zone", rule: "unknown-zone", message: `zero size shared memory zone "` + d.Args()[0].Value + `_undefined"`})
		case d.Is("proxy_pass") && len(d.Args()) == 1 && e.Context()&directives.StreamContexts == 0 && d.Args()[0].Quote(d.File) == 0:
			// A port on the name of an upstream block.
			v := d.Args()[0].Value
			if rest, ok := strings.CutPrefix(v, "http://"); ok {
				host, _, _ := strings.Cut(rest, "/")
				if blocks[strings.ToLower(host)] {
					at := int(d.Args()[0].Range.Start) + len("http://") + len(host)
					add(semanticMutant{src: src[:at] + ":8081" + src[at:], how: "proxy_pass upstream:port", rule: "invalid-url", line: end(d)})
				}
			}
		case d.Is("access_log") && len(d.Args()) >= 2 && e.Context()&directives.StreamContexts == 0:
			add(semanticMutant{src: insertAt(src, d.File, d.Args()[1], "_undefined"), how: "access_log format", rule: "unknown-log-format", line: end(d)})
		}
	}
	return out
}

// mutantRegexWords are the regex arguments of an entry: the same places
// regex-syntax checks, found independently of its code.
func mutantRegexWords(e *analyzer.Entry) []parser.Word {
	d := e.Directive
	a := d.Args()
	if e.Context()&(directives.Map|directives.StreamMap) != 0 {
		if strings.HasPrefix(d.Name().Value, "~") && len(d.Name().Value) > 2 {
			return []parser.Word{d.Name()}
		}
		return nil
	}
	switch {
	case d.Is("location") && len(a) == 2 && (a[0].Value == "~" || a[0].Value == "~*"):
		return a[1:2]
	case d.Is("rewrite") && len(a) >= 2:
		return a[:1]
	case d.Is("if") && len(a) >= 3 && strings.Contains(a[len(a)-2].Value, "~") && a[len(a)-1].Value != ")":
		// The regex is the last word (its ")" stuck to it is kept last).
		w := a[len(a)-1]
		if w.Quote(d.File) == 0 && strings.HasSuffix(w.Value, ")") {
			w.Range.End--
		}
		return []parser.Word{w}
	}
	return nil
}

// compiledWord is the first argument of d that nginx compiles for
// variables, for the directives whose compiled argument is plain (not a
// path or URL that a variable would turn into something else).
func compiledWord(d *parser.Directive) (parser.Word, bool) {
	at := map[string]int{"set": 1, "return": -1, "add_header": 1, "proxy_set_header": 1, "fastcgi_param": 1,
		"root": 0, "index": 0, "try_files": 0, "error_page": -1, "rewrite": 1, "limit_req_zone": 0,
		"limit_conn_zone": 0, "log_format": -1, "map": 0, "proxy_cache_key": 0, "auth_basic": 0,
		"sub_filter": 1, "secure_link_md5": 0}
	j, ok := at[d.Name().Value]
	if !ok || len(d.Args()) == 0 {
		return parser.Word{}, false
	}
	if j < 0 {
		j = len(d.Args()) - 1
	}
	if j >= len(d.Args()) {
		return parser.Word{}, false
	}
	w := d.Args()[j]
	if d.Is("return") && len(d.Args()) == 1 && !strings.Contains(w.Value, "/") {
		return parser.Word{}, false // "return 403": a code, not text
	}
	if d.Is("error_page") && !strings.HasPrefix(w.Value, "/") && !strings.HasPrefix(w.Value, "@") {
		return parser.Word{}, false
	}
	if strings.HasPrefix(w.Value, "@") || strings.HasSuffix(w.Value, "$") || w.Value == "" {
		return parser.Word{}, false
	}
	return w, true
}

// TestNginxSemanticMutants breaks the corpus configs this nginx accepts
// (and the built-in seeds) as semanticMutants says, runs nginx -t on
// each, and requires: where nginx reports the planned error, our rule
// reports it at nginx's line (or with nginx's message when it gives no
// line); where nginx accepts a mutant, none of the rules fires.
func TestNginxSemanticMutants(t *testing.T) {
	if testing.Short() {
		t.Skip("runs nginx on every mutant")
	}
	nginx := nginxtest.Require(t)
	corpustest.Root(t) // the mutants are made from corpus configs
	info := nginxBuild(t, nginx)
	static := *info
	static.Dynamic = nil
	opts := buildLintOptions(&static)
	mine := map[string]bool{}
	for _, r := range rules.All().Rules() {
		if r.Code >= "NL2035" && r.Code <= "NL2049" {
			mine[r.Name] = true
		}
	}
	var muts []semanticMutant
	for _, sd := range paritySeeds(t) {
		if len(sd.files) == 1 {
			muts = append(muts, semanticMutants(sd)...)
		}
	}
	paths := make([]string, len(muts))
	for i, m := range muts {
		paths[i] = writeMutant(t, m.seed, mutant{file: "nginx.conf", src: m.src})
	}
	counts := map[string]int{}
	for i, run := range runAll(context.Background(), nginx, paths) {
		m := muts[i]
		if errors.Is(run.err, nginxtest.ErrNotLoopback) {
			counts["skipped: not loopback-only"]++
			continue
		}
		if run.err != nil {
			t.Fatalf("%s: %v", m.how, run.err)
		}
		c, err := (&parser.Loader{Kinds: analyzer.Kinds}).Load(run.path)
		if err != nil {
			t.Fatal(err)
		}
		ds := ruleFindings(c, rules.All(), opts)
		errs := run.res.Errors()
		if len(errs) == 0 {
			counts["accepted by nginx"]++
			for _, d := range ds {
				if mine[d.Name] {
					t.Errorf("%s: nginx accepts it, but %v [%s]\n%s", m.how, d, d.Name, m.src)
				}
			}
			continue
		}
		first := errs[0]
		planned := !m.valid && (m.line == 0 && first.Text == m.message ||
			m.line != 0 && first.Line == m.line && plannedKind(m.rule, first.Text))
		if !planned {
			counts["nginx stopped at another error"]++
			continue
		}
		found := false
		for _, d := range ds {
			if d.Name != m.rule {
				continue
			}
			if m.line == 0 && d.Message == m.message || m.line != 0 && coversLine(d, m.line) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: nginx says %q (line %d), %s does not\n%s", m.how, first.Text, first.Line, m.rule, m.src)
			continue
		}
		counts["matched: "+m.rule]++
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "\n  %-45s %d", k, counts[k])
	}
	t.Logf("%d mutants:%s", len(muts), b.String())
	if counts["matched: regex-syntax"] < 50 || counts["matched: unknown-variable"] < 100 || counts["accepted by nginx"] < 100 {
		t.Errorf("too few mutants checked: %v", counts)
	}
}

// plannedKind reports whether nginx's message is the error rule covers.
func plannedKind(rule, text string) bool {
	switch rule {
	case "regex-syntax":
		return strings.HasPrefix(text, "pcre2_compile() failed")
	case "unknown-log-format":
		return strings.HasPrefix(text, "unknown log format")
	case "invalid-url":
		return strings.Contains(text, "may not have port")
	}
	return false
}

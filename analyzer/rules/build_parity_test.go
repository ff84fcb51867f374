package rules_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/buildinfo"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// buildCase is one generated configuration of the build differential:
// a directive or a variable used once, with or without the load_module
// of its module.
type buildCase struct {
	class string // for the counts
	how   string
	src   string
	line  int // the line of the directive or variable under test
}

// TestBuildParity is the differential of what a build defines (named
// without an "x" so that the benchmark command's -run x skips it). From
// the tables of every module nginx-lint knows (nginx's, njs, nginx-acme
// and the third-party modules of modules.tsv) it writes configurations
// that use each directive once in a context it allows, each directive
// misspelt, each variable once (also in the other family: an http
// variable in stream {}), with and without the load_module lines of the
// shared objects installed beside the local nginx (Debian's stream, mail
// and third-party modules: .ci/run installs a dozen of them). The real
// nginx labels them: where it says `unknown directive` or `unknown
// variable` at a line, unknown-directive or unknown-variable must report
// an error at that line; where nginx knows the name (it accepts the
// configuration, or stops at another error), neither may report an
// error. Misspelt names are linted a second time with no build named:
// every one must still be an error (a near miss).
func TestBuildParity(t *testing.T) {
	if testing.Short() {
		t.Skip("runs nginx a few thousand times")
	}
	nginx := nginxtest.Require(t)
	info := nginxBuild(t, nginx)
	loads, _ := dynamicModules(info)
	objects := installedObjects(info)
	if os.Getenv("CI") == "true" {
		for _, m := range []string{"ngx_stream_module", "ngx_mail_module", "ngx_http_echo_module", "ngx_http_set_misc_module", "ngx_http_geoip2_module"} {
			if objects[m] == "" {
				t.Fatalf("CI=true: %s.so is not installed (.ci/run installs Debian's libnginx-mod-* packages)", m)
			}
		}
	}
	opts := analyzer.Options{Target: analyzer.BuildTarget(info)}
	cases := planBuildCases(info, loads, objects)

	dir := t.TempDir()
	paths := make([]string, len(cases))
	for i, c := range cases {
		paths[i] = filepath.Join(dir, fmt.Sprintf("b%05d", i), "nginx.conf")
		if err := os.MkdirAll(filepath.Dir(paths[i]), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(paths[i], []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	counts := map[string]int{}
	failures := 0
	fail := func(c buildCase, format string, args ...any) {
		failures++
		counts["FAILED: "+c.class]++
		if failures <= 30 {
			t.Errorf("%s: %s\n%s", c.how, fmt.Sprintf(format, args...), numberedLines(c.src))
		}
	}
	for i, run := range runAll(context.Background(), nginx, paths) {
		c := cases[i]
		if run.err != nil {
			t.Fatalf("%s: %v", c.how, run.err)
		}
		ours, err := lintValues(run.path, opts)
		if err != nil {
			t.Fatal(err)
		}
		counts["cases"]++
		errs := run.res.Errors()
		var first *nginxtest.Message
		if len(errs) > 0 {
			first = &errs[0]
		}
		unknown := first != nil && (strings.HasPrefix(first.Text, "unknown directive ") ||
			strings.HasPrefix(first.Text, "unknown \"") && strings.HasSuffix(first.Text, "\" variable"))
		var ourErrs []*parser.Diagnostic
		for _, d := range ours {
			if d.Severity == parser.Error && (d.Name == rules.UnknownDirective.Name || d.Name == rules.UnknownVariable.Name) {
				ourErrs = append(ourErrs, d)
			}
		}
		if !unknown {
			if first == nil {
				counts[c.class+": nginx accepts"]++
			} else {
				counts[c.class+": nginx knows the name, stops at another error"]++
				if os.Getenv("BUILD_PARITY_DEBUG") != "" {
					t.Logf("%s: %s\n%s", c.how, first, numberedLines(c.src))
				}
			}
			for _, d := range ourErrs {
				// nginx looks variables up once the whole configuration
				// is read: an error it stops at while reading comes first,
				// whatever the line of an unknown variable.
				if first == nil || d.Start().Line <= first.Line && d.Name == rules.UnknownDirective.Name {
					fail(c, "nginx knows the name (%v), we report %v [%s]", first, d, d.Name)
				}
			}
			continue
		}
		counts[c.class+": nginx rejects the name"]++
		found := false
		for _, d := range ourErrs {
			// Variables are checked after parsing: nginx names no line.
			found = found || d.Start().Line == first.Line || first.Line == 0 && d.Message == first.Text
		}
		if !found {
			fail(c, "nginx: %s; we report no error at line %d (ours: %v)", first, first.Line, ours)
			continue
		}
		if strings.HasPrefix(c.class, "misspelt") {
			// The same typo with no build named: a near miss, so an error.
			plain, err := lintValues(run.path, analyzer.Options{})
			if err != nil {
				t.Fatal(err)
			}
			near := false
			for _, d := range plain {
				near = near || d.Name == rules.UnknownDirective.Name && d.Severity == parser.Error && d.Start().Line == first.Line
			}
			if !near {
				fail(c, "with no build named, the near miss is no error: %v", plain)
			}
		}
	}
	if failures > 30 {
		t.Errorf("... and %d more failures", failures-30)
	}
	logCounts(t, "build differential", counts)
	rejected := 0
	for k, v := range counts {
		if strings.HasSuffix(k, "nginx rejects the name") {
			rejected += v
		}
	}
	if counts["cases"] < 2500 || rejected < 1000 || counts["cases"]-rejected < 1000 {
		t.Errorf("too few or one-sided cases: %d, %d rejected", counts["cases"], rejected)
	}
}

// installedObjects maps the modules whose shared object is installed in
// the build's modules directory to their load_module line (the NDK's
// first, which the set-misc and lua objects need loaded before them).
func installedObjects(info *buildinfo.Info) map[string]string {
	dir := "/usr/lib/nginx/modules"
	for _, a := range info.Args {
		if v, ok := strings.CutPrefix(a, "--modules-path="); ok {
			dir = v
		}
	}
	out := map[string]string{}
	ents, _ := os.ReadDir(dir)
	ndk := ""
	if _, err := os.Stat(filepath.Join(dir, "ndk_http_module.so")); err == nil {
		ndk = "load_module " + filepath.Join(dir, "ndk_http_module.so") + ";\n"
	}
	own := map[string]bool{} // nginx's own objects
	for _, obj := range info.DynamicModules() {
		for _, n := range buildinfo.ObjectNames(obj) {
			own[n] = true
		}
	}
	for _, e := range ents {
		name, ok := strings.CutSuffix(e.Name(), ".so")
		if !ok || !directives.KnownModule(name) {
			continue
		}
		line := "load_module " + filepath.Join(dir, e.Name()) + ";\n"
		switch {
		case name == "ndk_http_module":
			out[name] = ndk
		case own[name]:
			out[name] = line
		default:
			out[name] = ndk + line
		}
	}
	return out
}

// loadLines returns the load_module lines that bring row's module, and
// whether its object is installed ("" and true for a built-in module).
func loadLines(row *directives.Directive, info *buildinfo.Info, objects map[string]string) (string, bool) {
	dyn := info.DynamicModules()
	for _, m := range row.SourceModules {
		for _, n := range buildinfo.ObjectNames(m) {
			if l, ok := objects[n]; ok && (row.ThirdParty || slices.Contains(buildinfo.ObjectNames(dyn[m]), n)) {
				return l, true
			}
		}
		if _, shared := dyn[m]; !row.ThirdParty && info.Modules()[m] && !shared {
			return "", true
		}
	}
	return "", false
}

// buildArgs returns arguments for row: its default when it has one that
// fits the argument count, else as many placeholder words as it needs.
func buildArgs(row *directives.Directive) string {
	def := defaultValue(row)
	if def == `""` || def == "—" {
		def = ""
	}
	n := len(strings.Fields(def))
	if def != "" && (!row.ArgsKnown || row.Args.Accepts(n)) {
		return " " + def
	}
	switch {
	case !row.ArgsKnown:
		return " x"
	case row.Args.Accepts(0):
		return ""
	case row.Args.IsFlag():
		return " on"
	}
	for k := 1; k <= 7; k++ {
		if row.Args.Accepts(k) {
			return strings.Repeat(" x", k)
		}
	}
	return " x"
}

// objectHas reports whether the last object of load lines holds the
// C string name: a directive the installed release of the module has.
func objectHas(load, name string) bool {
	lines := strings.Split(strings.TrimSpace(load), "\n")
	path := strings.TrimSuffix(strings.TrimPrefix(lines[len(lines)-1], "load_module "), ";")
	b, err := os.ReadFile(path)
	return err == nil && bytes.Contains(b, []byte("\x00"+name+"\x00"))
}

// backported are directives Debian's nginx 1.22.1 has although nginx added
// them later (a security update brought max_headers): the tables follow
// nginx's releases, so these are declared with custom-directives there.
var backported = map[string]bool{"max_headers": true}

// buildContexts are the blocks the cases place directives in, in order of
// preference, as valueConfig writes them.
var buildContexts = []directives.Context{
	directives.Location, directives.Server, directives.HTTP, directives.Main, directives.Events, directives.Upstream,
	directives.StreamServer, directives.Stream, directives.StreamUpstream, directives.MailServer, directives.Mail,
}

func planBuildCases(info *buildinfo.Info, loads map[string]string, objects map[string]string) []buildCase {
	var out []buildCase
	r := rand.New(rand.NewPCG(18, 2026))
	port := 23000
	family := func(ctx directives.Context) string {
		switch {
		case ctx&directives.StreamContexts != 0:
			return "stream"
		case ctx&(directives.Mail|directives.MailServer) != 0:
			return "mail"
		}
		return ""
	}
	place := func(class, how string, ctx directives.Context, line, load string) {
		fam := family(ctx)
		if _, ok := loads[fam]; fam != "" && !ok {
			return // the group's object is not installed
		}
		port++
		src, n := valueConfig(ctx, line, loads, port)
		// valueConfig loads the group's object itself: a second
		// load_module of it is an error of its own.
		var extra []string
		for _, l := range strings.SplitAfter(load, "\n") {
			if l != "" && !strings.Contains(src, l) {
				extra = append(extra, l)
			}
		}
		load = strings.Join(extra, "")
		src = load + src
		out = append(out, buildCase{class: class, how: how, src: src, line: n + strings.Count(load, "\n")})
	}
	for _, row := range directives.All() {
		if row.Name == "" || directives.FreeFormBlock(row.Name) && !row.ThirdParty || row.Name == "include" || row.Name == "server" {
			continue
		}
		if backported[row.Name] && info.Version == "1.22.1" {
			continue
		}
		var ctx directives.Context
		for _, c := range buildContexts {
			if row.Contexts.Has(c) {
				ctx = c
				break
			}
		}
		if ctx == 0 {
			continue
		}
		args := buildArgs(row)
		if row.Name == "listen" {
			args = " 127.0.0.1:1"
		}
		line := row.Name + args
		if row.Block {
			line += " {}"
		} else {
			line += ";"
		}
		class := "nginx directive"
		if row.ThirdParty {
			class = "third-party directive"
		}
		load, installed := loadLines(row, info, objects)
		if row.ThirdParty && installed && !objectHas(load, row.Name) {
			// The installed object is an older release of the module
			// than the source the tables were read from.
			continue
		}
		switch {
		case installed && load != "" && family(ctx) != "" && strings.Contains(loads[family(ctx)], strings.TrimSpace(load)):
			// A stream or mail module in the group's object, which any
			// configuration of that block loads (stream itself is the
			// case without it).
			place(class+" loaded", row.Name+" with its module loaded", ctx, line, load)
		case installed && load != "":
			place(class+" loaded", row.Name+" with its module loaded", ctx, line, load)
			place(class+" not loaded", row.Name+" without its load_module", ctx, line, "")
		default:
			place(class, row.Name+" as the build has it", ctx, line, "")
		}
		if installed && !row.ThirdParty && !row.Removed() {
			if bad := misspell(r, row.Name); bad != "" {
				place("misspelt directive", bad+" (misspelt "+row.Name+")", ctx, bad+buildArgs(row)+";", load)
			}
		}
	}
	for _, v := range directives.AllVariables() {
		name := v.Name
		if v.Prefix {
			name += "x"
		}
		class := "nginx variable"
		if v.ThirdParty {
			class = "third-party variable"
		}
		load := ""
		for _, m := range v.SourceModules {
			for _, n := range buildinfo.ObjectNames(m) {
				if l, ok := objects[n]; ok && (v.ThirdParty || slices.Contains(buildinfo.ObjectNames(info.DynamicModules()[m]), n)) {
					load = l
				}
			}
		}
		use := func(class, how string, stream bool, load string) {
			if !stream {
				place(class, how, directives.Location, `return 200 "$`+name+`";`, load)
				return
			}
			group, ok := loads["stream"]
			if !ok {
				return
			}
			// A stream server of its own: valueConfig's proxies, and
			// return beside proxy_pass is an error of its own.
			load = strings.ReplaceAll(load, group, "")
			port++
			src := load + group + "events {}\nstream {\n    server {\n        listen 127.0.0.1:" +
				fmt.Sprint(port) + ";\n        return \"$" + name + "\";\n    }\n}\n"
			out = append(out, buildCase{class: class, how: how, src: src, line: strings.Count(src, "\n") - 2})
		}
		if load != "" {
			use(class+" loaded", "$"+name+" with its module loaded", v.Stream, load)
		}
		use(class, "$"+name+" as the build has it", v.Stream, "")
		// The other family: nginx knows the name only if it has it there
		// too ($remote_addr is in both).
		if !slices.ContainsFunc(directives.LookupVariables(name), func(o *directives.Variable) bool { return o.Stream != v.Stream }) {
			use("variable of the other family", "$"+name+" outside its family", !v.Stream, load)
		}
	}
	return out
}

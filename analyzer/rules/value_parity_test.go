package rules_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/buildinfo"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/analyzer/valuecheck"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/corpustest"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// TestValueParity is the differential test of value checking (named
// without an "x" so that the benchmark command's -run x skips it): for
// every directive whose table row has a generic handler (flag, number,
// size, offset, time, buffers, enum, bitmask, path, access) and that the
// local nginx build has, it writes small configs with the directive's
// value mutated into invalid ones of its kind and into valid ones, runs
// nginx -t on each, and lints each for that build (its nginx -V). Where
// nginx stops with an error we must report an NL2xxx error at nginx's
// line, with nginx's own message when the finding is invalid-value's;
// where nginx accepts the config we must report no NL2xxx error at all.
//
// The stream and mail directives need Debian's libnginx-mod-stream and
// libnginx-mod-mail (installed by .ci/run), which the configs load with
// load_module; without them those directives are skipped and counted.
func TestValueParity(t *testing.T) {
	if testing.Short() {
		t.Skip("runs nginx a few thousand times")
	}
	nginx := nginxtest.Require(t)
	info := nginxBuild(t, nginx)
	loads, loaded := dynamicModules(info)
	info = loaded
	_, stream := loads["stream"]
	_, mail := loads["mail"]
	if os.Getenv("CI") == "true" && (!stream || !mail) {
		// .ci/run installs them; without them the stream and mail
		// directives would silently drop out of the comparison.
		t.Fatal("CI=true: the dynamic stream and mail modules are required (apt-get install libnginx-mod-stream libnginx-mod-mail)")
	}
	if !stream || !mail {
		t.Log("the dynamic stream or mail module is not installed: their directives are skipped (apt-get install libnginx-mod-stream libnginx-mod-mail)")
	}
	opts := analyzer.Options{Target: analyzer.BuildTarget(info)}

	counts := map[string]int{}
	muts := planValueMutants(info, loads, counts)
	dir := t.TempDir()
	paths := make([]string, len(muts))
	for i, m := range muts {
		paths[i] = filepath.Join(dir, fmt.Sprintf("m%05d", i), "nginx.conf")
		if err := os.MkdirAll(filepath.Dir(paths[i]), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(paths[i], []byte(m.src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	typed := map[string]bool{}
	failures := 0
	for i, run := range runAll(context.Background(), nginx, paths) {
		m := muts[i]
		if run.err != nil {
			t.Fatalf("%s: %v", m.how, run.err)
		}
		findings, err := lintValues(run.path, opts)
		if err != nil {
			t.Fatal(err)
		}
		var ours []*parser.Diagnostic
		for _, d := range findings {
			if d.Severity == parser.Error && strings.HasPrefix(d.Code, "NL2") {
				ours = append(ours, d)
			}
		}
		typed[m.key] = true
		counts["mutants"]++
		fail := func(format string, args ...any) {
			failures++
			if failures <= 40 {
				t.Errorf("%s: %s\n%s", m.how, fmt.Sprintf(format, args...), numberedLines(m.src))
			}
		}
		errs := run.res.Errors()
		if run.res.OK || len(errs) == 0 {
			if !run.res.OK {
				fail("nginx failed without an error message: %s", run.res.Stderr)
				continue
			}
			counts["nginx accepts"]++
			if m.invalid {
				counts["  of which: planned invalid"]++
			}
			for _, d := range ours {
				fail("nginx accepts it, but we report %v [%s]", d, d.Name)
			}
			continue
		}
		first := errs[0]
		counts["nginx rejects"]++
		if !m.invalid {
			counts["  of which: planned valid"]++
			t.Logf("planned valid, nginx rejects: %s: %s", m.how, first)
		}
		if first.Line != m.line {
			counts["  of which: not at the mutated line"]++
		}
		var match *parser.Diagnostic
		for _, d := range ours {
			if d.Start().Line == first.Line {
				match = d
				break
			}
		}
		switch {
		case match == nil:
			fail("nginx: %s; we report no NL2xxx error at line %d (ours: %v)", first, first.Line, ours)
		case match.Name == rules.InvalidValue.Name && match.Message != first.Text:
			fail("nginx says %q, we say %q", first.Text, match.Message)
		default:
			counts["  of which: matched, by "+match.Name]++
		}
	}
	if failures > 40 {
		t.Errorf("... and %d more failures", failures-40)
	}
	byCtx := map[string]int{}
	for k := range typed {
		_, ctx, _ := strings.Cut(k, "@")
		byCtx["directives in "+ctx]++
	}
	for k, v := range byCtx {
		counts[k] = v
	}
	counts["directives"] = len(typed)
	names := map[string]bool{}
	for k := range typed {
		name, _, _ := strings.Cut(k, "@")
		names[name] = true
	}
	counts["directive names"] = len(names)
	logCounts(t, "values", counts)
	if counts["mutants"] < 1500 || counts["directives"] < 300 {
		t.Errorf("want at least 1500 mutants over 300 directives, have %d over %d", counts["mutants"], counts["directives"])
	}
	if counts["nginx rejects"] < 600 || counts["nginx accepts"] < 600 {
		t.Errorf("too one-sided: %v", counts)
	}
}

func lintValues(path string, opts analyzer.Options) ([]*parser.Diagnostic, error) {
	c, err := (&parser.Loader{Kinds: analyzer.Kinds}).Load(path)
	if err != nil {
		return nil, err
	}
	return ruleFindings(c, rules.All(), opts), nil
}

// nginxBuild returns the build of the local nginx, from its nginx -V.
func nginxBuild(t *testing.T, nginx string) *buildinfo.Info {
	t.Helper()
	out, err := exec.Command(nginx, "-V").CombinedOutput()
	if err != nil {
		t.Fatalf("nginx -V: %v: %s", err, out)
	}
	info, err := buildinfo.Parse(string(out))
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// dynamicModules returns the load_module lines for the build's stream
// and mail modules, by family ("" when built in; no entry when dynamic
// and not installed), and the build
// with only those as its dynamic modules: the others (geoip, image_filter,
// ...) are not installed, so nginx calls their directives unknown.
func dynamicModules(info *buildinfo.Info) (map[string]string, *buildinfo.Info) {
	out := map[string]string{}
	dir := "/usr/lib/nginx/modules"
	for _, a := range info.Args {
		if v, ok := strings.CutPrefix(a, "--modules-path="); ok {
			dir = v
		}
	}
	// A module configure names as --with-X=dynamic has its own .so; the
	// rest of info.Dynamic are the group's default modules, inside the
	// group's .so (ngx_stream_module.so).
	explicit := map[string]bool{}
	for _, a := range info.Args {
		if name, ok := strings.CutSuffix(a, "=dynamic"); ok {
			explicit["ngx_"+strings.TrimPrefix(name, "--with-")] = true
		}
	}
	installed := func(m string) bool {
		_, err := os.Stat(filepath.Join(dir, m+".so"))
		return err == nil
	}
	loaded := *info
	loaded.Dynamic = nil
	for _, family := range []string{"stream", "mail"} {
		group := "ngx_" + family + "_module"
		if slices.Contains(info.Static, group) {
			out[family] = "" // built in: nothing to load
			continue
		}
		if !installed(group) {
			continue
		}
		out[family] = "load_module " + filepath.Join(dir, group+".so") + ";\n"
		for _, m := range info.Dynamic {
			if !strings.HasPrefix(m, "ngx_"+family+"_") {
				continue
			}
			if explicit[m] && m != group {
				if !installed(m) {
					continue
				}
				out[family] += "load_module " + filepath.Join(dir, m+".so") + ";\n"
			}
			loaded.Dynamic = append(loaded.Dynamic, m)
		}
	}
	return out, &loaded
}

// valueMutant is one generated config.
type valueMutant struct {
	key     string // directive@context, for the directive count
	how     string
	src     string
	line    int // the mutated directive's line
	invalid bool
}

// valueContexts are the blocks the mutants place directives in, in order
// of preference, with the family they need.
var valueContexts = []struct {
	ctx    directives.Context
	family string
}{
	{directives.Main, ""}, {directives.Events, ""}, {directives.HTTP, ""}, {directives.Server, ""},
	{directives.Location, ""}, {directives.Upstream, ""},
	{directives.Stream, "stream"}, {directives.StreamServer, "stream"}, {directives.StreamUpstream, "stream"},
	{directives.Mail, "mail"}, {directives.MailServer, "mail"},
}

// planValueMutants lists the mutants of every typed directive the build
// has.
func planValueMutants(info *buildinfo.Info, loads map[string]string, counts map[string]int) []valueMutant {
	modules := info.Modules()
	var out []valueMutant
	port := 21000
	for _, row := range directives.All() {
		if row.Value == nil || row.ThirdParty || !row.ArgsKnown {
			continue
		}
		// The handler this nginx has (proxy_limit_rate: a size in 1.22).
		spec := row.Value.For(info.Version)
		if spec == nil {
			counts["skipped: handler newer than this nginx"]++
			continue
		}
		if spec != row.Value {
			counts["older handler used"]++
		}
		switch spec.Kind {
		case directives.ValueCustom, directives.ValueStr, directives.ValueStrArray, directives.ValueKeyval:
			continue // nginx accepts any string: nothing to mutate
		}
		if !inBuildRow(row, modules) {
			counts["skipped: module not in this build"]++
			continue
		}
		since, _, _ := strings.Cut(row.Since, ",")
		if since != "" && directives.CompareVersions(info.Version, strings.TrimSpace(since)) < 0 {
			counts["skipped: newer than this nginx"]++
			continue
		}
		if row.Removed() || row.Tags.Has("src-obsolete") {
			counts["skipped: obsolete"]++
			continue
		}
		var ctx directives.Context
		family := ""
		for _, c := range valueContexts {
			if row.Contexts.Has(c.ctx) {
				ctx, family = c.ctx, c.family
				break
			}
		}
		if ctx == 0 {
			counts["skipped: only in blocks the seeds lack"]++
			continue
		}
		if _, ok := loads[family]; family != "" && !ok {
			counts["skipped: dynamic module not installed"]++
			continue
		}
		key := row.Name + "@" + ctx.String()
		for _, v := range valueCandidates(row, spec, info.Version) {
			port++
			src, line := valueConfig(ctx, row.Name+" "+v.value+";", loads, port)
			kind := "valid"
			if v.invalid {
				kind = "invalid"
			}
			out = append(out, valueMutant{
				key: key, src: src, line: line, invalid: v.invalid,
				how: fmt.Sprintf("%s %s (%s %s) in %s", row.Name, v.value, kind, spec.Kind, ctx),
			})
		}
	}
	return out
}

func inBuildRow(row *directives.Directive, modules map[string]bool) bool {
	for _, m := range row.SourceModules {
		if modules[m] {
			return true
		}
	}
	return false
}

// valueConfig returns a loopback-only config with line placed in ctx,
// and line's line number.
func valueConfig(ctx directives.Context, line string, loads map[string]string, port int) (string, int) {
	var b strings.Builder
	slot := func(c directives.Context, indent string) {
		if c == ctx {
			b.WriteString(indent + line + "\n")
		}
	}
	switch ctx {
	case directives.Stream, directives.StreamServer, directives.StreamUpstream:
		b.WriteString(loads["stream"])
	case directives.Mail, directives.MailServer:
		b.WriteString(loads["mail"])
	}
	slot(directives.Main, "")
	b.WriteString("events {\n")
	slot(directives.Events, "    ")
	b.WriteString("}\n")
	switch ctx {
	case directives.Stream, directives.StreamServer, directives.StreamUpstream:
		b.WriteString("stream {\n")
		slot(directives.Stream, "    ")
		b.WriteString("    upstream su {\n        server 127.0.0.1:9;\n")
		slot(directives.StreamUpstream, "        ")
		b.WriteString("    }\n")
		fmt.Fprintf(&b, "    server {\n        listen 127.0.0.1:%d;\n        proxy_pass su;\n", port)
		slot(directives.StreamServer, "        ")
		b.WriteString("    }\n}\n")
	case directives.Mail, directives.MailServer:
		b.WriteString("mail {\n    auth_http 127.0.0.1:9;\n")
		slot(directives.Mail, "    ")
		fmt.Fprintf(&b, "    server {\n        listen 127.0.0.1:%d;\n        protocol smtp;\n        smtp_auth none;\n", port)
		slot(directives.MailServer, "        ")
		b.WriteString("    }\n}\n")
	default:
		b.WriteString("http {\n")
		slot(directives.HTTP, "    ")
		b.WriteString("    upstream u {\n        server 127.0.0.1:9;\n")
		slot(directives.Upstream, "        ")
		b.WriteString("    }\n")
		fmt.Fprintf(&b, "    server {\n        listen 127.0.0.1:%d;\n", port)
		slot(directives.Server, "        ")
		b.WriteString("        location / {\n")
		slot(directives.Location, "            ")
		b.WriteString("        }\n    }\n}\n")
	}
	src := b.String()
	n := strings.Index(src, line)
	return src, strings.Count(src[:n], "\n") + 1
}

type candidate struct {
	value   string
	invalid bool
}

// valueCandidates returns the invalid values of the directive's kind and
// valid ones, the docs' default first (which keeps the rest of the
// config content) respelled in another form nginx reads the same.
func valueCandidates(row *directives.Directive, spec *directives.ValueSpec, version string) []candidate {
	def := defaultValue(row)
	var out []candidate
	bad := func(vs ...string) {
		for _, v := range vs {
			out = append(out, candidate{v, true})
		}
	}
	good := func(vs ...string) {
		for _, v := range vs {
			if v != "" {
				out = append(out, candidate{v, false})
			}
		}
	}
	switch spec.Kind {
	case directives.ValueFlag:
		bad("yes", "onn")
		good("ON", "Off")
	case directives.ValueNum:
		bad("1k", "-1", "$n")
		switch {
		case spec.Bounded:
			bad(strconv.FormatInt(spec.Low-1, 10))
			good(strconv.FormatInt(spec.Low, 10))
			if spec.High != -1 {
				bad(strconv.FormatInt(spec.High+1, 10))
				good(strconv.FormatInt(spec.High, 10))
			}
		case spec.Post == "ngx_http_v2_streams_index_mask":
			bad("30")
			good("64")
		default:
			if n, ok := valuecheck.Atoi(def); ok {
				good(def, "0"+strconv.FormatInt(n, 10))
			} else {
				good("16")
			}
		}
	case directives.ValueSize, directives.ValueOff:
		bad("10mb", "$s", "1.5k")
		if spec.Kind == directives.ValueSize {
			bad("2g")
		} else {
			bad("2t")
			good("2G")
		}
		switch spec.Post {
		case "ngx_http_core_pool_size", "ngx_http_v2_pool_size":
			bad("100", "4100")
			good("4k", "4096")
		case "ngx_http_gzip_window", "ngx_http_gzip_hash":
			bad("1000", "256")
			good("4k", "512")
		case "ngx_http_v2_recv_buffer_size":
			bad("16")
			good("256k")
		case "ngx_http_v2_chunk_size":
			bad("0")
			good("8k")
		default:
			if n, ok := valuecheck.ParseSize(def); ok {
				good(def, strconv.FormatInt(n, 10))
			} else {
				good("8k", "8K")
			}
		}
	case directives.ValueMsec:
		bad("1y", "1m1h", "30S", "$t", "1s1s")
		if n, ok := valuecheck.ParseTime(def, false); ok {
			good(def, strconv.FormatInt(n, 10)+"ms")
		} else {
			good("30s", `"1m 30s"`)
		}
	case directives.ValueSec:
		bad("500ms", "1m1h", "$t")
		if n, ok := valuecheck.ParseTime(def, true); ok {
			good(def, strconv.FormatInt(n, 10)+"s")
		} else {
			good("1h", "1y")
		}
	case directives.ValueBufs:
		bad("0 4k", "8 0", "x 4k", "8 2g")
		num, size, _ := strings.Cut(def, " ")
		if n, ok := valuecheck.ParseSize(size); ok && num != "" {
			good(def, num+" "+strconv.FormatInt(n, 10))
		} else {
			good("8 4k", "8 4096")
		}
	case directives.ValueEnum, directives.ValueBitmask:
		bad("bogus")
		var valid []string
		for i, v := range spec.Values {
			if spec.ValuesSince != nil && spec.ValuesSince[i] != "" && directives.CompareVersions(version, spec.ValuesSince[i]) < 0 {
				bad(v) // newer than this nginx
				continue
			}
			valid = append(valid, v)
		}
		for i, v := range valid {
			if i%2 == 1 {
				v = strings.ToUpper(v) // nginx compares ignoring case
			}
			good(v)
		}
		if spec.Kind == directives.ValueBitmask && len(valid) > 1 {
			good(valid[0] + " " + valid[len(valid)-1])
			bad(valid[0] + " bogus")
		}
	case directives.ValuePath:
		bad("tmpx 1 0", "tmpx 5 6", "tmpx 3 x", "tmpx -1")
		good("tmpx 1 2", "tmpx 2 2 2")
	case directives.ValueAccess:
		bad("user:rwx", "others:r", "user:w", "User:rw")
		good("user:rw group:rw all:r", "user:r")
	}
	return out
}

// defaultValue is the docs' default, its first form when there are
// several (8k|16k).
func defaultValue(row *directives.Directive) string {
	def, _, _ := strings.Cut(row.Default, "||")
	def, _, _ = strings.Cut(def, "|")
	return strings.TrimSpace(def)
}

// genericMessage matches the messages of nginx's generic handlers and
// of the post handlers valuecheck knows.
var genericMessage = regexp.MustCompile(`^("[^"]+" directive invalid (value|number)|invalid value "[^"]*"( in "[^"]+" directive, it must be "on" or "off")?|value must be (between|equal to or greater than) .*|the pool size must be .*|"[^"]+" directive must be .*|"[^"]+" directive value is too small)$`)

// TestValueParityCorpus checks the corpus main configs nginx
// rejects: where nginx's first error is a generic handler's message at
// a directive whose every table row has a generic handler, invalid-value
// (or invalid-arguments, for flags) must report it at nginx's line.
func TestValueParityCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("runs nginx on every corpus config")
	}
	nginxtest.Require(t)
	corpustest.Root(t)
	runs, err := corpusRuns()
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, r := range runs {
		if r.err != nil || r.res.OK {
			continue
		}
		errs := r.res.Errors()
		if len(errs) == 0 {
			continue
		}
		first := errs[0]
		if !genericMessage.MatchString(first.Text) {
			continue
		}
		counts["generic-handler message"]++
		switch {
		case r.lint.reports(rules.InvalidValue.Name, first):
			counts["  reported by invalid-value"]++
		case r.lint.reports(rules.InvalidArguments.Name, first):
			counts["  reported by invalid-arguments"]++
		default:
			d := r.lint.directiveAt(first)
			if d == nil || !allTyped(d.Name().Value) {
				counts["  directive with a custom handler"]++
				continue
			}
			t.Errorf("%s: nginx: %s; no invalid-value finding at that line", r.path, first)
		}
	}
	logCounts(t, "corpus values", counts)
}

// directiveAt returns the directive nginx's message points into.
func (l *linted) directiveAt(m nginxtest.Message) *parser.Directive {
	for _, d := range l.byName {
		if samePath(d.File.Path, m.File) && d.Line() <= m.Line && m.Line <= terminatorLine(d) {
			return d
		}
	}
	return nil
}

// allTyped reports whether every row of name with a known rule has a
// generic handler that constrains its value.
func allTyped(name string) bool {
	rows := directives.Lookup(name)
	n := 0
	for _, r := range rows {
		if !r.ArgsKnown {
			continue
		}
		if r.Value == nil {
			return false
		}
		switch r.Value.Kind {
		case directives.ValueStr, directives.ValueStrArray, directives.ValueKeyval:
			return false
		}
		n++
	}
	return n > 0
}

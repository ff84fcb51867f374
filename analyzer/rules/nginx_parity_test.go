package rules_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/buildinfo"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/corpustest"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// The parity tests run the real `nginx -t` (through parser/nginxtest,
// which refuses configs that would listen anywhere but on loopback and
// runs each in its own temporary prefix) and compare its verdict with
// ours: where nginx stops with one of the messages below, the matching
// rule must report at nginx's line.
//
// Lines: nginx reports a directive at the line it has read up to when it
// acts on it, which is the line of the directive's terminating ";" or "{",
// while our findings start at the directive's name. For a directive that
// spans several lines the two differ, so a finding matches when nginx's
// line lies between the line of the directive's name and the line of its
// terminator. This keeps the editor-friendly position (the name) and still
// fails when we point at a different directive.
//
// The local nginx is Debian's nginx-light, with far fewer modules than the
// corpus was labelled with and than our tables describe. When it calls a
// directive unknown that our tables know from nginx's source, the module
// is simply missing from this build; such cases are counted and skipped.
// The generated configs avoid the problem by mutating only directives
// that already appear in a config this nginx accepted.

// nginxKinds maps the nginx messages the parity covers to our rules.
var nginxKinds = []struct {
	re   *regexp.Regexp
	rule string
}{
	{regexp.MustCompile(`^unknown directive "([^"]*)"`), "unknown-directive"},
	{regexp.MustCompile(`^"([^"]*)" directive is not allowed here`), "directive-not-allowed"},
	{regexp.MustCompile(`^invalid number of arguments in "([^"]*)" directive`), "invalid-arguments"},
}

// classifyNginx returns the rule for an nginx message and the directive name
// it names, or "" when the message is of another kind.
func classifyNginx(text string) (rule, name string) {
	for _, k := range nginxKinds {
		if m := k.re.FindStringSubmatch(text); m != nil {
			return k.rule, m[1]
		}
	}
	return "", ""
}

// linted is one configuration loaded and analysed with every rule.
type linted struct {
	findings []*parser.Diagnostic
	// byName finds a directive by the offset of its name in its file.
	byName map[nameKey]*parser.Directive
}

type nameKey struct {
	path string
	off  int32
}

// parityLint lints path with every rule, targeting the local nginx build
// (its modules and version, as nginx -V reports them).
func parityLint(t testing.TB, path string) *linted {
	t.Helper()
	l, err := lintFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func lintFile(path string) (*linted, error) {
	opts, err := buildOptions()
	if err != nil {
		return nil, err
	}
	c, err := (&parser.Loader{Kinds: analyzer.Kinds}).Load(path)
	if err != nil {
		return nil, err
	}
	l := &linted{findings: ruleFindings(c, rules.All(), opts), byName: map[nameKey]*parser.Directive{}}
	c.Walk(func(d *parser.Directive, _ []*parser.Directive) bool {
		l.byName[nameKey{d.File.Path, d.Name().Range.Start}] = d
		return true
	})
	return l, nil
}

// buildOptions tells unknown-directive which modules and version the
// local nginx has, so that a directive of a module nginx-light lacks is
// reported as nginx reports it rather than skipped. Dynamic modules count
// as absent: the configs do not load them.
var buildOptions = sync.OnceValues(func() (analyzer.Options, error) {
	nginx, err := nginxtest.Find()
	if err != nil {
		return analyzer.Options{}, err
	}
	out, err := exec.Command(nginx, "-V").CombinedOutput()
	if err != nil {
		return analyzer.Options{}, fmt.Errorf("nginx -V: %v: %s", err, out)
	}
	info, err := buildinfo.Parse(string(out))
	if err != nil {
		return analyzer.Options{}, err
	}
	// Dynamic modules are not loaded by the generated configs.
	static := *info
	static.Dynamic = nil
	return analyzer.Options{Target: analyzer.BuildTarget(&static)}, nil
})

// reports says whether a finding of rule covers nginx's message: same
// file, and nginx's line between the directive's name and terminator. For
// an error of nginx (it refused to start) only an error matches.
func (l *linted) reports(rule string, m nginxtest.Message) bool {
	fatal := m.Level != "warn" && m.Level != "notice" && m.Level != "info"
	for _, d := range l.findings {
		if d.Name != rule || fatal && d.Severity != parser.Error || !samePath(d.FilePath(), m.File) {
			continue
		}
		first, last := d.Start().Line, d.Start().Line
		if dir := l.byName[nameKey{d.FilePath(), d.Range.Start}]; dir != nil {
			last = terminatorLine(dir)
		}
		if first <= m.Line && m.Line <= last {
			return true
		}
	}
	return false
}

func terminatorLine(d *parser.Directive) int {
	switch {
	case d.Semicolon() >= 0:
		return d.File.Line(int(d.Semicolon()))
	case d.LBrace() >= 0:
		return d.File.Line(int(d.LBrace()))
	}
	return d.Line()
}

func samePath(a, b string) bool {
	if a == b {
		return true
	}
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}

// knownToTables reports whether the source of nginx or of a third-party
// module in our tables defines name, so that "unknown directive" from
// this nginx means a module it was built without.
func knownToTables(name string) bool {
	for _, r := range directives.Lookup(name) {
		if r.ArgsKnown {
			return true
		}
	}
	return false
}

// newerThan reports whether some row of name appeared after version (a
// context or argument form this nginx cannot know yet, such as resolver
// in upstream, 1.27.3): then this nginx and our tables disagree by design.
func newerThan(name, version string) bool {
	for _, r := range directives.Lookup(name) {
		since, _, _ := strings.Cut(r.Since, ",")
		if since != "" && !r.ThirdParty && versionLess(version, strings.TrimSpace(since)) {
			return true
		}
	}
	return false
}

// versionLess compares dotted version numbers.
func versionLess(a, b string) bool {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		x, y := versionPart(as[i]), versionPart(bs[i])
		if x != y {
			return x < y
		}
	}
	return len(as) < len(bs)
}

func versionPart(s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// nginxRun is the outcome of nginx -t on one file.
type nginxRun struct {
	// path is what nginx ran on; copied says it is a loopback copy.
	path   string
	copied bool
	// src and lint are the main file's text and our findings, kept
	// because loopback copies are removed once all runs are done.
	src  string
	lint *linted
	res  nginxtest.Result
	err  error
}

// runAll runs nginx -t on every path, a few at a time.
func runAll(ctx context.Context, nginx string, paths []string) []nginxRun {
	out := make([]nginxRun, len(paths))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i, p := range paths {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			res, err := nginxtest.Test(ctx, nginx, p, nginxtest.Quiet())
			out[i] = nginxRun{path: p, res: res, err: err}
		}()
	}
	wg.Wait()
	return out
}

// loopbackCopy writes a copy of the config at path, and of the files it
// includes by relative path, under dir with every listen moved to a
// loopback port (a distinct one per original address) and a loopback
// listen added to http servers that have none. Only arguments on their
// own line change, so every directive keeps its line. It returns the new
// main path.
func loopbackCopy(path, dir string) (string, error) {
	c, err := (&parser.Loader{Kinds: analyzer.Kinds}).Load(path)
	if err != nil {
		return "", err
	}
	base := filepath.Dir(path)
	type edit struct {
		r    parser.Range
		text string
	}
	edits := map[*parser.File][]edit{}
	ports := map[string]int{}
	m := parser.BuildModel(c)
	for _, srv := range m.Servers {
		for _, l := range srv.Listens() {
			if l.Spec == nil || len(l.Directive.Args()) == 0 || strings.HasPrefix(l.Spec.Key, "unix:") {
				continue
			}
			p, ok := ports[l.Spec.Key]
			if !ok {
				p = 20000 + len(ports)
				ports[l.Spec.Key] = p
			}
			addr := fmt.Sprintf("127.0.0.1:%d", p)
			if strings.HasPrefix(l.Spec.Key, "[") {
				addr = fmt.Sprintf("[::1]:%d", p)
			}
			a := l.Directive.Args()[0]
			edits[l.Directive.File] = append(edits[l.Directive.File], edit{a.Range, addr})
		}
		if srv.Protocol == parser.HTTP && len(srv.Listens()) == 0 && srv.Directive.LBrace() >= 0 {
			at := parser.Range{Start: srv.Directive.LBrace() + 1, End: srv.Directive.LBrace() + 1}
			edits[srv.Directive.File] = append(edits[srv.Directive.File], edit{at, " listen 127.0.0.1:20999;"})
		}
	}
	var mainOut string
	for _, f := range c.Files {
		rel, err := filepath.Rel(base, f.Path)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue // outside the config's directory: left as it is
		}
		src := f.Src
		es := edits[f]
		sort.Slice(es, func(i, j int) bool { return es[i].r.Start > es[j].r.Start })
		for _, e := range es {
			src = src[:e.r.Start] + e.text + src[e.r.End:]
		}
		out := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(out, []byte(src), 0o644); err != nil {
			return "", err
		}
		if f == c.Main {
			mainOut = out
		}
	}
	if mainOut == "" {
		return "", errors.New("main file not copied")
	}
	return mainOut, nil
}

// corpusRuns runs nginx once per corpus main config for both tests.
var corpusRuns = sync.OnceValues(func() ([]nginxRun, error) {
	nginx, err := nginxtest.Find()
	if err != nil {
		return nil, err
	}
	root, ok := corpustest.Find()
	if !ok {
		return nil, errors.New("no corpus")
	}
	f, err := os.ReadFile(filepath.Join(root, "MANIFEST.tsv"))
	if err != nil {
		return nil, err
	}
	var paths []string
	lines := strings.Split(string(f), "\n")
	header := strings.Split(lines[0], "\t")
	pathCol, kindCol := columnIndex(header, "path"), columnIndex(header, "kind")
	for _, line := range lines[1:] {
		cols := strings.Split(line, "\t")
		if len(cols) > kindCol && cols[kindCol] == "main" {
			paths = append(paths, filepath.Join(root, cols[pathCol]))
		}
	}
	runs := runAll(context.Background(), nginx, paths)
	// Configs that listen beyond loopback run again as loopback copies.
	tmp, err := os.MkdirTemp("", "nginx-lint-parity-")
	if err != nil {
		return nil, err
	}
	var again []string
	var at []int
	for i, r := range runs {
		if !errors.Is(r.err, nginxtest.ErrNotLoopback) {
			continue
		}
		p, err := loopbackCopy(r.path, filepath.Join(tmp, fmt.Sprint(i)))
		if err != nil {
			continue
		}
		again = append(again, p)
		at = append(at, i)
	}
	for k, r := range runAll(context.Background(), nginx, again) {
		r.copied = true
		runs[at[k]] = r
	}
	// Lint every config and keep its text now, so that the copies can go.
	defer os.RemoveAll(tmp)
	for i := range runs {
		r := &runs[i]
		if r.err != nil {
			continue
		}
		src, err := os.ReadFile(r.path)
		if err != nil {
			return nil, err
		}
		r.src = string(src)
		if r.lint, err = lintFile(r.path); err != nil {
			return nil, err
		}
	}
	return runs, nil
})

func columnIndex(s []string, x string) int {
	for i, v := range s {
		if v == x {
			return i
		}
	}
	return -1
}

// knownDisagreements are directives where this nginx and our tables
// disagree for reasons no table column captures; each is counted and
// skipped rather than failing, and any other disagreement still fails.
var knownDisagreements = map[string]string{
	// Debian's 1.22.1 carries a backport of max_headers (1.29.8 upstream),
	// so the version check wrongly calls it too new for this build.
	"max_headers": "backported by Debian",
	// ngx_http_tunnel_module is new and built by default; its rows have
	// no "since", so nothing tells the tables that 1.22 lacks it.
	"tunnel_pass":         "module newer than this nginx, no since",
	"tunnel_read_timeout": "module newer than this nginx, no since",
}

// directiveRules are the rules whose findings mean "nginx -t fails".
var directiveRules = map[string]bool{"unknown-directive": true, "directive-not-allowed": true, "invalid-arguments": true, "invalid-value": true}

// TestNginxParityCorpus runs nginx -t on every corpus main config that is
// loopback-only. Where nginx's first error is an unknown directive, a
// directive in the wrong block or a wrong argument count, we must report
// it at nginx's line; where nginx accepts the config, none of the
// directive-table rules may fire.
func TestNginxParityCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("runs nginx on every corpus config")
	}
	nginx := nginxtest.Require(t)
	corpustest.Root(t)
	version, err := nginxtest.Version(context.Background(), nginx)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := corpusRuns()
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, r := range runs {
		if errors.Is(r.err, nginxtest.ErrNotLoopback) {
			counts["skipped: not loopback-only"]++
			continue
		}
		if r.err != nil {
			t.Fatalf("%s: %v", r.path, r.err)
		}
		errs := r.res.Errors()
		if r.res.OK {
			counts["accepted by nginx"]++
			for _, d := range r.lint.findings {
				if name := directiveName(d); knownDisagreements[name] != "" {
					counts["skipped: known disagreement ("+name+")"]++
					continue
				}
				if directiveRules[d.Name] || fatalFinding(d) {
					t.Errorf("%s: nginx accepts it, but %v [%s]", r.path, d, d.Name)
				}
			}
			continue
		}
		if len(errs) == 0 {
			counts["failed without a message"]++
			continue
		}
		first := errs[0]
		rule, name := classifyNginx(first.Text)
		switch {
		case rule == "" && valueRule(first.Text) != "" && first.Line > 0:
			vr := valueRule(first.Text)
			if r.lint.has("include-cycle") {
				// nginx-tests' geo.conf includes itself in a geo block,
				// which geo reads as entries: the loader stops at the
				// cycle, so we never see what nginx reports on.
				counts["skipped: value error in a file the loader refused as a cycle"]++
				continue
			}
			counts["value: "+vr]++
			if !r.lint.reports(vr, first) {
				t.Errorf("%s: nginx: %s; no %s finding at that line", r.path, first, vr)
			} else if !r.lint.saysExactly(vr, first) {
				t.Errorf("%s: nginx says %q; our %s finding words it otherwise", r.path, first.Text, vr)
			}
			continue
		case rule == "":
			counts["other first error"]++
			continue
		case knownDisagreements[name] != "":
			counts["skipped: known disagreement ("+name+")"]++
			continue
		case rule != "unknown-directive" && newerThan(name, version):
			counts["skipped: tables newer than this nginx"]++
			continue
		}
		counts[rule]++
		if rule == "unknown-directive" && knownToTables(name) {
			counts["  of which: module missing from this build"]++
		}
		if r.copied {
			counts["  of which: run as a loopback copy"]++
		}
		if !r.lint.reports(rule, first) {
			t.Errorf("%s: nginx: %s; no %s finding at that line", r.path, first, rule)
		}
	}
	logCounts(t, "corpus", counts)
	// Few corpus configs are loopback-only and load far enough in
	// nginx-light; the generated configs carry the volume.
	if counts["unknown-directive"]+counts["directive-not-allowed"]+counts["invalid-arguments"] < 10 {
		t.Errorf("too few comparable errors: %v", counts)
	}
	if counts["accepted by nginx"] < 50 {
		t.Errorf("too few accepted configs: %v", counts)
	}
}

// fatalFinding reports findings of the correctness rules that claim
// nginx refuses to start (protocol options redefined is only a warning,
// and only in nginx 1.25.5 and later).
func fatalFinding(d *parser.Diagnostic) bool {
	if valueRules[d.Name] {
		return d.Severity == parser.Error
	}
	switch d.Name {
	case "duplicate-default-server", "duplicate-directive":
		return true
	case "duplicate-listen":
		return !strings.HasPrefix(d.Message, "protocol options redefined")
	}
	return false
}

// directiveName returns the directive name a finding quotes first.
func directiveName(d *parser.Diagnostic) string {
	if _, rest, ok := strings.Cut(d.Message, `"`); ok {
		name, _, _ := strings.Cut(rest, `"`)
		return name
	}
	return ""
}

func logCounts(t *testing.T, what string, counts map[string]int) {
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "\n  %-40s %d", k, counts[k])
	}
	t.Logf("%s:%s", what, b.String())
}

// seedConfig is a loopback-only config that nginx-light accepts, with a
// block of each kind the mutations move directives into.
const seedConfig = `worker_processes 1;
events {
    worker_connections 64;
}
http {
    sendfile on;
    keepalive_timeout 30s;
    gzip on;
    gzip_types text/plain;
    upstream app {
        server 127.0.0.1:9001;
        keepalive 4;
    }
    server {
        listen 127.0.0.1:8080;
        server_name example.test;
        root /srv/www;
        index index.html;
        client_max_body_size 1m;
        location / {
            try_files $uri $uri/ =404;
            expires 1h;
        }
        location /api/ {
            proxy_pass http://app;
            proxy_set_header Host $host;
            proxy_read_timeout 10s;
            if ($request_method = POST) {
                return 405;
            }
            limit_except GET {
                deny all;
            }
        }
        location = /x {
            alias /srv/x;
            add_header X-Test 1;
            rewrite ^ /y last;
        }
    }
}
`

// seed is a config nginx accepts, as files relative to its directory
// (nginx.conf first of all), and the files whose directives may be
// mutated, with the context each is included in.
type seed struct {
	files   map[string]string
	mutable map[string]directives.Context
}

// includeSeed spreads a config over included files at three levels
// (http, server, location), so that mutants put nginx's error in an
// included file, where file and line must match too.
var includeSeed = seed{
	files: map[string]string{
		"nginx.conf": "events {\n    worker_connections 64;\n}\nhttp {\n    include conf.d/*.conf;\n}\n",
		"conf.d/site.conf": "sendfile on;\nkeepalive_timeout 30s;\nserver {\n    listen 127.0.0.1:8080;\n" +
			"    server_name inc.test;\n    include snippets/server.conf;\n    location / {\n" +
			"        include snippets/location.conf;\n    }\n}\n",
		"snippets/server.conf":   "root /srv/www;\nindex index.html;\nclient_max_body_size 1m;\nerror_page 404 /404.html;\n",
		"snippets/location.conf": "proxy_pass http://127.0.0.1:9001;\nproxy_set_header Host $host;\nproxy_read_timeout 10s;\nexpires 1h;\n",
	},
	mutable: map[string]directives.Context{
		"conf.d/site.conf":       directives.HTTP,
		"snippets/server.conf":   directives.Server,
		"snippets/location.conf": directives.Location,
	},
}

// mutant is one generated config and the error it must cause.
type mutant struct {
	// src is the mutated text of file (a path relative to the seed's
	// directory); the seed's other files stay as they are.
	file, src, how, rule string
	line                 int // the line nginx must report (the terminator's)
	nameLine             int // the line of the directive's name
}

// seedDirective is a directive of a seed with the context it is in.
type seedDirective struct {
	d   *parser.Directive
	ctx directives.Context
}

// seedBlock is a block of a seed that a directive can be moved into.
type seedBlock struct {
	lbrace int // offset of "{", or -1 for the top level
	ctx    directives.Context
}

func collectSeed(f *parser.File, root directives.Context) (dirs []seedDirective, blocks []seedBlock) {
	blocks = append(blocks, seedBlock{lbrace: -1, ctx: root})
	var walk func(ds []*parser.Directive, ctx directives.Context)
	walk = func(ds []*parser.Directive, ctx directives.Context) {
		for _, d := range ds {
			dirs = append(dirs, seedDirective{d, ctx})
			if d.Block == nil {
				continue
			}
			inner, ok := directives.ChildContext(d.Name().Value, ctx)
			if !ok || inner == 0 {
				continue
			}
			if inner&(directives.Map|directives.Geo|directives.StreamMap|directives.StreamGeo) == 0 {
				blocks = append(blocks, seedBlock{lbrace: int(d.LBrace()), ctx: inner})
			}
			walk(d.Block.Directives, inner)
		}
	}
	walk(f.Directives, root)
	return dirs, blocks
}

// plainRow returns the table row of a simple directive we may mutate: in
// a context whose body is made of directives, not include (whose file
// would be missing), with a known argument rule.
func plainRow(sd seedDirective) *directives.Directive {
	d := sd.d
	if d.Block != nil || d.RawBlock() || d.Name().Value == "include" || sd.ctx == 0 ||
		sd.ctx&(directives.Map|directives.Geo|directives.StreamMap|directives.StreamGeo) != 0 {
		return nil
	}
	row := directives.InContext(d.Name().Value, sd.ctx)
	if row == nil || !row.ArgsKnown || row.ThirdParty || row.Args&directives.AnyArgs != 0 {
		return nil
	}
	return row
}

// lineAt returns the 1-based line of offset off in src.
func lineAt[T int | int32](src string, off T) int { return strings.Count(src[:off], "\n") + 1 }

// mutateSeed makes the three kinds of broken config from one seed.
func mutateSeed(r *rand.Rand, src string, root directives.Context) []mutant {
	f := parser.ParseString("nginx.conf", src, &parser.Options{Kinds: analyzer.Kinds})
	dirs, blocks := collectSeed(f, root)
	var out []mutant
	var plain []seedDirective
	for _, sd := range dirs {
		if plainRow(sd) != nil {
			plain = append(plain, sd)
		}
	}
	if len(plain) == 0 {
		return nil
	}
	r.Shuffle(len(plain), func(i, j int) { plain[i], plain[j] = plain[j], plain[i] })
	if len(plain) > 3 {
		plain = plain[:3]
	}
	for i, sd := range plain {
		d := sd.d
		// A misspelled name.
		if bad := misspell(r, d.Name().Value); bad != "" {
			s := src[:d.Name().Range.Start] + bad + src[d.Name().Range.End:]
			out = append(out, mutant{"", s, "misspelled " + d.Name().Value + " as " + bad, "unknown-directive",
				lineAt(src, d.Semicolon()), lineAt(src, d.Name().Range.Start)})
		}
		// The directive copied into a block that does not allow it.
		text := src[d.Name().Range.Start : d.Semicolon()+1]
		for _, k := range r.Perm(len(blocks)) {
			b := blocks[k]
			if directives.InContext(d.Name().Value, b.ctx) != nil {
				continue
			}
			at := b.lbrace + 1 // the top level inserts at offset 0
			ins := "\n" + text + "\n"
			if b.lbrace < 0 {
				ins = text + "\n"
			}
			s := src[:at] + ins + src[at:]
			line := lineAt(s, at+strings.LastIndexByte(ins, ';'))
			out = append(out, mutant{"", s, fmt.Sprintf("%s moved into %s", d.Name().Value, b.ctx), "directive-not-allowed",
				line, lineAt(s, at+len(ins)-len(text)-1)})
			break
		}
		// A wrong number of arguments, written over several lines every
		// other time so that the name and the ";" are on different lines.
		row := plainRow(sd)
		n := len(d.Args())
		var args []string
		switch {
		case !row.Args.Accepts(0):
			args = nil
		case !row.Args.Accepts(n + 1):
			args = append(d.ArgValues(), "x")
		default:
			continue
		}
		for len(args) > 0 && row.Args.Accepts(len(args)) && len(args) < 8 {
			args = append(args, "x")
		}
		if len(args) > 0 && row.Args.Accepts(len(args)) {
			continue
		}
		sep := " "
		if i%2 == 0 && len(args) > 0 {
			sep = "\n    "
		}
		for j, a := range args {
			args[j] = quoteArg(a)
		}
		body := d.Name().Value
		switch {
		case len(args) > 0:
			body += sep + strings.Join(args, sep)
		case i%2 == 0:
			body += "\n    " // the ";" alone on the next line
		}
		s := src[:d.Name().Range.Start] + body + src[d.Semicolon():]
		line := lineAt(s, int(d.Name().Range.Start)+len(body))
		out = append(out, mutant{"", s, fmt.Sprintf("%s with %d arguments", d.Name().Value, len(args)), "invalid-arguments",
			line, lineAt(s, d.Name().Range.Start)})
	}
	return out
}

// quoteArg quotes a value that would not survive as a bare word.
func quoteArg(a string) string {
	if a == "" || strings.ContainsAny(a, " \t\n;{}\"'\\#$") {
		return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(a) + "'"
	}
	return a
}

// misspell changes name the way typing does (a dropped, doubled or
// swapped letter) into a name no table knows; "" if it found none.
func misspell(r *rand.Rand, name string) string {
	for try := 0; try < 10; try++ {
		i := r.IntN(len(name))
		var s string
		switch r.IntN(3) {
		case 0:
			s = name[:i] + name[i+1:]
		case 1:
			s = name[:i] + name[i:i+1] + name[i:]
		default:
			if i+1 >= len(name) {
				continue
			}
			s = name[:i] + name[i+1:i+2] + name[i:i+1] + name[i+2:]
		}
		if s != "" && s != name && len(directives.Lookup(s)) == 0 && s[0] != '#' {
			return s
		}
	}
	return ""
}

// writeMutant writes a seed's files with m applied into a fresh
// directory and returns the path of its nginx.conf.
func writeMutant(t *testing.T, sd seed, m mutant) string {
	sub := t.TempDir()
	for name, src := range sd.files {
		if name == m.file {
			src = m.src
		}
		p := filepath.Join(sub, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(sub, "nginx.conf")
}

// paritySeeds returns the built-in seeds, then the single-file corpus
// configs this nginx accepts.
func paritySeeds(t *testing.T) []seed {
	seeds := []seed{{files: map[string]string{"nginx.conf": seedConfig}, mutable: map[string]directives.Context{"nginx.conf": directives.Main}}, includeSeed}
	if _, ok := corpustest.Find(); ok {
		runs, err := corpusRuns()
		if err != nil {
			t.Fatal(err)
		}
		var corpus []seed
		for _, r := range runs {
			if r.err != nil || !r.res.OK {
				continue
			}
			src := []byte(r.src)
			// Corpus seeds are copied alone, so their includes would not
			// resolve; the built-in includeSeed covers included files.
			if !regexp.MustCompile(`(?m)^\s*include\s`).Match(src) {
				corpus = append(corpus, seed{files: map[string]string{"nginx.conf": string(src)},
					mutable: map[string]directives.Context{"nginx.conf": directives.Main}})
			}
		}
		seeds = append(seeds, corpus...)
	}
	return seeds
}

// TestNginxParityGenerated breaks configs nginx accepts (built-in seeds,
// one spread over included files, and a sample of the single-file corpus
// configs this nginx accepts) in the three
// ways the directive-table rules cover, runs nginx -t on each mutant, and
// requires our finding at nginx's line whenever nginx reports that kind
// of error.
func TestNginxParityGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("runs nginx a few hundred times")
	}
	nginx := nginxtest.Require(t)
	seeds := paritySeeds(t)
	r := rand.New(rand.NewPCG(4, 2026))
	// A sample of the corpus seeds keeps the run short.
	r.Shuffle(len(seeds)-2, func(i, j int) { seeds[i+2], seeds[j+2] = seeds[j+2], seeds[i+2] })
	if len(seeds) > 60 {
		seeds = seeds[:60]
	}
	type planned struct {
		mutant
		seed seed
	}
	var muts []planned
	// Without the corpus (a user's clone) only the two built-in seeds
	// remain; more rounds on them keep every kind above its floor.
	scale := 1
	if len(seeds) == 2 {
		scale = 6
	}
	for _, sd := range seeds {
		names := make([]string, 0, len(sd.mutable))
		for n := range sd.mutable {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			// The include seed gets more mutants: it is the only one
			// whose errors land in included files.
			rounds := scale
			if len(sd.files) > 1 {
				rounds = 4 * scale
			}
			for k := 0; k < rounds; k++ {
				for _, m := range mutateSeed(r, sd.files[n], sd.mutable[n]) {
					m.file = n
					muts = append(muts, planned{m, sd})
				}
			}
		}
	}
	paths := make([]string, len(muts))
	for i, m := range muts {
		paths[i] = writeMutant(t, m.seed, m.mutant)
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
		errs := run.res.Errors()
		if len(errs) == 0 {
			// e.g. a directive moved into if-in-location that the
			// tables think is not allowed there: nginx accepted it.
			counts["nginx accepted the mutant"]++
			if parityLint(t, run.path).has(m.rule) {
				t.Errorf("%s in %s: nginx accepts it, but we report %s\n%s", m.how, m.file, m.rule, m.src)
			}
			continue
		}
		rule, _ := classifyNginx(errs[0].Text)
		if rule == "" {
			counts["other first error"]++
			continue
		}
		if rule != m.rule || errs[0].Line != m.line || filepath.Base(errs[0].File) != filepath.Base(m.file) {
			// nginx stopped at something else first; still compare.
			counts["different error than planned"]++
		}
		counts[rule]++
		if m.file != "nginx.conf" {
			counts["  of which: in an included file"]++
		}
		if errs[0].Line != m.nameLine {
			counts["  of which: nginx's line is not the name's"]++
		}
		if !parityLint(t, run.path).reports(rule, errs[0]) {
			t.Errorf("%s in %s: nginx: %s; no %s finding at that line\n%s", m.how, m.file, errs[0], rule, numberedLines(m.src))
		}
	}
	logCounts(t, fmt.Sprintf("generated (%d seeds, %d mutants)", len(seeds), len(muts)), counts)
	for _, k := range nginxKinds {
		if counts[k.rule] < 30 {
			t.Errorf("only %d mutants exercised %s", counts[k.rule], k.rule)
		}
	}
}

func (l *linted) has(rule string) bool {
	for _, d := range l.findings {
		if d.Name == rule {
			return true
		}
	}
	return false
}

func numberedLines(src string) string {
	lines := strings.Split(src, "\n")
	for i := range lines {
		lines[i] = fmt.Sprintf("%3d %s", i+1, lines[i])
	}
	return strings.Join(lines, "\n")
}

// TestNginxParityCorrectness runs small configs through nginx -t for the
// correctness rules nginx itself checks (duplicate listens, default
// servers, server names, "is duplicate", ssl on): nginx's message must
// come with our finding of the same text at the same place, and configs
// nginx takes silently must leave those rules quiet. Files after the
// first are written beside nginx.conf, for include-spanning cases.
func TestNginxParityCorrectness(t *testing.T) {
	nginx := nginxtest.Require(t)
	const head = "events {}\nhttp {\n"
	cases := []struct {
		name  string
		files []string // nginx.conf, then inc.conf
		// nginx is the message nginx must give ("" for none), rule the
		// rule that must report it.
		nginx, rule string
	}{
		{"listen twice", []string{head + "server {\n listen 127.0.0.1:8080;\n listen 127.0.0.1:8080;\n}\n}\n"},
			`^a duplicate listen 127.0.0.1:8080$`, "duplicate-listen"},
		{"listen twice via include", []string{head + "server {\n listen 127.0.0.1:8080;\n include inc.conf;\n}\n}\n", "\n\nlisten 127.0.0.1:8080;\n"},
			`^a duplicate listen 127.0.0.1:8080$`, "duplicate-listen"},
		{"socket options twice", []string{head + "server {\n listen 127.0.0.1:8080 backlog=10;\n}\nserver {\n listen 127.0.0.1:8080 rcvbuf=64k;\n server_name b;\n}\n}\n"},
			`^duplicate listen options for 127.0.0.1:8080$`, "duplicate-listen"},
		{"default server twice", []string{head + "server {\n listen 127.0.0.1:8080 default_server;\n}\nserver {\n listen 127.0.0.1:8080 default_server;\n server_name b;\n}\n}\n"},
			`^a duplicate default server for 127.0.0.1:8080$`, "duplicate-default-server"},
		{"default server on other addresses", []string{head + "server {\n listen 127.0.0.1:8080 default_server;\n}\nserver {\n listen 127.0.0.2:8080 default_server;\n listen [::1]:8080 default_server;\n}\n}\n"},
			"", "duplicate-default-server"},
		{"server name twice", []string{head + "server {\n listen 127.0.0.1:8080;\n server_name a.test;\n}\nserver {\n listen 127.0.0.1:8080;\n server_name A.test b.test;\n}\n}\n"},
			`^conflicting server name "a.test" on 127.0.0.1:8080, ignored$`, "conflicting-server-name"},
		{"dot wildcard and star", []string{head + "server {\n listen 127.0.0.1:8080;\n server_name *.a.test;\n}\nserver {\n listen 127.0.0.1:8080;\n server_name .a.test;\n}\n}\n"},
			`^conflicting server name "\.a\.test" on 127.0.0.1:8080, ignored$`, "conflicting-server-name"},
		{"no server_name twice", []string{head + "server {\n listen 127.0.0.1:8080;\n}\nserver {\n listen 127.0.0.1:8080;\n}\n}\n"},
			`^conflicting server name "" on 127.0.0.1:8080, ignored$`, "conflicting-server-name"},
		{"same name on other addresses", []string{head + "server {\n listen 127.0.0.1:8080;\n server_name a.test;\n}\nserver {\n listen 127.0.0.2:8080;\n server_name a.test;\n}\n}\n"},
			"", "conflicting-server-name"},
		{"regex names never conflict", []string{head + "server {\n listen 127.0.0.1:8080;\n server_name ~^a;\n}\nserver {\n listen 127.0.0.1:8080;\n server_name ~^a;\n}\n}\n"},
			"", "conflicting-server-name"},
		{"sendfile twice", []string{head + "sendfile on;\nsendfile off;\nserver {\n listen 127.0.0.1:8080;\n}\n}\n"},
			`^"sendfile" directive is duplicate$`, "duplicate-directive"},
		{"root then alias", []string{head + "server {\n listen 127.0.0.1:8080;\n location /a/ {\n  root /srv;\n  alias /srv/a/;\n }\n}\n}\n"},
			`^"alias" directive is duplicate, "root" directive was specified earlier$`, "duplicate-directive"},
		{"worker_processes twice", []string{"worker_processes 1;\nworker_processes 2;\n" + head + "}\n"},
			`^"worker_processes" directive is duplicate$`, "duplicate-directive"},
		{"proxy_pass twice via include", []string{head + "server {\n listen 127.0.0.1:8080;\n location / {\n  proxy_pass http://127.0.0.1:9;\n  include inc.conf;\n }\n}\n}\n", "proxy_pass http://127.0.0.1:10;\n"},
			`^"proxy_pass" directive is duplicate$`, "duplicate-directive"},
		{"root in nested blocks", []string{head + "root /a;\nserver {\n listen 127.0.0.1:8080;\n root /b;\n location / {\n  root /c;\n  if ($uri) {\n   root /d;\n  }\n }\n}\n}\n"},
			"", "duplicate-directive"},
		{"repeatable directives", []string{head + "server {\n listen 127.0.0.1:8080;\n add_header A 1;\n add_header B 2;\n error_page 404 /a;\n error_page 500 /b;\n}\n}\n"},
			"", "duplicate-directive"},
		{"prefix location twice", []string{head + "server {\n listen 127.0.0.1:8080;\n location /a/ {}\n location = /a/ {}\n location ^~ /a/ {}\n}\n}\n"},
			`^duplicate location "/a/"$`, "duplicate-directive"},
		{"regex locations twice", []string{head + "server {\n listen 127.0.0.1:8080;\n location ~ /a/ {}\n location ~ /a/ {}\n}\n}\n"},
			"", "duplicate-directive"},
		{"upstream twice", []string{head + "upstream u {\n server 127.0.0.1:9;\n}\nupstream u {\n server 127.0.0.1:10;\n}\nserver {\n listen 127.0.0.1:8080;\n}\n}\n"},
			`^duplicate upstream "u"$`, "duplicate-directive"},
		{"log_format twice via include", []string{head + "log_format x '$uri';\ninclude inc.conf;\nserver {\n listen 127.0.0.1:8080;\n}\n}\n", "log_format x '$args';\n"},
			`^duplicate "log_format" name "x"$`, "duplicate-directive"},
		{"ssl on", []string{head + "server {\n listen 127.0.0.1:8080;\n ssl on;\n}\n}\n"},
			`^the "ssl" directive is deprecated, use the "listen \.\.\. ssl" directive instead$`, "deprecated"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			main := filepath.Join(dir, "nginx.conf")
			for i, src := range tc.files {
				name := main
				if i > 0 {
					name = filepath.Join(dir, "inc.conf")
				}
				if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			res, err := nginxtest.Test(context.Background(), nginx, main)
			if err != nil {
				t.Fatal(err)
			}
			l := parityLint(t, main)
			var ours []*parser.Diagnostic
			for _, d := range l.findings {
				if d.Name == tc.rule {
					ours = append(ours, d)
				}
			}
			if tc.nginx == "" {
				if len(res.Errors()) > 0 || strings.Contains(res.Stderr, "[warn]") {
					t.Fatalf("nginx was expected to accept it silently:\n%s", res.Stderr)
				}
				if len(ours) > 0 {
					t.Errorf("nginx accepts it, but we report %v", ours)
				}
				return
			}
			re := regexp.MustCompile(tc.nginx)
			var got *nginxtest.Message
			for i, m := range res.Messages {
				if re.MatchString(m.Text) {
					got = &res.Messages[i]
					break
				}
			}
			if got == nil {
				t.Fatalf("nginx did not say %s:\n%s", tc.nginx, res.Stderr)
			}
			if len(ours) != 1 {
				t.Fatalf("want one %s finding, got %v", tc.rule, ours)
			}
			if ours[0].Message != got.Text {
				t.Errorf("message %q, nginx says %q", ours[0].Message, got.Text)
			}
			// Messages logged after parsing (server names) carry no place.
			if got.Line > 0 && !l.reports(tc.rule, *got) {
				t.Errorf("nginx reports %s:%d, we %v", got.File, got.Line, ours[0])
			}
		})
	}
}

// duplicateName matches nginx's messages for a name defined twice, which
// duplicate-directive reports as well.
var duplicateName = regexp.MustCompile(`^(duplicate "log_format" name "|limit_(req|conn)_zone "[^"]*" is already bound|the same path name "|duplicate upstream ")`)

// TestNginxParityDuplicates checks duplicate-directive's table against the
// real nginx: every simple directive of the seeds (up to a few per seed)
// is written twice in a row. Where nginx answers `"x" directive is
// duplicate` we must report it at nginx's line; where nginx accepts the
// repeat we must not. Directives whose handler changed after this nginx's
// version, and those nginx rejects with another message first (a second
// listen, for one), are counted and skipped. Names defined twice
// (log_format, zones, cache paths) must be reported too.
func TestNginxParityDuplicates(t *testing.T) {
	if testing.Short() {
		t.Skip("runs nginx a few hundred times")
	}
	nginx := nginxtest.Require(t)
	seeds := paritySeeds(t)
	r := rand.New(rand.NewPCG(7, 2026))
	r.Shuffle(len(seeds)-2, func(i, j int) { seeds[i+2], seeds[j+2] = seeds[j+2], seeds[i+2] })
	if len(seeds) > 80 {
		seeds = seeds[:80]
	}
	type planned struct {
		mutant
		seed seed
		name string
	}
	var muts []planned
	tried := map[string]int{} // per directive name, to spread the sample
	for _, sd := range seeds {
		for file, root := range sd.mutable {
			src := sd.files[file]
			f := parser.ParseString("nginx.conf", src, &parser.Options{Kinds: analyzer.Kinds})
			dirs, _ := collectSeed(f, root)
			for _, d := range dirs {
				if plainRow(d) == nil || tried[d.d.Name().Value] >= 3 {
					continue
				}
				tried[d.d.Name().Value]++
				text := src[d.d.Name().Range.Start : d.d.Semicolon()+1]
				at := int(d.d.Semicolon()) + 1
				s := src[:at] + "\n" + text + src[at:]
				line := lineAt(s, at+1+len(text)-1)
				muts = append(muts, planned{mutant{file, s, d.d.Name().Value + " twice", "duplicate-directive", line, lineAt(s, at+1)}, sd, d.d.Name().Value})
			}
		}
	}
	paths := make([]string, len(muts))
	for i, m := range muts {
		paths[i] = writeMutant(t, m.seed, m.mutant)
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
		l := parityLint(t, run.path)
		var ours *parser.Diagnostic
		for _, d := range l.findings {
			if d.Name == "duplicate-directive" && directiveName(d) == m.name && d.Start().Line == m.nameLine {
				ours = d
			}
		}
		errs := run.res.Errors()
		switch {
		case len(errs) == 0:
			counts["nginx accepts the repeat"]++
			if ours != nil {
				t.Errorf("%s in %s: nginx accepts it, but we report %v", m.how, m.file, ours)
			}
		case errs[0].Text == fmt.Sprintf("%q directive is duplicate", m.name) || duplicateName.MatchString(errs[0].Text):
			counts["nginx: is duplicate"]++
			if !l.reports("duplicate-directive", errs[0]) {
				t.Errorf("%s in %s: nginx: %s; no duplicate-directive finding at that line", m.how, m.file, errs[0])
			}
		case strings.HasPrefix(errs[0].Text, "a duplicate listen "):
			counts["nginx: a duplicate listen"]++
			if !l.reports("duplicate-listen", errs[0]) {
				t.Errorf("%s in %s: nginx: %s; no duplicate-listen finding at that line", m.how, m.file, errs[0])
			}
		default:
			counts["skipped: nginx stops at another error"]++
		}
	}
	logCounts(t, fmt.Sprintf("duplicates (%d seeds, %d directives)", len(seeds), len(muts)), counts)
	if counts["nginx: is duplicate"] < 20 || counts["nginx accepts the repeat"] < 10 {
		t.Errorf("too few comparisons: %v", counts)
	}
}

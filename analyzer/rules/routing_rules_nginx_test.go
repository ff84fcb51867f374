//go:build unix

package rules_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/analysistest"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// The rules that stand on the request model (unreachable-location,
// redirect-cycle, rewrite-loop, missing-named-location) against the real
// nginx: each configuration is linted, started on loopback and asked.

// routingNginx starts nginx on the http block body (servers listening on
// PORT, which it replaces) and returns the address, the configuration's
// path and the error log's.
func routingNginx(t *testing.T, ngx, body string) (addr, conf, errLog string) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	dir := t.TempDir()
	conf = filepath.Join(dir, "nginx.conf")
	errLog = filepath.Join(dir, "error.log")
	text := fmt.Sprintf("worker_processes 1;\nerror_log %s info;\nevents {}\nhttp {\n    access_log off;\n%s}\n", errLog,
		strings.ReplaceAll(body, "PORT", strconv.Itoa(port)))
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	inst, err := nginxtest.Start(ctx, ngx, conf)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { inst.Stop(context.Background()) })
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), conf, errLog
}

// requestModel is the request model of the configuration at path.
func requestModel(t *testing.T, path string) *routing.Model {
	t.Helper()
	c, err := (&parser.Loader{Kinds: analyzer.Kinds}).Load(path)
	if err != nil {
		t.Fatal(err)
	}
	m := parser.BuildModel(c)
	return routing.New(m, costmodel.Compute(m, costmodel.Options{}), routing.Options{NoFiles: true})
}

// Locations of the drawn configurations: each answers with its number.
var (
	drawnPrefixes = []string{"/", "/api/", "/api/v1/", "/api/v1/users", "/static/", "/static/img/", "/img/", "/a", "/ab/"}
	drawnRegexes  = []string{`/api`, `^/api`, `^/api/v1`, `^/api/v1/[a-z]+$`, `\.php$`, `\.(css|js)$`, `\.css$`, `\.js$`,
		`^/static/.*\.png$`, `^/img/[0-9]+`, `/v1/`, `\.(png|jpg)$`, `^/(api|static)/`, `^/a`, `b$`, `^/$`, `(?i)\.PNG$`, `^/static/`}
)

// drawLocations writes a server's random locations, numbered from 1.
func drawLocations(r *rand.Rand) string {
	var b strings.Builder
	n := 0
	usedPath := map[string]bool{}
	for range 3 + r.IntN(8) {
		n++
		if r.IntN(2) == 0 {
			p := drawnPrefixes[r.IntN(len(drawnPrefixes))]
			mod := []string{"", "", "^~ ", "= "}[r.IntN(4)]
			if usedPath[mod+p] || usedPath[p] && mod != "= " || usedPath["^~ "+p] && mod == "" || usedPath[p] && mod == "^~ " {
				n--
				continue
			}
			usedPath[mod+p] = true
			fmt.Fprintf(&b, "        location %s%s { return 200 \"L%d\\n\"; }\n", mod, p, n)
			continue
		}
		re := drawnRegexes[r.IntN(len(drawnRegexes))]
		mod := "~"
		if r.IntN(4) == 0 {
			mod = "~*"
		}
		fmt.Fprintf(&b, "        location %s \"%s\" { return 200 \"L%d\\n\"; }\n", mod, re, n)
	}
	return b.String()
}

var lineOfLoc = regexp.MustCompile(`return 200 "L(\d+)`)

// TestUnreachableAgainstNginx draws servers of prefix, "^~", exact and
// regex locations from pools whose regexes include one another, lints
// them, starts nginx on them and sends each the request set diff uses
// (routing.Probes) plus two examples of every location: no location
// unreachable-location reports ever answers, and every answer is the
// model's. The cases of its documentation are asked too.
func TestUnreachableAgainstNginx(t *testing.T) {
	ngx := nginxtest.Require(t)
	analysistest.Registry = rules.All()
	r := rand.New(rand.NewPCG(29, 4))
	flagged, probes, compared := 0, 0, 0
	bodies := []string{
		// The walf443 "good" example: /api never answers.
		`        location / { return 200 "L1\n"; }
        location /api { return 200 "L2\n"; }
        location ~ /api/v1 { return 200 "L3\n"; }
        location ~ /api { return 200 "L4\n"; }
`,
		// The documentation's prefix case and a regex beside an exact
		// location, which /x%0A reaches.
		`        location /api/v1/ { return 200 "L1\n"; }
        location ~ ^/api { return 200 "L2\n"; }
        location = /x { return 200 "L3\n"; }
        location ~ ^/x$ { return 200 "L4\n"; }
        location ~ \.(css|js)$ { return 200 "L5\n"; }
        location ~ \.css$ { return 200 "L6\n"; }
`,
		// A try_files fallback without "/": "index.php" reaches the
		// regex that every "/" URI of ~ / would hide.
		`        root /nonexistent-nginx-lint;
        location ^~ /t/ { try_files $uri index.php; }
        location ~ / { return 200 "L2\n"; }
        location ~ \.php$ { return 200 "L3\n"; }
`,
		// Caseless regexes naming bytes above 0x7f, an inline (?i) and
		// general categories: PCRE folds ASCII letters only, so L2 and
		// L4 are reachable (0xE3 is not 0xC3) and L3 and L5 are not.
		"        location ~* \\xc3 { return 200 \"L1\\n\"; }\n" +
			"        location ~* \"\\xe3\\xa9$\" { return 200 \"L2\\n\"; }\n" +
			"        location ~* \"^/A\\xc3\" { return 200 \"L3\\n\"; }\n" +
			"        location ~ \"(?i)^/a\\xe3\" { return 200 \"L4\\n\"; }\n" +
			"        location ~* \"^/[\\p{L}0]+\\xc3\" { return 200 \"L5\\n\"; }\n" +
			"        location ~ \"^/\\p{L}\\xe9\" { return 200 \"L6\\n\"; }\n",
	}
	for range 24 {
		bodies = append(bodies, drawLocations(r))
	}
	for i, locs := range bodies {
		body := "    server {\n        listen 127.0.0.1:PORT;\n" + locs + "    }\n"
		addr, conf, _ := routingNginx(t, ngx, body)
		dead := map[string]bool{}
		for _, d := range analysistest.Lint(t, conf, rules.UnreachableLocation) {
			src, _ := os.ReadFile(conf)
			line := strings.Split(string(src), "\n")[d.Start().Line-1]
			if m := lineOfLoc.FindStringSubmatch(line); m != nil {
				dead["L"+m[1]] = true
				flagged++
			}
		}
		if i == 3 && (!dead["L3"] || !dead["L5"] || len(dead) != 2) {
			t.Errorf("case %d: reported %v, want L3 and L5 (each a subset of L1 in PCRE's reading)", i, dead)
		}
		m := requestModel(t, conf)
		var targets []string
		for q := range routing.Probes(m) {
			targets = append(targets, q.Target)
		}
		sets := routing.NewSets()
		m.Locations(0).Walk(func(l *routing.Location) {
			targets = append(targets, sets.Examples(l, 2)...)
		})
		targets = append(targets, "/x%0A", "/api", "/api/v1/x", "/static/img/1.png", "/t/a", "/a\xe3", "/A\xc3", "/\xe3\xa9",
			"/\xc3\xa9", "/\xaa\xe9", "/K\xe3")
		for _, target := range targets {
			resp, err := nginxtest.Send(addr, "localhost", target)
			if err != nil {
				t.Fatal(err)
			}
			probes++
			got := strings.TrimSpace(resp.Body)
			if dead[got] {
				t.Errorf("case %d: %s answered %s, which unreachable-location reports\n%s", i, target, got, locs)
			}
			req := routing.HTTPRequest{Request: routing.Request{Host: "localhost"}, Target: target}
			req.Addr, req.Port = m.Table.Ports[0].Addrs[0].IP, m.Table.Ports[0].Port
			a := m.Route(req)
			want := ""
			if a.Location != nil {
				if mm := lineOfLoc.FindStringSubmatch(strings.Join(a.Location.Directive.ArgValues(), " ") + " " + a.Handler.Target); mm != nil {
					want = "L" + mm[1]
				}
				if a.Handler.Kind == routing.HandlerReturn {
					want = strings.TrimSpace(a.Handler.Target)
				}
			}
			if len(a.Unsure) == 0 && resp.Status == 200 {
				compared++
				if got != want {
					t.Errorf("case %d: %s: nginx answered %q, the model %q\n%s", i, target, got, want, locs)
				}
			}
		}
	}
	if flagged < 10 || compared < probes/2 {
		t.Errorf("%d locations reported in the draws, %d of %d answers compared with the model; the test asks too little", flagged, compared, probes)
	}
	t.Logf("%d locations reported unreachable, %d requests, none answered by them; %d answers as the model says", flagged, probes, compared)
}

// TestLoopsAgainstNginx: the configurations redirect-cycle and
// rewrite-loop report give 500 and "rewrite or internal redirection
// cycle" for a request that reaches the rewrite; those they do not
// report (break, a location that answers) do not loop.
func TestLoopsAgainstNginx(t *testing.T) {
	ngx := nginxtest.Require(t)
	analysistest.Registry = rules.All()
	body := `    server {
        listen 127.0.0.1:PORT;
        location /a { rewrite ^ /b last; }
        location /b { rewrite ^ /a last; }
        location /one { set $x 1; rewrite ^/one /two.php last; }
        location ~ \.php$ { rewrite ^ /three last; }
        location /three { rewrite ^ /one; }
        location /img/ { rewrite ^/img/(.*)\.png$ /img/x/$1.png; }
        location /dl/ { rewrite ^/dl/(.*)$ /dl/files/$1 break; return 200 "dl $uri\n"; }
        location /api/ { rewrite ^/api/(.*)$ /api/v1/$1 last; }
        location /api/v1/ { return 200 "v1 $uri\n"; }
        location /ends { rewrite ^ /done last; }
        location /done { return 200 "done\n"; }
    }
    server {
        listen 127.0.0.2:PORT;
        location / { rewrite ^ /index.php last; }
        location /download/ { rewrite ^/download/(.*)$ /download/files/$1 last; }
    }
`
	addr, conf, errLog := routingNginx(t, ngx, body)
	reported := map[int]string{}
	for _, d := range analysistest.Lint(t, conf, rules.RedirectCycle, rules.RewriteLoop) {
		reported[d.Start().Line] = d.Name
	}
	src, _ := os.ReadFile(conf)
	lines := strings.Split(string(src), "\n")
	lineOf := func(s string) int {
		for i, l := range lines {
			if strings.Contains(l, s) {
				return i + 1
			}
		}
		t.Fatalf("no line %q", s)
		return 0
	}
	addr2 := strings.Replace(addr, "127.0.0.1", "127.0.0.2", 1)
	for _, c := range []struct {
		addr, target, line, rule string
	}{
		{addr, "/a", "location /a ", "redirect-cycle"},
		{addr, "/one", "location /one ", "redirect-cycle"},
		{addr2, "/download/x", "location /download/ ", "rewrite-loop"},
		{addr, "/img/a.png", "location /img/ ", "rewrite-loop"},
		{addr2, "/anything", "location / { rewrite", "rewrite-loop"},
		{addr, "/dl/x", "location /dl/ ", ""},
		{addr, "/api/x", "location /api/ ", ""},
		{addr, "/ends", "location /ends ", ""},
	} {
		line := lineOf(c.line)
		if got := reported[line]; got != c.rule {
			t.Errorf("line %d (%s): reported by %q, want %q", line, c.line, got, c.rule)
		}
		before, _ := os.ReadFile(errLog)
		resp, err := nginxtest.Send(c.addr, "localhost", c.target)
		if err != nil {
			t.Fatal(err)
		}
		after, _ := os.ReadFile(errLog)
		cycle := strings.Contains(string(after[len(before):]), "rewrite or internal redirection cycle")
		if loops := c.rule != ""; loops != (resp.Status == 500 && cycle) {
			t.Errorf("%s: status %d, cycle in the log %v; reported %v", c.target, resp.Status, cycle, loops)
		}
	}
}

// TestMissingNamedLocationAgainstNginx: nginx -t accepts try_files and
// error_page to a named location the server lacks (so the rule is a
// warning), and a request that gets there is a 500 with "could not find
// named location".
func TestMissingNamedLocationAgainstNginx(t *testing.T) {
	ngx := nginxtest.Require(t)
	analysistest.Registry = rules.All()
	body := `    server {
        listen 127.0.0.1:PORT;
        root /nonexistent-nginx-lint;
        location /t { try_files $uri @missing; }
        location /e { error_page 404 = @gone; }
        location /ok { try_files $uri @here; }
        location @here { return 200 "here\n"; }
    }
`
	addr, conf, errLog := routingNginx(t, ngx, body) // started: nginx accepted it
	var got []string
	for _, d := range analysistest.Lint(t, conf, rules.MissingNamedLocation) {
		if d.Severity != parser.Warning {
			t.Errorf("%s: severity %v, want warning (nginx -t accepts it)", d.Message, d.Severity)
		}
		got = append(got, d.Message)
	}
	if len(got) != 2 {
		t.Errorf("findings %q, want 2", got)
	}
	for _, c := range []struct {
		target string
		status int
	}{{"/t/x", 500}, {"/e/x", 500}, {"/ok/x", 200}} {
		resp, err := nginxtest.Send(addr, "localhost", c.target)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Status != c.status {
			t.Errorf("%s: %d, want %d", c.target, resp.Status, c.status)
		}
	}
	if log, _ := os.ReadFile(errLog); !strings.Contains(string(log), `could not find named location "@missing"`) {
		t.Errorf("the error log does not say it:\n%s", log)
	}
}

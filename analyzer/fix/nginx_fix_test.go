package fix_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/buildinfo"
	"github.com/nginx-lint/nginx-lint/analyzer/fix"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// oracleVersion is the nginx whose verdicts the cases' "installed"
// expectations state: Debian 12's, which .ci/run installs. Another
// installed nginx still runs every case through nginx -t; only whether a
// version-dependent fix is offered for it is not checked.
const oracleVersion = "1.22.1"

// refusalFixes are the rules whose fix is meant to make nginx accept a
// configuration it refuses: their cases may start refused.
var refusalFixes = map[string]bool{
	"missing-semicolon": true, "syntax-error": true, "unknown-directive": true, "duplicate-directive": true,
	"server-names-hash": true, "worker-connections": true,
}

// fixCase is one whole configuration for the fix of rule (read off each
// rule's code: every path its fix takes). installed and none say whether
// the rule's fix is applied for the installed nginx as target (its
// nginx -V; stated for nginx 1.22.1) and for no target (the newest nginx
// assumed, fixes held to what the configuration already needs). @CERT@
// and @KEY@ become a throwaway certificate, @STREAM@ and @MAIL@ the
// load_module lines of the installed dynamic modules.
type fixCase struct {
	rule, name      string
	conf            string
	installed, none bool
}

var fixCases = []fixCase{
	{"missing-semicolon", "before a directive", "events {}\nhttp {\n    server {\n        listen 127.0.0.1:18101\n        return 204;\n    }\n}\n", true, true},
	{"syntax-error", "missing semicolon before a block", "events {}\nhttp {\n    server {\n        listen 127.0.0.1:18102;\n        root /srv\n        location / { return 204; }\n    }\n}\n", true, true},
	{"unknown-directive", "misspelt block", "events {}\nhttp {\n    server {\n        listen 127.0.0.1:18103;\n        locaton / {\n            return 204;\n        }\n    }\n}\n", true, true},
	{"unknown-directive", "misspelt in events", "events { worker_conections 64; }\nhttp {}\n", true, true},
	// "http2" is nginx 1.25.1's: 1.22.1 refuses it as well, and with no
	// target nothing in the configuration requires 1.25.1.
	{"unknown-directive", "misspelt directive newer than the target", "events {}\nhttp {\n    server {\n        listen 127.0.0.1:18130;\n        htp2 on;\n    }\n}\n", false, false},
	// Removed in 1.25.1: the newest nginx's finding, with the fix
	// deprecated offers 1.22.1.
	{"unknown-directive", "ssl on, removed", "events {}\nhttp {\n    server {\n        listen 127.0.0.1:18111;\n        ssl on;\n        ssl_certificate @CERT@;\n        ssl_certificate_key @KEY@;\n    }\n}\n", false, true},
	// Issue 21's case: 1.22.1 does not deprecate it; with no target the
	// fix would need 1.25.1, which nothing in the configuration does.
	{"deprecated", "listen http2, no http2 on", "events {}\nhttp {\n    server {\n        listen 127.0.0.1:18443 http2;\n        return 204;\n    }\n}\n", false, false},
	{"deprecated", "listen ssl http2", "events {}\nhttp {\n    ssl_certificate @CERT@;\n    ssl_certificate_key @KEY@;\n    server {\n        listen 127.0.0.1:18104 ssl http2;\n        listen [::1]:18104 ssl http2;\n    }\n}\n", false, false},
	{"deprecated", "ssl on moves to the listens", "events {}\nhttp {\n    server {\n        listen 127.0.0.1:18105;\n        listen 127.0.0.1:18106 ssl;\n        ssl on;\n        ssl_certificate @CERT@;\n        ssl_certificate_key @KEY@;\n    }\n}\n", true, false},
	{"deprecated", "ssl off goes", "events {}\nhttp {\n    server {\n        listen 127.0.0.1:18107;\n        ssl off;\n    }\n}\n", true, false},
	{"deprecated", "ssl on in a mail server", "@MAIL@events {}\nmail {\n    auth_http 127.0.0.1:18199/auth;\n    server {\n        listen 127.0.0.1:18108;\n        protocol smtp;\n        server_name mail.example;\n        ssl on;\n        ssl_certificate @CERT@;\n        ssl_certificate_key @KEY@;\n    }\n}\n", true, false},
	{"duplicate-directive", "repeated root", "events {}\nhttp {\n    server {\n        listen 127.0.0.1:18109;\n        location / {\n            root /srv/a;\n            root /srv/b;\n        }\n    }\n}\n", true, true},
	{"duplicate-directive", "repeated flag in http", "events {}\nhttp {\n    sendfile on;\n    sendfile off;\n}\n", true, true},
	{"duplicate-directive", "repeated in stream", "@STREAM@events {}\nstream {\n    server {\n        listen 127.0.0.1:18110;\n        proxy_pass 127.0.0.1:18198;\n        proxy_timeout 5s;\n        proxy_timeout 10s;\n    }\n}\n", true, true},
	{"map-without-default", "map", "events {}\nhttp {\n    map $host $pool {\n        api.example.com api;\n        static.example.com static;\n    }\n    server {\n        listen 127.0.0.1:18112;\n        return 200 $pool;\n    }\n}\n", true, true},
	{"map-without-default", "geo with one entry", "events {}\nhttp {\n    geo $net {\n        127.0.0.0/8 local;\n    }\n    server {\n        listen 127.0.0.1:18131;\n        return 200 $net;\n    }\n}\n", true, true},
	{"map-without-default", "stream map", "@STREAM@events {}\nstream {\n    map $remote_addr $up {\n        127.0.0.1 127.0.0.1:18198;\n        127.0.0.2 127.0.0.1:18197;\n    }\n    server {\n        listen 127.0.0.1:18132;\n        proxy_pass $up;\n    }\n}\n", true, true},
	{"version-disclosure", "on", "events {}\nhttp {\n    server_tokens on;\n    server {\n        listen 127.0.0.1:18113;\n    }\n}\n", true, true},
	{"version-disclosure", "build, in a server", "events {}\nhttp {\n    server_tokens off;\n    server {\n        listen 127.0.0.1:18114;\n        server_tokens build;\n    }\n}\n", true, true},
	{"weak-ssl-tls", "weak protocols and ciphers", "events {}\nhttp {\n    server {\n        listen 127.0.0.1:18115 ssl;\n        ssl_protocols TLSv1 TLSv1.2;\n        ssl_ciphers RC4:HIGH;\n        ssl_certificate @CERT@;\n        ssl_certificate_key @KEY@;\n    }\n}\n", true, true},
	{"weak-ssl-tls", "weak protocols dropped", "events {}\nhttp {\n    ssl_protocols TLSv1 TLSv1.1 TLSv1.2;\n}\n", true, true},
	{"weak-ssl-tls", "only weak protocols", "events {}\nhttp {\n    ssl_protocols SSLv3 TLSv1;\n}\n", true, true},
	{"weak-ssl-tls", "proxy protocols", "events {}\nhttp {\n    server {\n        listen 127.0.0.1:18116;\n        location / {\n            proxy_ssl_protocols TLSv1.1;\n            proxy_pass https://127.0.0.1:18197;\n        }\n    }\n}\n", true, true},
	{"weak-ssl-tls", "weak ciphers", "events {}\nhttp {\n    ssl_ciphers 'RC4-SHA:AES256-SHA:DES-CBC3-SHA';\n}\n", true, true},
	{"weak-ssl-tls", "nothing strong left", "events {}\nhttp {\n    ssl_ciphers RC4-SHA:DES-CBC3-SHA;\n}\n", true, true},
	{"weak-ssl-tls", "keyword exclusions", "events {}\nhttp {\n    ssl_ciphers HIGH:!MD5;\n}\n", true, true},
	{"weak-ssl-tls", "stream", "@STREAM@events {}\nstream {\n    server {\n        listen 127.0.0.1:18117 ssl;\n        ssl_certificate @CERT@;\n        ssl_certificate_key @KEY@;\n        ssl_protocols TLSv1 TLSv1.2;\n        proxy_pass 127.0.0.1:18198;\n    }\n}\n", true, true},
	{"host-spoofing", "http_host", "events {}\nhttp {\n    server {\n        listen 127.0.0.1:18118;\n        location / {\n            proxy_set_header Host $http_host;\n            proxy_pass http://127.0.0.1:18196;\n        }\n    }\n}\n", true, true},
	{"host-spoofing", "grpc", "events {}\nhttp {\n    server {\n        listen 127.0.0.1:18119;\n        location / {\n            grpc_set_header Host $http_host;\n            grpc_pass grpc://127.0.0.1:18195;\n        }\n    }\n}\n", true, true},
	{"alias-slash-mismatch", "alias", "events {}\nhttp {\n    server {\n        listen 127.0.0.1:18120;\n        location /files/ {\n            alias /srv/files;\n        }\n    }\n}\n", true, true},
	{"directive-inheritance", "proxy_set_header", "events {}\nhttp {\n    server {\n        listen 127.0.0.1:18121;\n        proxy_set_header X-Real-IP $remote_addr;\n        location / {\n            proxy_set_header X-Request-Id $request_id;\n            proxy_pass http://127.0.0.1:18196;\n        }\n    }\n}\n", true, true},
	{"directive-inheritance", "limit_req from http", "events {}\nhttp {\n    limit_req_zone $binary_remote_addr zone=one:1m rate=1r/s;\n    limit_req_zone $server_name zone=two:1m rate=10r/s;\n    limit_req zone=one;\n    server {\n        listen 127.0.0.1:18122;\n        location / {\n            limit_req zone=two burst=5;\n            return 204;\n        }\n    }\n}\n", true, true},
	{"directive-inheritance", "limit_conn", "events {}\nhttp {\n    limit_conn_zone $binary_remote_addr zone=addr:1m;\n    limit_conn_zone $server_name zone=srv:1m;\n    limit_conn addr 10;\n    server {\n        listen 127.0.0.1:18123;\n        limit_conn srv 100;\n    }\n}\n", true, true},
	{"directive-inheritance", "error_page into if", "events {}\nhttp {\n    server {\n        listen 127.0.0.1:18124;\n        error_page 404 /404.html;\n        location / {\n            if ($arg_x) {\n                error_page 500 /500.html;\n                return 500;\n            }\n        }\n    }\n}\n", true, true},
	{"directive-inheritance", "fastcgi_param", "events {}\nhttp {\n    fastcgi_param SCRIPT_FILENAME $document_root$fastcgi_script_name;\n    server {\n        listen 127.0.0.1:18125;\n        location ~ \\.php$ {\n            fastcgi_param HTTPS on;\n            fastcgi_pass 127.0.0.1:18194;\n        }\n    }\n}\n", true, true},
	{"directive-inheritance", "hide header", "events {}\nhttp {\n    proxy_hide_header X-Powered-By;\n    server {\n        listen 127.0.0.1:18126;\n        location / {\n            proxy_hide_header X-Runtime;\n            proxy_pass http://127.0.0.1:18196;\n        }\n    }\n}\n", true, true},
	{"invalid-ignore", "another linter's form", "events {}\nhttp {\n    # nginx-lint disable-next-line version-disclosure the old monitor reads it\n    server_tokens on;\n}\n", true, true},
	{"worker-connections", "too few", "events {\n    worker_connections 2;\n}\nhttp {\n    server {\n        listen 127.0.0.1:18127;\n    }\n    server {\n        listen 127.0.0.1:18128;\n    }\n}\n", true, true},
	{"server-names-hash", "long name", "events {}\nhttp {\n    server { listen 127.0.0.1:18129; server_name short.example; }\n    server { listen 127.0.0.1:18129; server_name a-very-long-name-a-very-long-name-a-very-long-name-a-very-long-name-example.com; }\n}\n", true, true},
	{"server-names-hash", "bucket size set too small", "events {}\nhttp {\n    server_names_hash_bucket_size 64;\n    server { listen 127.0.0.1:18133; server_name short.example; }\n    server { listen 127.0.0.1:18133; server_name a-very-long-name-a-very-long-name-a-very-long-name-a-very-long-name-example.com; }\n}\n", true, true},
	{"server-names-hash", "max size too small", "events {}\nhttp {\n    server_names_hash_max_size 4;\n    server {\n        listen 127.0.0.1:18134;\n        server_name" + manyNames(40) + ";\n    }\n    server {\n        listen 127.0.0.1:18134;\n        server_name other.example;\n    }\n}\n", true, true},
	{"hsts", "without always", "events {}\nhttp {\n    server {\n        listen 127.0.0.1:18135;\n        add_header Strict-Transport-Security \"max-age=63072000\";\n    }\n}\n", true, true},
}

// docsNoFix are the fixable rules whose docs' Bad example gets no fix,
// and why.
var docsNoFix = map[string]string{
	"deprecated":     "listen ... ssl http2: http2 on needs 1.25.1, which neither 1.22.1 nor the configuration has",
	"hsts":           "a max-age too short: which one to set is a policy, not a mechanical fix",
	"invalid-ignore": "an ignore comment naming no rule: nothing says which rule was meant",
}

// TestFixesKeepNginxWorking is issue 21's "--fix never produces a
// configuration that the target nginx refuses", run through the real
// nginx (Debian's 1.22.1 under .ci/run). Every rule marked Fixable in the
// registry has cases above and its docs' Bad example (made whole and
// loopback-only); each runs through nginx -t before the fix (it must
// pass, unless the rule's fix is meant to make nginx accept it), is
// fixed for the installed nginx's nginx -V and for no target, and must
// pass nginx -t after. A fixable rule no case fixes fails the test.
func TestFixesKeepNginxWorking(t *testing.T) {
	if testing.Short() {
		t.Skip("runs nginx about a hundred times")
	}
	nginx := nginxtest.Require(t)
	out, err := exec.Command(nginx, "-V").CombinedOutput()
	if err != nil {
		t.Fatalf("nginx -V: %v: %s", err, out)
	}
	info, err := buildinfo.Parse(string(out))
	if err != nil {
		t.Fatal(err)
	}
	installed := analyzer.BuildTarget(info)
	loads := map[string]string{}
	for _, family := range []string{"stream", "mail"} {
		so := filepath.Join(modulesDir(info), "ngx_"+family+"_module.so")
		if _, err := os.Stat(so); err == nil {
			loads[family] = "load_module " + so + ";\n"
		} else if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true: the dynamic %s module is required (apt-get install libnginx-mod-%s): %v", family, family, err)
		}
	}
	dir := t.TempDir()
	cert, key := selfSigned(t, dir)
	expand := func(src string) (string, bool) {
		for family, tag := range map[string]string{"stream": "@STREAM@", "mail": "@MAIL@"} {
			if strings.Contains(src, tag) {
				line, ok := loads[family]
				if !ok {
					return "", false
				}
				src = strings.ReplaceAll(src, tag, line)
			}
		}
		return strings.NewReplacer("@CERT@", cert, "@KEY@", key).Replace(src), true
	}

	var fixable []string
	cases := slices.Clone(fixCases)
	docs := 0
	for _, r := range rules.All().Rules() {
		if !r.Fixable {
			continue
		}
		fixable = append(fixable, r.Name)
		_, noFix := docsNoFix[r.Name]
		cases = append(cases, fixCase{rule: r.Name, name: "docs' Bad example", conf: wholeConf(r.Doc.Bad), installed: !noFix, none: !noFix})
		docs++
	}
	for _, tc := range fixCases {
		if !slices.Contains(fixable, tc.rule) {
			t.Errorf("%s/%s: the rule is not marked Fixable in the registry", tc.rule, tc.name)
		}
	}
	checkInstalled := installed.Version == oracleVersion
	if !checkInstalled {
		t.Logf("nginx %q installed: whether a fix is offered for it is checked for %s only", installed.Version, oracleVersion)
	}
	fixedBy := map[string]int{}
	checked, skipped := 0, 0
	for i, tc := range cases {
		name := tc.rule + "/" + tc.name
		src, ok := expand(tc.conf)
		if !ok {
			t.Logf("%s: skipped: its dynamic module is not installed", name)
			skipped++
			continue
		}
		cdir := filepath.Join(dir, fmt.Sprintf("c%03d", i))
		if err := os.MkdirAll(cdir, 0o755); err != nil {
			t.Fatal(err)
		}
		main := filepath.Join(cdir, "nginx.conf")
		before := runNginx(t, nginx, main, src)
		if !before.OK && !refusalFixes[tc.rule] {
			t.Errorf("%s: nginx -t refuses the input, and the fix is not meant to change that: %v\n%s", name, before.Errors(), src)
			continue
		}
		for _, target := range []struct {
			label       string
			t           *analyzer.Target
			want, check bool
		}{{"nginx -V", installed, tc.installed, checkInstalled}, {"no target", nil, tc.none, true}} {
			res, err := fix.Run(memLinterFor(map[string]string{"/t/nginx.conf": src}, analyzer.Options{Target: target.t}))
			if err != nil {
				t.Fatal(err)
			}
			applied := slices.ContainsFunc(res.Changes, func(c fix.Change) bool { return c.Name == tc.rule })
			if applied {
				fixedBy[tc.rule]++
			}
			if applied != target.want && target.check {
				t.Errorf("%s (%s): the rule's fix applied: %v, want %v; changes %+v", name, target.label, applied, target.want, res.Changes)
			}
			fixed, changed := res.Fixed["/t/nginx.conf"]
			if !changed {
				fixed = []byte(src)
			}
			after := runNginx(t, nginx, main, string(fixed))
			checked++
			if !after.OK && (before.OK || changed) {
				t.Errorf("%s (%s): nginx -t refuses the fixed configuration: %v\nbefore (accepted: %v):\n%s\nafter:\n%s",
					name, target.label, after.Errors(), before.OK, src, fixed)
			}
			if tc.rule == "server-names-hash" && strings.Contains(after.Stderr, "could not build") {
				t.Errorf("%s (%s): nginx still warns after the fix: %s", name, target.label, after.Stderr)
			}
		}
	}
	for _, r := range fixable {
		if fixedBy[r] == 0 && skipped == 0 {
			t.Errorf("%s is marked Fixable but no case was fixed: add one to fixCases", r)
		}
	}
	var rs []string
	for r, n := range fixedBy {
		rs = append(rs, fmt.Sprintf("%s %d", r, n))
	}
	sort.Strings(rs)
	t.Logf("%d fixable rules, %d cases (%d docs' Bad examples), %d nginx -t runs after fixing, %d cases skipped; fixes applied per rule (cases x targets): %s",
		len(fixable), len(cases), docs, checked, skipped, strings.Join(rs, ", "))
	// Every case runs twice (two targets): fewer runs means cases were
	// dropped, not that the fixes are right.
	if want := 2 * (len(cases) - skipped); checked != want {
		t.Errorf("%d nginx -t runs after fixing, want %d", checked, want)
	}
}

// runNginx writes conf to path and runs nginx -t on it, with the case's
// directory as prefix.
func runNginx(t *testing.T, nginx, path, conf string) nginxtest.Result {
	t.Helper()
	if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := nginxtest.Test(context.Background(), nginx, path, nginxtest.WithPrefix(filepath.Dir(path)), nginxtest.Quiet())
	if err != nil {
		t.Fatalf("%s: %v\n%s", path, err, conf)
	}
	return res
}

// modulesDir is where the build's dynamic modules are (its
// --modules-path, else Debian's).
func modulesDir(info *buildinfo.Info) string {
	dir := "/usr/lib/nginx/modules"
	for _, a := range info.Args {
		if v, ok := strings.CutPrefix(a, "--modules-path="); ok {
			dir = v
		}
	}
	return dir
}

var (
	topLocation = regexp.MustCompile(`(?m)^location\b`)
	anyListen   = regexp.MustCompile(`(?m)^\s*listen\b`)
	portListen  = regexp.MustCompile(`(?m)(\blisten\s+)(\d+)([\s;])`)
)

// wholeConf makes a docs example nginx can test: a location goes into a
// server, a server into http; listens move to loopback; an upstream named
// backend that an example proxies to is defined on loopback, and TLS gets
// a certificate.
func wholeConf(src string) string {
	src = portListen.ReplaceAllString(src, "${1}127.0.0.1:1${2}${3}")
	if topLocation.MatchString(src) {
		src = "server {\n    listen 127.0.0.1:18190;\n" + indent(src) + "}\n"
	}
	if !httpBlock.MatchString(src) && topServer.MatchString(src) {
		src = "http {\n" + indent(src) + "}\n"
	}
	if !anyListen.MatchString(src) && strings.Contains(src, "server {") {
		src = strings.Replace(src, "server {\n", "server {\n        listen 127.0.0.1:18191;\n", 1)
	}
	var extra string
	if strings.Contains(src, "http://backend") && !strings.Contains(src, "upstream backend") {
		extra += "    upstream backend { server 127.0.0.1:18192; }\n"
	}
	if strings.Contains(src, " ssl") && !strings.Contains(src, "ssl_certificate ") {
		extra += "    ssl_certificate @CERT@;\n    ssl_certificate_key @KEY@;\n"
	}
	if extra != "" {
		src = strings.Replace(src, "http {\n", "http {\n"+extra, 1)
	}
	if !eventsBlock.MatchString(src) {
		src = "events {}\n" + src
	}
	return src
}

func indent(s string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			lines[i] = "    " + l
		}
	}
	return strings.Join(lines, "")
}

// manyNames is n server names, " n0.example n1.example ...".
func manyNames(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, " n%d.example", i)
	}
	return b.String()
}

//go:build unix

package routing_test

import (
	"context"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/parser/corpustest"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// corpusListen is a listen of nginx's own tests: 127.0.0.1:80NN.
var corpusListen = regexp.MustCompile(`127\.0\.0\.1:(80\d\d)\b`)

// corpusOut are what a configuration of the corpus must not hold to
// start here without its test's files: TLS, QUIC, other addresses,
// includes, the test suite's placeholders, listens that expect the
// PROXY protocol header, limit_rate (a slow response outlasts the
// probe's time). One that needs a module nginx-light lacks does not
// start, and is left out too.
var corpusOut = regexp.MustCompile(`\b(ssl|quic|http2|http3|include|load_module|resolver|proxy_protocol|limit_rate)\b|%%|unix:|\[::`)

// TestCorpusAgainstNginx starts the configurations of nginx's own test
// suite (the corpus's nginx-tests, accepted by nginx -t), each on free
// loopback ports instead of 127.0.0.1:80NN, and asks it the request set
// nginx-lint diff builds (routing.Probes) with raw variants; every
// answer the model gives but a module's or an upstream's is nginx's.
// ROUTING_CORPUS=all runs every configuration; by default a fixed
// sample of them.
func TestCorpusAgainstNginx(t *testing.T) {
	ngx := nginxtest.Require(t)
	root := corpustest.Root(t)
	var paths []string
	for _, e := range corpustest.Manifest(t) {
		if e["kind"] == "main" && e["nginx_t"] == "ok" && strings.HasPrefix(e["path"], "nginx-tests/") {
			paths = append(paths, e["path"])
		}
	}
	sort.Strings(paths)
	all := os.Getenv("ROUTING_CORPUS") == "all"
	configs, total, differ, skipped := 0, 0, 0, 0
	for i, p := range paths {
		if !all && i%10 != 0 {
			continue
		}
		src, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		conf := string(src)
		if corpusOut.MatchString(conf) || !corpusListen.MatchString(conf) {
			continue
		}
		ports := map[string]int{}
		conf = corpusListen.ReplaceAllStringFunc(conf, func(s string) string {
			old := s[len("127.0.0.1:"):]
			if ports[old] == 0 {
				ports[old] = freePort(t)
			}
			return "127.0.0.1:" + strconv.Itoa(ports[old])
		})
		conf = strings.Replace(conf, "http {", "http {\n    access_log off;\n    client_body_temp_path cb; proxy_temp_path pt; fastcgi_temp_path ft; uwsgi_temp_path ut; scgi_temp_path st;", 1)
		conf = strings.Replace(conf, "daemon off;", "", 1)
		conf = "error_log error.log;\npid nginx.pid;\n" + conf
		n, d, s := corpusCase(t, ngx, p, conf)
		if n > 0 {
			configs++
		}
		total += n
		differ += d
		skipped += s
	}
	t.Logf("%d configurations of nginx's tests, %d probes, %d differ; %d not compared (proxied, a module's, unsure, run-time)", configs, total, differ, skipped)
}

// corpusCase starts conf and compares the model's answers to nginx's.
func corpusCase(t *testing.T, ngx, name, conf string) (compared, failed, skipped int) {
	dir := publicDir(t)
	// The corpus wrote the suite's test directory as this one.
	conf = strings.ReplaceAll(conf, "/tmp/nginx-corpus-test", dir)
	confPath := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	inst, err := nginxtest.Start(context.Background(), ngx, confPath, nginxtest.WithPrefix(dir))
	if err != nil {
		t.Logf("%s does not start here: %v", name, err)
		return 0, 0, 0
	}
	defer func() {
		if err := inst.Stop(context.Background()); err != nil {
			t.Error(err)
		}
	}()
	m := model(t, conf, routing.Options{Prefix: dir + "/"})
	var reqs []routing.HTTPRequest
	for r := range routing.Probes(m) {
		if len(reqs) == 400 {
			break
		}
		reqs = append(reqs, r)
	}
	n := len(reqs)
	for i := 0; i < n && i < 40; i++ {
		for _, target := range []string{"/..", "//x/./y/../z", "/%2e%2e/", "/a%20b?x=%20", "/A/B.PHP?q"} {
			r := reqs[i]
			r.Target = target
			reqs = append(reqs, r)
		}
	}
	for _, r := range reqs {
		if r.Unix != "" || !r.Addr.Is4() || r.HTTPS {
			continue
		}
		r.Remote = netip.MustParseAddr("127.0.0.1")
		a := m.Route(r)
		switch a.Handler.Kind {
		case routing.HandlerReturn, routing.HandlerRedirect, routing.HandlerStatic, routing.HandlerError, routing.HandlerClose:
		default:
			skipped++
			continue
		}
		want, ok := expected(a)
		if !ok || runTime(a) {
			skipped++
			continue
		}
		host := r.Host
		if r.NoHost {
			host = ""
		}
		addr := netip.AddrPortFrom(r.Addr, uint16(r.Port)).String()
		method := r.Method
		if method == "" {
			method = "GET"
		}
		got, err := send(method, addr, host, r.Target)
		if err != nil && strings.HasSuffix(err.Error(), `no end of the headers in ""`) {
			got, err = response{}, nil
		}
		if err != nil {
			t.Errorf("%s: %s: %v", name, r, err)
			continue
		}
		// The tests' filters (addition, sub_filter, chunked
		// transfer) change bodies: the status and Location say where
		// the request went.
		got.body, want.body = "", ""
		want.location = strings.TrimSpace(want.location) // as send reads it
		compared++
		if got != want {
			failed++
			if failed <= 5 {
				t.Errorf("%s: %s: nginx %+v, the model %+v (%s; location %v, unsure %v)", name, r, got, want, a.Describe(), a.Location, a.Unsure)
			}
		}
	}
	if failed > 0 {
		t.Logf("%s: %d of %d probes differ; configuration:\n%s", name, failed, compared, conf)
	}
	return compared, failed, skipped
}

// runTime says the model's answer holds only when the traffic or a
// filter module allows: a rate limit, a charset from a variable.
func runTime(a *routing.Answer) bool {
	for _, u := range a.Unsure {
		if strings.Contains(u, "limit_req_status") || strings.Contains(u, "the charset filter") {
			return true
		}
	}
	return false
}

// siteDrop are the directives a configuration of the corpus loses to
// start here: its user, paths of logs and pid, includes of files this
// machine may not have, TLS material, its listens on IPv6.
var siteDrop = regexp.MustCompile(`(?m)^[ \t]*(user|pid|error_log|access_log|include|ssl_\w+|daemon|worker_processes|load_module|listen[ \t]+\[[^;]*)\b[^;{]*;`)

var siteListen = regexp.MustCompile(`\blisten[ \t]+([^;]+);`)

// siteConf moves conf's listens to free loopback ports (one per port it
// listens on; its default_server kept) and drops siteDrop; ok is false
// for a configuration listening on a unix socket.
func siteConf(t *testing.T, conf string) (string, bool) {
	ok := true
	ports := map[string]int{}
	conf = siteDrop.ReplaceAllString(conf, "")
	conf = siteListen.ReplaceAllStringFunc(conf, func(s string) string {
		f := strings.Fields(siteListen.FindStringSubmatch(s)[1])
		addr := f[0]
		if strings.HasPrefix(addr, "unix:") {
			ok = false
			return s
		}
		port := addr
		if i := strings.LastIndexByte(addr, ':'); i >= 0 {
			port = addr[i+1:]
		} else if _, err := strconv.Atoi(addr); err != nil {
			port = "80"
		}
		if ports[port] == 0 {
			ports[port] = freePort(t)
		}
		out := "listen 127.0.0.1:" + strconv.Itoa(ports[port])
		for _, p := range f[1:] {
			if p == "default_server" || p == "default" {
				out += " default_server"
			}
		}
		return out + ";"
	})
	return conf, ok && len(ports) > 0
}

// TestCorpusSitesAgainstNginx is TestCorpusAgainstNginx on the corpus's
// other configurations that nginx accepts (distributions' defaults,
// h5bp, crossplane's, gixy's and other linters' cases; the http-only
// ones with an events block, as nginx -t accepted them), moved to
// loopback ports by siteConf.
func TestCorpusSitesAgainstNginx(t *testing.T) {
	ngx := nginxtest.Require(t)
	root := corpustest.Root(t)
	configs, total, differ, skipped := 0, 0, 0, 0
	for _, e := range corpustest.Manifest(t) {
		wrapped := e["nginx_t"] == "fail" && e["nginx_t_wrapped"] == "ok"
		if e["kind"] != "main" || e["nginx_t"] != "ok" && !wrapped || strings.HasPrefix(e["path"], "nginx-tests/") {
			continue
		}
		src, err := os.ReadFile(filepath.Join(root, e["path"]))
		if err != nil {
			t.Fatal(err)
		}
		if wrapped {
			// An http-only file, accepted with an events block.
			src = append(src, "\nevents {}\n"...)
		}
		conf, ok := siteConf(t, string(src))
		if !ok || !strings.Contains(conf, "http {") {
			continue
		}
		conf = strings.Replace(conf, "http {", "http {\n    access_log off;\n    client_body_temp_path cb; proxy_temp_path pt; fastcgi_temp_path ft; uwsgi_temp_path ut; scgi_temp_path st;", 1)
		conf = "error_log error.log;\npid nginx.pid;\n" + conf
		n, d, s := corpusCase(t, ngx, e["path"], conf)
		if n > 0 {
			configs++
		}
		total += n
		differ += d
		skipped += s
	}
	t.Logf("%d configurations, %d probes, %d differ; %d not compared (proxied, a module's, unsure, run-time)", configs, total, differ, skipped)
}

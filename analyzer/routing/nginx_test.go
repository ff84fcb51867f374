//go:build unix

package routing_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// ask sends one request to addr and returns the number of the server that
// answered (each server of the test configs returns "server N").
func ask(addr string, host string, noHost bool) (int, error) {
	c, err := net.DialTimeout("tcp", addr, 3*time.Second)
	if err != nil {
		return routing.Refused, nil
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(3 * time.Second))
	if noHost {
		_, err = fmt.Fprintf(c, "GET / HTTP/1.0\r\n\r\n")
	} else {
		_, err = fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", host)
	}
	if err != nil {
		return 0, err
	}
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := c.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	m := regexp.MustCompile(`server (\d+)`).FindStringSubmatch(b.String())
	if m == nil {
		return 0, fmt.Errorf("no server in the answer %q", b.String())
	}
	return strconv.Atoi(m[1])
}

// numbered gives every server of src a "return 200 'server N'" as its
// first directive, N its number.
func numbered(src string) string {
	n := 0
	return regexp.MustCompile(`server \{`).ReplaceAllStringFunc(src, func(string) string {
		s := fmt.Sprintf("server { return 200 \"server %d\\n\";", n)
		n++
		return s
	})
}

// startNginx writes conf to dir/name, models it with dir as the prefix
// and starts nginx on it; stop stops nginx (a failure to stop is an
// error of the test). A configuration nginx does not start with fails
// the test.
func startNginx(t *testing.T, ngx, dir, name, conf string) (m *routing.Model, stop func()) {
	t.Helper()
	confPath := filepath.Join(dir, name)
	if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	m = model(t, conf, routing.Options{Prefix: dir + "/"})
	inst, err := nginxtest.Start(context.Background(), ngx, confPath, nginxtest.WithPrefix(dir))
	if err != nil {
		t.Fatalf("%v\n%s", err, conf)
	}
	return m, func() {
		if err := inst.Stop(context.Background()); err != nil {
			t.Error(err)
		}
	}
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startConf starts nginx on src (numbered), stopped at the test's end.
func startConf(t *testing.T, ngx, src string) {
	t.Helper()
	dir := t.TempDir()
	conf := filepath.Join(dir, "nginx.conf")
	full := "worker_processes 1;\nerror_log error.log;\n" + strings.Replace(numbered(src), "http {", "http {\n    access_log off;\n    client_body_temp_path cb; proxy_temp_path pt; fastcgi_temp_path ft; uwsgi_temp_path ut; scgi_temp_path st;", 1)
	if err := os.WriteFile(conf, []byte(full), 0o644); err != nil {
		t.Fatal(err)
	}
	inst, err := nginxtest.Start(context.Background(), ngx, conf)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := inst.Stop(context.Background()); err != nil {
			t.Error(err)
		}
	})
}

// probes are the requests the tests send: every address and port of the
// configuration plus an unlisted one, each with the names, an unknown
// name and no Host.
func probes(tb *routing.Table, ports []int, hosts []string) []routing.Request {
	var out []routing.Request
	for _, p := range ports {
		for _, ip := range []string{"127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4"} {
			out = append(out, req(ip, p, "-"))
			for _, h := range hosts {
				out = append(out, req(ip, p, h))
			}
		}
	}
	return out
}

func checkReal(t *testing.T, tb *routing.Table, rs []routing.Request) {
	t.Helper()
	for _, r := range rs {
		got, err := ask(netip.AddrPortFrom(r.Addr, uint16(r.Port)).String(), r.Host, r.NoHost)
		if err != nil {
			t.Fatalf("%s: %v", r, err)
		}
		if want := tb.Route(r); got != want {
			t.Errorf("%s: nginx chose server %d, the model %d", r, got, want)
		}
	}
}

// TestRouteAgainstNginx: the model's server for exact, wildcard, regex,
// default-server and no-Host requests is the one the real nginx answers
// with.
func TestRouteAgainstNginx(t *testing.T) {
	ngx := nginxtest.Require(t)
	p1 := freePort(t)
	src := strings.NewReplacer("8080", strconv.Itoa(p1), "listen 8081", "listen 127.0.0.4:"+strconv.Itoa(p1+0), "8081", strconv.Itoa(p1)).Replace(namesConf)
	// One port: the wildcard of namesConf becomes 127.0.0.4 (tests
	// bind loopback only); the wildcard is TestWildcardAgainstNginx's.
	tb := table(t, src)
	startConf(t, ngx, src)
	hosts := []string{"a.example", "A.EXAMPLE.", "foo.example.com", "example.com", "www.example.org", "re12.example",
		"dot.example", "q.dot.example", "x.example.com", "q.b.example.com", "rex.example", "nope.example", "two.example",
		"w.example", "three.example", "a.example:99"}
	checkReal(t, tb, probes(tb, []int{p1}, hosts))
}

// TestEquivalentRewritesAgainstNginx is the property test: random
// configurations and random rewrites of them; whenever the model calls a
// rewrite equivalent, the real nginx answers every probe alike before and
// after, and whenever it names a difference, nginx shows it.
func TestEquivalentRewritesAgainstNginx(t *testing.T) {
	ngx := nginxtest.Require(t)
	seed := seedOf(t)
	rng := rand.New(rand.NewPCG(seed, 1))
	vocab := []string{"a.example", "b.example", "*.example", ".c.example", "www.*", "~^d[0-9]\\.example$", "~^[ab]\\.example$"}
	hosts := []string{"a.example", "b.example", "x.example", "c.example", "x.c.example", "www.z", "d1.example", "zz.example"}
	equiv, diff := 0, 0
	for round := 0; round < 30; round++ {
		port := freePort(t)
		gen := func(r *rand.Rand) ([]string, []string) {
			n := 2 + r.IntN(4)
			var ls, ns []string
			for range n {
				l := fmt.Sprintf("127.0.0.%d:%d", 1+r.IntN(3), port)
				if r.IntN(4) == 0 {
					l += " default_server"
				}
				ls = append(ls, l)
				var names []string
				for range r.IntN(3) {
					names = append(names, vocab[r.IntN(len(vocab))])
				}
				ns = append(ns, strings.Join(names, " "))
			}
			return ls, ns
		}
		write := func(ls, ns []string) string {
			var b strings.Builder
			b.WriteString("events {}\nhttp {\n")
			for i := range ls {
				fmt.Fprintf(&b, "    server { listen %s;", ls[i])
				if ns[i] != "" {
					fmt.Fprintf(&b, " server_name %s;", ns[i])
				}
				b.WriteString(" }\n")
			}
			b.WriteString("}\n")
			return b.String()
		}
		ls, ns := gen(rng)
		if !validDefaults(ls) {
			continue
		}
		// The rewrite: one of a few edits that sometimes keep and
		// sometimes change the routing.
		ls2, ns2 := append([]string(nil), ls...), append([]string(nil), ns...)
		i := rng.IntN(len(ls))
		switch rng.IntN(4) {
		case 0: // reverse a server's names
			f := strings.Fields(ns2[i])
			for a, b := 0, len(f)-1; a < b; a, b = a+1, b-1 {
				f[a], f[b] = f[b], f[a]
			}
			ns2[i] = strings.Join(f, " ")
		case 1: // toggle default_server
			if strings.HasSuffix(ls2[i], " default_server") {
				ls2[i] = strings.TrimSuffix(ls2[i], " default_server")
			} else {
				ls2[i] += " default_server"
			}
		case 2: // add a name
			ns2[i] = strings.TrimSpace(ns2[i] + " " + vocab[rng.IntN(len(vocab))])
		case 3: // move to another address
			ls2[i] = fmt.Sprintf("127.0.0.%d:%d", 1+rng.IntN(3), port) + strings.TrimPrefix(ls2[i], ls2[i][:strings.IndexByte(ls2[i], ':')+1+len(strconv.Itoa(port))])
		}
		if !validDefaults(ls2) {
			continue
		}
		a, b := write(ls, ns), write(ls2, ns2)
		ta, tb := table(t, a), table(t, b)
		ds := routing.Compare(ta, tb, 0)
		rs := probes(ta, []int{port}, hosts)
		before := answers(t, ngx, a, rs)
		after := answers(t, ngx, b, rs)
		for k, r := range rs {
			if before[k] != ta.Route(r) || after[k] != tb.Route(r) {
				t.Errorf("%s: nginx %d → %d, model %d → %d\nbefore:\n%s\nafter:\n%s", r, before[k], after[k], ta.Route(r), tb.Route(r), a, b)
			}
			if len(ds) == 0 && before[k] != after[k] {
				t.Errorf("called equivalent, but nginx answers %s with server %d before and %d after\nbefore:\n%s\nafter:\n%s", r, before[k], after[k], a, b)
			}
		}
		if len(ds) == 0 {
			equiv++
		} else {
			diff++
		}
	}
	t.Logf("%d rewrites called equivalent, %d not", equiv, diff)
}

// validDefaults says nginx accepts the listens: one default_server per
// address at most.
func validDefaults(ls []string) bool {
	seen := map[string]bool{}
	for _, l := range ls {
		if addr, ok := strings.CutSuffix(l, " default_server"); ok {
			if seen[addr] {
				return false
			}
			seen[addr] = true
		}
	}
	return true
}

// answers starts nginx on src and returns its server for each request.
func answers(t *testing.T, ngx, src string, rs []routing.Request) []int {
	t.Helper()
	dir := t.TempDir()
	conf := filepath.Join(dir, "nginx.conf")
	full := "worker_processes 1;\nerror_log error.log;\n" + strings.Replace(numbered(src), "http {", "http {\n    access_log off;\n    client_body_temp_path cb; proxy_temp_path pt; fastcgi_temp_path ft; uwsgi_temp_path ut; scgi_temp_path st;", 1)
	if err := os.WriteFile(conf, []byte(full), 0o644); err != nil {
		t.Fatal(err)
	}
	inst, err := nginxtest.Start(context.Background(), ngx, conf)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := inst.Stop(context.Background()); err != nil {
			t.Error(err)
		}
	}()
	out := make([]int, len(rs))
	for i, r := range rs {
		out[i], err = ask(netip.AddrPortFrom(r.Addr, uint16(r.Port)).String(), r.Host, r.NoHost)
		if err != nil {
			t.Fatalf("%s: %v", r, err)
		}
	}
	return out
}

// TestNameClashesAgainstNginx: the model files clashing names as nginx
// does (the hash the conflicting-server-name rule reads): the requests
// for them go where nginx sends them.
func TestNameClashesAgainstNginx(t *testing.T) {
	ngx := nginxtest.Require(t)
	p := freePort(t)
	src := strings.ReplaceAll(clashConf, "8080", strconv.Itoa(p))
	tb := table(t, src)
	startConf(t, ngx, src)
	hosts := []string{"example.com", "x.example.com", "b.example", "x.b.example", "c.example", "www.c.org", "other.example"}
	var rs []routing.Request
	for _, h := range hosts {
		rs = append(rs, req("127.0.0.1", p, h))
	}
	checkReal(t, tb, rs)
}

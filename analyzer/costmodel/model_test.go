package costmodel_test

import (
	"github.com/google/go-cmp/cmp"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
)

// TestCounts checks every scan count against values worked out by hand
// from nginx's loops (comments give the arithmetic).
func TestCounts(t *testing.T) {
	src := `events {}
http {
    server { listen 127.0.0.1:80; server_name a; }
    server { listen 127.0.0.2:80; server_name b; }
    server { listen 127.0.0.1:80; server_name c; }
    server { listen 8080; }
    server { server_name d; }
}
`
	r := compute(t, src, costmodel.Options{})
	c := r.Counts
	// Listens in order: .1:80, .2:80, .1:80, *:8080, then the default *:80
	// added at merge time.
	want := map[string]int64{
		"Listens": 5, "DefaultListens": 1, "Ports": 2, "Addrs": 4,
		// ngx_http_add_listen: 0 (no port yet) + 1 + 1 + 1 (8080 not
		// found among 1 port) + 1 (80 found first).
		"PortCompares": 4,
		// ngx_http_add_addresses on port 80: .2 new after 1 compare, .1
		// found at the first, *:80 new after 2.
		"AddrCompares": 4,
		// ngx_http_add_server: the third server scans the one on .1.
		"ServerCompares": 1,
		// ngx_sort: .2 vs .1 (equal) and * vs .2 (stop): 2.
		"SortCompares": 2,
		// The wildcard absorbs .1 and .2: one socket per port.
		"SocketsTest": 2, "SocketsStart": 2,
		// Only .1:80 has two servers and gets a names hash: a and c.
		"NameKeys": 2,
	}
	got := map[string]int64{
		"Listens": int64(c.Listens), "DefaultListens": int64(c.DefaultListens), "Ports": int64(c.Ports), "Addrs": int64(c.Addrs),
		"PortCompares": c.PortCompares, "AddrCompares": c.AddrCompares, "ServerCompares": c.ServerCompares,
		"SortCompares": c.SortCompares, "SocketsTest": int64(c.SocketsTest), "SocketsStart": int64(c.SocketsStart),
		"NameKeys": int64(c.NameKeys),
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %d, want %d", k, got[k], v)
		}
	}
	if len(r.Hashes) != 1 || r.Hashes[0].Addr.Key != "127.0.0.1:80" || r.Hashes[0].Outcome != costmodel.HashOK {
		t.Errorf("hashes: %+v", r.Hashes)
	}
	if len(r.Conflicts) != 0 {
		t.Errorf("conflicts: %v", r.Conflicts)
	}
}

func TestDefaultListenNonRoot(t *testing.T) {
	r := compute(t, "events {}\nhttp {\n    server {}\n}\n", costmodel.Options{NonRoot: true})
	if len(r.Instances) != 1 || r.Instances[0].Key() != "0.0.0.0:8000" || r.Instances[0].Listen != nil {
		t.Fatalf("instances %+v", r.Instances)
	}
	r = compute(t, "events {}\nhttp {\n    server {}\n}\n", costmodel.Options{})
	if r.Instances[0].Key() != "0.0.0.0:80" {
		t.Fatalf("root default %s", r.Instances[0].Key())
	}
}

func TestSocketsAndConflicts(t *testing.T) {
	src := `worker_processes 4;
events {}
http {
    server { listen 80; }
    server { listen 127.0.0.1:80 bind; }
    server { listen 8443 reuseport; }
    server { listen [::1]:8443 reuseport; }
    server { listen 9000 reuseport; }
    server { listen 127.0.0.1:9000 reuseport; }
}
`
	r := compute(t, src, costmodel.Options{})
	c := r.Counts
	// Port 80: wildcard + bind = 2; 8443 v4 and v6: 1 each; 9000: the
	// reuseport wildcard and the reuseport 127.0.0.1 = 2.
	if c.SocketsTest != 6 {
		t.Errorf("test sockets %d, want 6", c.SocketsTest)
	}
	// Reuseport sockets are cloned for each of the 4 workers at start:
	// 2 plain + 4 reuseport sockets × 4.
	if c.SocketsStart != 2+4*4 {
		t.Errorf("start sockets %d, want 18", c.SocketsStart)
	}
	// ngx_sort on port 80: the bind address passes the wildcard (1).
	// Port 9000 likewise (1).
	if c.SortCompares != 2 {
		t.Errorf("sort compares %d, want 2", c.SortCompares)
	}
	// Only 127.0.0.1:80 conflicts: on 9000 both sides use reuseport.
	if len(r.Conflicts) != 1 || r.Conflicts[0].Own.Key != "127.0.0.1:80" || r.Conflicts[0].Other.Key != "0.0.0.0:80" {
		t.Fatalf("conflicts %+v", r.Conflicts)
	}
	if !strings.Contains(r.Conflicts[0].Message, "bind() to 0.0.0.0:80 failed (98: Address already in use)") {
		t.Errorf("message %q", r.Conflicts[0].Message)
	}
	r = compute(t, "master_process off;\nworker_processes 4;\nevents {}\nhttp { server { listen 80 reuseport; } }\n", costmodel.Options{})
	if r.Counts.SocketsStart != 1 {
		t.Errorf("master_process off clones: %d", r.Counts.SocketsStart)
	}
	r = compute(t, "worker_processes auto;\nevents {}\nhttp { server { listen 80 reuseport; } }\n", costmodel.Options{CPUs: 3})
	if r.Counts.SocketsStart != 3 {
		t.Errorf("auto with 3 CPUs: %d", r.Counts.SocketsStart)
	}
}

func TestDualStackConflict(t *testing.T) {
	r := compute(t, "events {}\nhttp {\n server { listen [::]:80 ipv6only=off; }\n server { listen 80; }\n}\n", costmodel.Options{})
	if len(r.Conflicts) != 1 {
		t.Fatalf("conflicts %+v", r.Conflicts)
	}
	r = compute(t, "events {}\nhttp {\n server { listen [::]:80; }\n server { listen 80; }\n}\n", costmodel.Options{})
	if len(r.Conflicts) != 0 {
		t.Fatalf("ipv6only=on (the default) conflicts %+v", r.Conflicts)
	}
}

func TestCrossModuleConflict(t *testing.T) {
	r := compute(t, "events {}\nhttp { server { listen 8000; } }\nstream { server { listen 8000; proxy_pass 127.0.0.1:1; } }\n", costmodel.Options{})
	if len(r.Conflicts) != 1 || !strings.Contains(r.Conflicts[0].Message, "both listen on 0.0.0.0:8000") {
		t.Fatalf("conflicts %+v", r.Conflicts)
	}
	// A udp listen is another socket type: no conflict.
	r = compute(t, "events {}\nhttp { server { listen 8000; } }\nstream { server { listen 8000 udp; proxy_pass 127.0.0.1:1; } }\n", costmodel.Options{})
	if len(r.Conflicts) != 0 {
		t.Fatalf("udp conflicts %+v", r.Conflicts)
	}
}

func TestStreamListenScan(t *testing.T) {
	r := compute(t, `events {}
stream {
    server { listen 127.0.0.1:1; proxy_pass 127.0.0.1:9; }
    server { listen 127.0.0.1:2; proxy_pass 127.0.0.1:9; }
    server { listen 127.0.0.1:3; proxy_pass 127.0.0.1:9; }
}
`, costmodel.Options{})
	// ngx_stream_core_listen compares each listen with all before it:
	// 0 + 1 + 2.
	if r.Counts.StreamListenCompares != 3 || r.Counts.AddrCompares != 0 || r.Counts.SocketsTest != 3 {
		t.Errorf("counts %+v", r.Counts)
	}
}

// TestLayouts checks the quadratic terms on the benchmark's three listen
// schemes at N=100, where sums are easy: 0+1+...+99 = 4950.
func TestLayouts(t *testing.T) {
	const n = 100
	for _, tc := range []struct {
		l                                   string
		port, addr, server, sockets, confls int64
	}{
		// One IP, a port each: the port scan is quadratic.
		{"L1c", 4950, 0, 0, n, 0},
		// One port, an IP each: the address scan is (port scan 99 × 1).
		{"L2c", 99, 4950, 0, n, 0},
		// One IP:port: every address lookup hits the first; the server
		// scan is quadratic.
		{"L3c", 99, 99, 4950, 1, 0},
		// The same with one shared name: 99 conflicting-name warnings.
		{"L3b", 99, 99, 4950, 1, 99},
		// No name at all: every server gets "", the same 99 warnings.
		{"L3a", 99, 99, 4950, 1, 99},
	} {
		l, _ := layout.ParseName(tc.l)
		r := costmodel.Compute(layoutModel(t, layout.Options{Layout: l, N: n}), costmodel.Options{})
		c := r.Counts
		if c.PortCompares != tc.port || c.AddrCompares != tc.addr || c.ServerCompares != tc.server ||
			int64(c.SocketsTest) != tc.sockets || int64(c.NameConflicts) != tc.confls {
			t.Errorf("%s: port %d addr %d server %d sockets %d conflicts %d, want %+v", tc.l,
				c.PortCompares, c.AddrCompares, c.ServerCompares, c.SocketsTest, c.NameConflicts, tc)
		}
	}
}

func TestKernelBhash(t *testing.T) {
	src := "events {}\nhttp {\n server { listen 127.0.0.1:80; }\n server { listen 127.0.0.2:80; }\n server { listen 127.0.0.3:80; }\n}\n"
	r := compute(t, src, costmodel.Options{Kernel: "5.15.0-91-generic"})
	// Three sockets on one port: 0 + 1 + 2 earlier sockets walked.
	if r.Counts.BhashSteps != 3 {
		t.Errorf("bhash steps %d, want 3", r.Counts.BhashSteps)
	}
	for _, k := range []string{"", "6.1", "6.18.44"} {
		if r := compute(t, src, costmodel.Options{Kernel: k}); r.Counts.BhashSteps != 0 {
			t.Errorf("kernel %q: bhash steps %d", k, r.Counts.BhashSteps)
		}
	}
}

func TestOtherCosts(t *testing.T) {
	src := `events {}
http {
    ssl_certificate /etc/ssl/a.pem;
    upstream up { server b.example:80; server 10.0.0.1:80; server c.example resolve; }
    map $host $x { default 0; ~^www 1; }
    server {
        listen 443 ssl;
        server_name ~^(?<sub>.+)\.example$;
        location ~ \.php$ { proxy_pass http://backend.example:8080; }
        location /a { proxy_pass http://backend.example:8080/x; }
        location /b { proxy_pass http://up; }
        location /c { proxy_pass http://127.0.0.1:9000; }
        location /d { proxy_pass http://$host; }
        rewrite ^/old /new;
        access_log /var/log/nginx/a.log;
    }
    server { listen 443 ssl; server_name b; ssl_certificate /etc/ssl/b.pem; access_log /var/log/nginx/a.log; }
    server { listen 443 ssl; server_name c; }
}
`
	c := compute(t, src, costmodel.Options{}).Counts
	// Regexes: server_name, location ~, map ~^www, rewrite.
	if c.Regexes != 4 {
		t.Errorf("regexes %d, want 4", c.Regexes)
	}
	// DNS: b.example in the upstream, backend.example:8080 once (the
	// implicit upstream is shared); not up, the IPs, $host or resolve.
	if c.DNSLookups != 2 {
		t.Errorf("dns %d, want 2", c.DNSLookups)
	}
	// Certificates: every server loads one; two distinct files.
	if c.SSLServers != 3 || c.SSLDistinct != 2 {
		t.Errorf("ssl %d servers %d distinct", c.SSLServers, c.SSLDistinct)
	}
	// One access log plus the error log opened at start.
	if c.LogFiles != 2 {
		t.Errorf("log files %d", c.LogFiles)
	}
	if c.Locations != 5 {
		t.Errorf("locations %d", c.Locations)
	}
}

func TestLimits(t *testing.T) {
	src := "events { worker_connections 2; }\nhttp {\n server { listen 1; }\n server { listen 2; }\n}\n"
	r := compute(t, src, costmodel.Options{NoFile: 4})
	wc, nf := r.Limits[0], r.Limits[1]
	if wc.OK || wc.Need != 3 || wc.Message != "2 worker_connections are not enough for 2 listening sockets" {
		t.Errorf("worker_connections %+v", wc)
	}
	// 2 sockets + 1 error log + 3 standard streams.
	if nf.OK || nf.Need != 6 || nf.Have != 4 {
		t.Errorf("open files %+v", nf)
	}
	r = compute(t, "events { worker_connections 3; }\nhttp {\n server { listen 1; }\n server { listen 2; }\n}\n", costmodel.Options{})
	if !r.Limits[0].OK || !r.Limits[1].OK {
		t.Errorf("limits %+v", r.Limits)
	}
}

func TestPricing(t *testing.T) {
	p := costmodel.DefaultProfile()
	l, _ := layout.ParseName("L2c")
	r := costmodel.Compute(layoutModel(t, layout.Options{Layout: l, N: 1000}), costmodel.Options{Profile: p})
	var addr costmodel.Phase
	sum := 0.0
	for _, ph := range r.Phases {
		sum += ph.Seconds
		if ph.Key == costmodel.CostAddrCompare {
			addr = ph
		}
	}
	if addr.Ops != 999*1000/2 || addr.Seconds != float64(addr.Ops)*p.Costs[costmodel.CostAddrCompare] || addr.Growth != 2 {
		t.Errorf("address scan phase %+v", addr)
	}
	if sum != r.StartupSeconds || r.TestSeconds != r.StartupSeconds {
		t.Errorf("totals %v %v %v", sum, r.StartupSeconds, r.TestSeconds)
	}
	// Reload parses twice and waits 100 ms.
	if r.ReloadSeconds < 1.5*r.TestSeconds || r.ReloadSeconds < 0.1 {
		t.Errorf("reload %v for test %v", r.ReloadSeconds, r.TestSeconds)
	}
	if r.ReloadMemoryBytes != 2*r.MemoryBytes || r.MemoryBytes <= 0 {
		t.Errorf("memory %d %d", r.MemoryBytes, r.ReloadMemoryBytes)
	}
	// Doubling the servers quadruples the quadratic terms.
	if got, want := r.Scale([]costmodel.Phase{addr}, 2000), 4*addr.Seconds; got < want*0.999 || got > want*1.001 {
		t.Errorf("scale %v, want %v", got, want)
	}
	w := r.WhatIfs()
	if len(w) == 0 || !strings.Contains(w[0].Title, "one address") || w[0].Saving <= 0 {
		t.Errorf("what-ifs %+v", w)
	}
	if cs := strings.Join(r.Contributors(10), "\n"); !strings.Contains(cs, "port 20000 aggregates 1000 addresses: 500k address compares ≈ ") {
		t.Errorf("contributors %q", cs)
	}
}

func TestProfileRoundTrip(t *testing.T) {
	p := costmodel.DefaultProfile()
	p.Costs[costmodel.CostRegex] = 42e-6
	p.Assumed = nil
	b, err := costmodel.MarshalProfile(p)
	if err != nil {
		t.Fatal(err)
	}
	q, err := costmodel.ParseProfile(b)
	if err != nil {
		t.Fatal(err)
	}
	if q.Costs[costmodel.CostRegex] != 42e-6 || q.IsAssumed(costmodel.CostRegex) {
		t.Errorf("round trip %+v", q)
	}
	if _, err := costmodel.ParseProfile([]byte(`{"costs":{"nonsense":1}}`)); err == nil {
		t.Error("unknown key accepted")
	}
	if _, err := costmodel.ParseProfile([]byte(`{"costs":{"socket":-1}}`)); err == nil {
		t.Error("negative cost accepted")
	}
}

func TestFit(t *testing.T) {
	// Synthetic runs from known costs must give those costs back.
	truth := map[string]float64{costmodel.CostBase: 0.01, costmodel.CostServer: 20e-6, costmodel.CostSocket: 9e-6,
		costmodel.CostPortCompare: 2e-9, costmodel.CostAddrCompare: 6e-9, costmodel.CostServerCompare: 1e-9, costmodel.CostNameWarning: 3e-6}
	var obs []costmodel.Observation
	base := costmodel.DefaultProfile()
	for _, n := range []int{300, 700, 1500} {
		for _, l := range layout.All() {
			r := costmodel.Compute(layoutModel(t, layout.Options{Layout: l, N: n}), costmodel.Options{})
			ops := r.Ops()
			s := 0.0
			for k, v := range ops {
				if c, ok := truth[k]; ok {
					s += v * c
				} else {
					s += v * base.Costs[k]
				}
			}
			obs = append(obs, costmodel.Observation{Label: l.String(), Ops: ops, Seconds: s})
		}
	}
	p, err := costmodel.Fit(obs, base, costmodel.FitKeys)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range truth {
		if got := p.Costs[k]; got < v*0.99 || got > v*1.01 {
			t.Errorf("%s = %g, want %g", k, got, v)
		}
	}
	med, worst, rank := costmodel.Errors([]float64{1, 2, 3}, []float64{1, 2, 4})
	if med != 0 || worst != 0.25 || rank != 1 {
		t.Errorf("errors %v %v %v", med, worst, rank)
	}
}

func TestRevisitedAddresses(t *testing.T) {
	src := "events {}\nhttp {\n" +
		" server { listen 127.0.0.1:80; }\n server { listen 127.0.0.2:80; }\n" +
		" server { listen 127.0.0.1:80; }\n server { listen 127.0.0.2:80; }\n}\n"
	c := compute(t, src, costmodel.Options{}).Counts
	// Address scan: new after 0, new after 1, found first (1), found
	// second (2). Server scan: one server already on each address.
	if c.AddrCompares != 4 || c.ServerCompares != 2 || c.PortCompares != 3 {
		t.Errorf("addr %d server %d port %d", c.AddrCompares, c.ServerCompares, c.PortCompares)
	}
}

func TestUDPNoConflict(t *testing.T) {
	r := compute(t, "events {}\nstream {\n server { listen 5353 udp; proxy_pass 127.0.0.1:1; }\n server { listen 127.0.0.1:5353 udp bind; proxy_pass 127.0.0.1:1; }\n}\n", costmodel.Options{})
	if len(r.Conflicts) != 0 || r.Counts.SocketsTest != 2 {
		t.Errorf("conflicts %+v sockets %d", r.Conflicts, r.Counts.SocketsTest)
	}
	r = compute(t, "events {}\nstream {\n server { listen 5353; proxy_pass 127.0.0.1:1; }\n server { listen 127.0.0.1:5353 bind; proxy_pass 127.0.0.1:1; }\n}\n", costmodel.Options{})
	if len(r.Conflicts) != 1 {
		t.Errorf("tcp stream conflicts %+v", r.Conflicts)
	}
}

// TestQUICSeparateSocket: ngx_http_add_listen compares the socket type,
// so a quic listen is a datagram port of its own next to the TCP one,
// and a TCP bind next to it does not collide with it.
func TestQUICSeparateSocket(t *testing.T) {
	src := `events {}
http {
    server { listen 443 ssl; listen 443 quic reuseport; server_name a; }
    server { listen 443 ssl; listen 443 quic; server_name b; }
}
`
	r := compute(t, src, costmodel.Options{})
	if r.Counts.Ports != 2 || r.Counts.SocketsTest != 2 {
		t.Fatalf("ports %d, sockets %d, want 2 and 2", r.Counts.Ports, r.Counts.SocketsTest)
	}
	var udp int
	for _, p := range r.Ports {
		if p.UDP {
			udp++
			if !strings.HasSuffix(p.Name(), "/udp") || len(p.Addrs) != 1 || p.Addrs[0].ServerCount() != 2 {
				t.Errorf("quic port %s: %d addresses", p.Name(), len(p.Addrs))
			}
		}
	}
	if udp != 1 {
		t.Errorf("%d datagram ports, want 1", udp)
	}
	// Both addresses have two servers and get a names hash.
	if len(r.Hashes) != 2 {
		t.Errorf("%d hashes, want 2", len(r.Hashes))
	}
}

// TestScatteredInstances: the listens of an address interleaved with
// another address's keep their order, and Servers yields each server once.
func TestScatteredInstances(t *testing.T) {
	src := `events {}
http {
    server { listen 127.0.0.1:80; listen 127.0.0.2:80; listen 127.0.0.1:81; server_name a; }
    server { listen 127.0.0.2:80; listen 127.0.0.1:80; server_name b; }
    server { listen 127.0.0.1:80; server_name c; }
}
`
	r := compute(t, src, costmodel.Options{})
	var got []string
	for _, p := range r.Ports {
		for _, a := range p.Addrs {
			var names []string
			for s := range a.Servers() {
				names = append(names, s.Names()[0].Spec().Name)
			}
			got = append(got, a.Key+"="+strings.Join(names, ",")+"/"+strconv.Itoa(len(a.Instances)))
		}
	}
	want := "127.0.0.1:80=a,b,c/3 127.0.0.2:80=a,b/2 127.0.0.1:81=a/1"
	if strings.Join(got, " ") != want {
		t.Errorf("addresses %s\nwant %s", strings.Join(got, " "), want)
	}
	// The instances of 127.0.0.1:80 point at the listens in order.
	a := r.Ports[0].Addrs[0]
	for i, in := range a.Instances {
		if in.Key() != "127.0.0.1:80" || in.Server.Names()[0].Spec().Name != string(rune('a'+i)) {
			t.Errorf("instance %d: %s of %s", i, in.Key(), in.Server.Names()[0].Spec().Name)
		}
	}
}

// TestListenCap: port ranges nested so that their runs of ports (see
// Port) number more than MaxListens stop there, and the result says so.
func TestListenCap(t *testing.T) {
	var b strings.Builder
	b.WriteString("events {}\nhttp {\n")
	// 1,100 ranges, each inside the one before: 2,200 cuts, and the
	// i-th range covers 2,200-2i runs, 1.2 million in all.
	for i := 1; i <= 1100; i++ {
		b.WriteString("    server { listen 127.0.0.1:" + strconv.Itoa(i) + "-" + strconv.Itoa(65535-i) + "; }\n")
	}
	b.WriteString("}\n")
	r := compute(t, b.String(), costmodel.Options{})
	if r.Truncated <= costmodel.MaxListens || len(r.Instances) != costmodel.MaxListens {
		t.Fatalf("truncated %d, %d instances", r.Truncated, len(r.Instances))
	}
	found := false
	for _, u := range r.Unknown {
		found = found || strings.Contains(u, "lower bound")
	}
	if !found {
		t.Errorf("no note of the cap in %q", r.Unknown)
	}
	// Twenty full ranges are placed whole.
	b.Reset()
	b.WriteString("events {}\nhttp {\n")
	for i := 1; i <= 20; i++ {
		b.WriteString("    server { listen 127.0.0." + strconv.Itoa(i) + ":1-65535; }\n")
	}
	b.WriteString("}\n")
	r = compute(t, b.String(), costmodel.Options{})
	if r.Truncated != 0 || len(r.Instances) != 20 || r.Counts.Ports != 65535 || r.Counts.Listens != 20*65535 || r.Counts.SocketsTest != 20*65535 {
		t.Errorf("truncated %d, %d instances, %d ports, %d listens, %d sockets", r.Truncated, len(r.Instances), r.Counts.Ports, r.Counts.Listens, r.Counts.SocketsTest)
	}
}

// expandRanges writes each port range of src's listens as one listen
// per port, in order: the configuration as nginx adds it.
func expandRanges(src string) string {
	re := regexp.MustCompile(`listen ([^;\s]*:)?(\d+)-(\d+)([^;]*);`)
	return re.ReplaceAllStringFunc(src, func(m string) string {
		g := re.FindStringSubmatch(m)
		lo, _ := strconv.Atoi(g[2])
		hi, _ := strconv.Atoi(g[3])
		var out []string
		for p := lo; p <= hi; p++ {
			out = append(out, "listen "+g[1]+strconv.Itoa(p)+g[4]+";")
		}
		return strings.Join(out, " ")
	})
}

// TestPortRangesAsRuns: the model places a port range as runs of ports
// (one Port for ports every listen covers alike) and counts each run
// once per port; every count equals the model of the same configuration
// with each port written as a listen of its own, which it computes port
// by port. Ranges overlap, hold single ports, share addresses across
// families and modules, carry default_server and socket options.
func TestPortRangesAsRuns(t *testing.T) {
	src := `events {}
http {
    server { listen 127.0.0.1:1000-1099; server_name a; }
    server { listen 127.0.0.1:1050-1149 default_server; listen [::1]:1040-1060; server_name b; }
    server { listen 127.0.0.1:1070; listen 1080-1090; server_name c *.c.example; }
    server { listen 127.0.0.2:1000-1020 reuseport; listen 1010-1030 backlog=100; server_name d; }
    server { server_name implied; }
    server { listen 127.0.0.1:80-85; server_name e; }
}
stream {
    server { listen 127.0.0.1:1090-1110; return x; }
    server { listen 127.0.0.1:1200-1210 udp; return y; }
    server { listen 127.0.0.3:1100-1105; return z; }
}
`
	ranged := compute(t, src, costmodel.Options{})
	ported := compute(t, expandRanges(src), costmodel.Options{})
	if ranged.Truncated != 0 || ported.Truncated != 0 {
		t.Fatal("truncated")
	}
	if len(ranged.Instances) >= len(ported.Instances)/4 {
		t.Errorf("%d instances for ranges, %d for ports: the ranges were expanded", len(ranged.Instances), len(ported.Instances))
	}
	// The text differs (one listen per port): so does its directive
	// count, and the time to read it, nothing else.
	ported.Counts.Directives = ranged.Counts.Directives
	if diff := cmp.Diff(ported.Counts, ranged.Counts); diff != "" {
		t.Errorf("counts (-port by port +runs):\n%s", diff)
	}
	if len(ranged.Conflicts) == 0 || len(ranged.Conflicts) >= len(ported.Conflicts) {
		t.Errorf("%d conflicts by runs, %d port by port", len(ranged.Conflicts), len(ported.Conflicts))
	}
}

package costmodel_test

import (
	"math"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
)

// TestSharesAddUp: each count the servers are charged for adds up over
// the shares to the model's own count, and the seconds to the startup
// estimate less the work of no one server.
func TestSharesAddUp(t *testing.T) {
	cases := map[string]string{
		"http": `events {}
http {
    ssl_certificate /c.pem;
    map $uri $m { ~^/a 1; default 0; }
    server { listen 127.0.0.1:80; server_name a b; location ~ \.php$ { rewrite ^ /x; } }
    server { listen 127.0.0.2:80; server_name ~^(?<n>.+)\.example$; }
    server { listen 127.0.0.1:80; server_name c; location / { location /in { } } if ($uri ~ x) { } }
    server { listen 8080 reuseport; listen 8000-8002; }
    server { server_name d; }
    server { server_name d; }
}
`,
		"stream": `worker_processes 3;
events {}
stream {
    server { listen 9000; proxy_pass 127.0.0.1:1; }
    server { listen 9001 udp; proxy_pass 127.0.0.1:1; }
    server { listen 127.0.0.1:9000 reuseport; proxy_pass 127.0.0.1:1; }
}
http { server { listen 9000; } }
`,
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			r := compute(t, src, costmodel.Options{})
			checkShares(t, r)
		})
	}
}

func checkShares(t *testing.T, r *costmodel.Result) []costmodel.Share {
	t.Helper()
	shares := r.Shares()
	if len(shares) != r.Counts.Servers {
		t.Fatalf("%d shares for %d servers", len(shares), r.Counts.Servers)
	}
	sum := map[string]int64{}
	seconds := 0.0
	for _, s := range shares {
		for _, k := range costmodel.ShareKeys() {
			n := s.Ops(k)
			if n < 0 {
				t.Errorf("server at line %d: %s = %d", s.Server.Directive.Line(), k, n)
			}
			sum[k] += n
		}
		seconds += s.Seconds
	}
	c := r.Counts
	want := map[string]int64{
		costmodel.CostServer:        int64(c.Servers),
		costmodel.CostLocation:      int64(c.Locations),
		costmodel.CostPortCompare:   c.PortCompares,
		costmodel.CostAddrCompare:   c.AddrCompares + c.StreamListenCompares,
		costmodel.CostServerCompare: c.ServerCompares,
		costmodel.CostNameKey:       int64(c.NameKeys + c.NameConflicts),
		costmodel.CostNameWarning:   int64(c.NameConflicts),
		costmodel.CostSSLServer:     int64(c.SSLServers),
		costmodel.CostSocket:        int64(c.SocketsStart),
	}
	for k, v := range want {
		if sum[k] != v {
			t.Errorf("%s: the shares add up to %d, the model counts %d", k, sum[k], v)
		}
	}
	if sum[costmodel.CostDirective] > int64(c.Directives) || sum[costmodel.CostRegex] > int64(c.Regexes) {
		t.Errorf("directives %d of %d, regexes %d of %d", sum[costmodel.CostDirective], c.Directives, sum[costmodel.CostRegex], c.Regexes)
	}
	// Left to no server: start, directives and regexes outside servers,
	// files, sort, hash search, bind conflicts.
	rest := 0.0
	for _, p := range r.Phases {
		switch p.Key {
		case costmodel.CostBase, costmodel.CostInclude, costmodel.CostLogFile, costmodel.CostSortCompare,
			costmodel.CostHashProbe, costmodel.CostBhashStep:
			rest += p.Seconds
		}
	}
	rest += float64(int64(c.Directives)-sum[costmodel.CostDirective]) * r.Profile.Cost(costmodel.CostDirective)
	rest += float64(int64(c.Regexes)-sum[costmodel.CostRegex]) * r.Profile.Cost(costmodel.CostRegex)
	if math.Abs(seconds+rest-r.StartupSeconds) > 1e-9*max(1, r.StartupSeconds) {
		t.Errorf("shares %.6f s + the rest %.6f s != start %.6f s", seconds, rest, r.StartupSeconds)
	}
	return shares
}

// BenchmarkShares20k: the shares of the 20,000 servers of L2c (an
// editor's inlay hints ask for them once per text).
func BenchmarkShares20k(b *testing.B) {
	r := costmodel.Compute(layoutModel(b, layout.Options{Layout: layout.Layout{Listen: layout.IPPerServer, Naming: layout.UniqueNames}, N: 20000}), costmodel.Options{})
	b.ReportAllocs()
	for b.Loop() {
		if len(r.Shares()) != 20000 {
			b.Fatal("shares")
		}
	}
}

// TestSharesGrowAlongThePort: on the seed's L2 layout (every server on
// its own IP of one port) the address scan makes each server dearer than
// the one before it, so the last pays the most.
func TestSharesGrowAlongThePort(t *testing.T) {
	r := costmodel.Compute(layoutModel(t, layout.Options{Layout: layout.Layout{Listen: layout.IPPerServer, Naming: layout.UniqueNames}, N: 2000}), costmodel.Options{})
	shares := checkShares(t, r)
	first, last := shares[0], shares[len(shares)-1]
	if last.Ops(costmodel.CostAddrCompare) != 1999 || first.Ops(costmodel.CostAddrCompare) != 0 {
		t.Errorf("address compares: first %d, last %d; want 0 and 1999", first.Ops(costmodel.CostAddrCompare), last.Ops(costmodel.CostAddrCompare))
	}
	if !(last.Seconds > first.Seconds) {
		t.Errorf("last server %.6f s, first %.6f s", last.Seconds, first.Seconds)
	}
}

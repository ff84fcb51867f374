package optimize_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
	"github.com/nginx-lint/nginx-lint/analyzer/optimize"
	"github.com/nginx-lint/nginx-lint/parser"
)

const mainPath = "/t/nginx.conf"

// memLoader loads src as /t/nginx.conf with the overlay's texts.
func memLoader(src string) optimize.Loader {
	return func(ov map[string][]byte) (*parser.Model, error) {
		files := map[string][]byte{mainPath: []byte(src)}
		for k, v := range ov {
			files[k] = v
		}
		c := (&parser.Loader{Kinds: analyzer.Kinds, FS: &parser.Overlay{Files: files}}).LoadSource(mainPath, files[mainPath], nil)
		return parser.BuildModel(c), nil
	}
}

func optimizeSrc(t *testing.T, src string, o optimize.Options) (*optimize.Plan, string) {
	t.Helper()
	p, err := optimize.Optimize(memLoader(src), o)
	if err != nil {
		t.Fatal(err)
	}
	fixed := src
	if b, ok := p.Fixed[mainPath]; ok {
		fixed = string(b)
	}
	return p, fixed
}

func applied(p *optimize.Plan, kind string) int {
	n := 0
	for _, rw := range p.Rewrites {
		if rw.Kind == kind && rw.Applied {
			n++
		}
	}
	return n
}

// TestWildcardL2c: one wildcard socket for 300 addresses, applied only
// under Wildcard (it opens the port on every address of the machine),
// and the report says so.
func TestWildcardL2c(t *testing.T) {
	src := string(layout.Generate(layout.Options{Layout: layout.Layout{Listen: layout.IPPerServer, Naming: layout.UniqueNames}, N: 300}))
	p, fixed := optimizeSrc(t, src, optimize.Options{})
	if applied(p, optimize.KindWildcard) != 0 || fixed != src || len(p.Opened) != 0 {
		t.Fatalf("wildcard applied without Wildcard: %+v", p.Rewrites)
	}
	if rw := rewriteOf(p, optimize.KindWildcard); rw == nil || !strings.Contains(rw.Reason, "it would open 0.0.0.0:20000 on every address of the machine, where the configuration listens on 300 addresses only: a change of routing; --wildcard applies it") || len(rw.Changes) != 1 {
		t.Errorf("reason: %+v", rw)
	}
	p, fixed = optimizeSrc(t, src, optimize.Options{Wildcard: true})
	if applied(p, optimize.KindWildcard) != 1 {
		t.Fatalf("wildcard rewrite not applied: %+v", p.Rewrites)
	}
	if len(p.Opened) != 1 || p.Opened[0] != "0.0.0.0:20000" || p.Requests < 900 {
		t.Errorf("opened %v, %d requests compared", p.Opened, p.Requests)
	}
	if p.Before.Counts.SocketsStart != 300 || p.After.Counts.SocketsStart != 1 {
		t.Errorf("sockets %d → %d, want 300 → 1", p.Before.Counts.SocketsStart, p.After.Counts.SocketsStart)
	}
	if !strings.Contains(fixed, "listen 20000;") || !strings.Contains(fixed, "return 444;") {
		t.Errorf("no catch-all server in:\n%s", fixed[len(fixed)-400:])
	}
	if p.CatchAll != 300 || len(p.Accepted) != 1 || !p.Accepted[0].Other {
		t.Errorf("catch-all %d, accepted %+v", p.CatchAll, p.Accepted)
	}
	if p.Saving() <= 0 {
		t.Errorf("saving %v", p.Saving())
	}
}

func rewriteOf(p *optimize.Plan, kind string) *optimize.Rewrite {
	for i := range p.Rewrites {
		if p.Rewrites[i].Kind == kind {
			return &p.Rewrites[i]
		}
	}
	return nil
}

func TestSocketOptions(t *testing.T) {
	same := `events {}
http {
    server { listen 127.0.0.1:8080 backlog=100 default_server ssl; server_name a; }
    server { listen 127.0.0.2:8080 backlog=100 proxy_protocol; server_name b; }
}
`
	p, fixed := optimizeSrc(t, same, optimize.Options{Wildcard: true})
	if applied(p, optimize.KindWildcard) != 1 {
		t.Fatalf("not applied: %+v", p.Rewrites)
	}
	for _, want := range []string{"listen 127.0.0.1:8080 default_server ssl;", "listen 127.0.0.2:8080 proxy_protocol;", "listen 8080 backlog=100;"} {
		if !strings.Contains(fixed, want) {
			t.Errorf("%q missing in:\n%s", want, fixed)
		}
	}
	differ := strings.Replace(same, "backlog=100 proxy", "backlog=200 proxy", 1)
	p, fixed = optimizeSrc(t, differ, optimize.Options{Wildcard: true})
	if applied(p, optimize.KindWildcard) != 0 || fixed != differ {
		t.Fatalf("different backlogs rewritten:\n%s", fixed)
	}
	found := false
	for _, rw := range p.Rewrites {
		if rw.Kind == optimize.KindWildcard && strings.Contains(rw.Reason, "different socket options") {
			found = true
		}
	}
	if !found {
		t.Errorf("no reason given: %+v", p.Rewrites)
	}
}

// TestBind: a bind the user wrote is kept, so a port with one is left
// alone, with the reason (and a backlog that forces a socket of its own
// beside a wildcard is still given up for the wildcard's).
func TestBind(t *testing.T) {
	conflict := `events {}
http {
    server { listen 8080 backlog=100; server_name a; }
    server { listen 127.0.0.2:8080 backlog=100; server_name b; }
    server { listen 8081; server_name c; }
    server { listen 127.0.0.2:8081 bind; server_name d; }
}
`
	p, fixed := optimizeSrc(t, conflict, optimize.Options{Wildcard: true})
	if len(p.Before.Conflicts) != 2 || len(p.After.Conflicts) != 1 {
		t.Errorf("conflicts %d → %d", len(p.Before.Conflicts), len(p.After.Conflicts))
	}
	if !strings.Contains(fixed, "listen 127.0.0.2:8080;") || !strings.Contains(fixed, "listen 127.0.0.2:8081 bind;") || strings.Contains(fixed, "return 444") {
		t.Errorf("fixed:\n%s", fixed)
	}
	var kept *optimize.Rewrite
	for i, rw := range p.Rewrites {
		if rw.Kind == optimize.KindWildcard && strings.HasPrefix(rw.Title, "port 8081") {
			kept = &p.Rewrites[i]
		}
	}
	if kept == nil || kept.Applied || !strings.Contains(kept.Reason, `"listen 127.0.0.2:8081 bind" at /t/nginx.conf:6 asks for a socket of its own with bind, which is kept`) {
		t.Errorf("port 8081: %+v", kept)
	}
	// Every address with bind: nothing to do but say why.
	all := `events {}
http {
    server { listen 127.0.0.1:8080 bind; server_name a; }
    server { listen 127.0.0.2:8080 bind; server_name b; }
}
`
	p, fixed = optimizeSrc(t, all, optimize.Options{Wildcard: true, AssumeHost: true})
	if fixed != all || applied(p, optimize.KindWildcard)+applied(p, optimize.KindByName) != 0 {
		t.Errorf("rewritten although every listen has bind:\n%s", fixed)
	}
	for _, rw := range p.Rewrites {
		if (rw.Kind == optimize.KindWildcard || rw.Kind == optimize.KindByName) && !strings.Contains(rw.Reason, "with bind, which is kept") {
			t.Errorf("%s: %q", rw.Kind, rw.Reason)
		}
	}
}

// TestRequestModelRefuses: a rewrite the server tables call equivalent
// but that changes a request's location is refused, by the request
// model: the name-based rewrite makes another server the default of the
// address, and that server's merge_slashes off reads the request line
// (ngx_http_process_request_line runs before the Host is known).
func TestRequestModelRefuses(t *testing.T) {
	src := `events {}
http {
    server { listen 127.0.0.1:8080; server_name a.example; merge_slashes off;
        location /x/ { return 200 "x"; }
        location / { return 200 "root"; }
    }
    server { listen 127.0.0.2:8080; server_name b.example;
        location /x/ { return 200 "x"; }
        location / { return 200 "root"; }
    }
}
`
	p, fixed := optimizeSrc(t, src, optimize.Options{Wildcard: true, AssumeHost: true})
	rw := rewriteOf(p, optimize.KindByName)
	if rw == nil || rw.Applied || fixed != src || !strings.Contains(rw.Reason, "the request model finds a difference") {
		t.Fatalf("name-based rewrite: %+v\n%s", rw, fixed)
	}
	if !strings.Contains(rw.Reason, "location") {
		t.Errorf("reason does not name the location: %s", rw.Reason)
	}
}

func TestSettings(t *testing.T) {
	src := string(layout.Generate(layout.Options{Layout: layout.Layout{Listen: layout.PortPerServer, Naming: layout.UniqueNames}, N: 1200, WorkerConnections: 100}))
	p, fixed := optimizeSrc(t, src, optimize.Options{})
	if applied(p, optimize.KindWorkerConnections) != 1 || !strings.Contains(fixed, "worker_connections 1201;") {
		t.Errorf("worker_connections not raised: %+v", p.Rewrites)
	}
	// 1201 connections are over the limit of 1024: nginx would warn;
	// each worker holds them, 1200 sockets and the logs.
	m := regexp.MustCompile(`worker_rlimit_nofile (\d+);`).FindStringSubmatch(fixed)
	if applied(p, optimize.KindRlimitNofile) != 1 || m == nil {
		t.Errorf("worker_rlimit_nofile not set: %+v", p.Rewrites)
	} else if n, _ := strconv.Atoi(m[1]); n < 2401 || n > 2410 {
		t.Errorf("worker_rlimit_nofile %d, want 2401 and a few for the logs", n)
	}
	// At 1024 connections nginx does not warn: no worker_rlimit_nofile.
	src1024 := string(layout.Generate(layout.Options{Layout: layout.Layout{Listen: layout.SharedAddr, Naming: layout.UniqueNames}, N: 10, WorkerConnections: 1024}))
	if p1024, _ := optimizeSrc(t, src1024, optimize.Options{}); applied(p1024, optimize.KindRlimitNofile) != 0 {
		t.Errorf("worker_rlimit_nofile set for 1024 connections: %+v", p1024.Rewrites)
	}
	for _, l := range p.After.Limits {
		if l.Name == "worker_connections" && !l.OK {
			t.Errorf("still short: %+v", l)
		}
	}
	names := strings.Replace(string(layout.Generate(layout.Options{Layout: layout.Layout{Listen: layout.SharedAddr, Naming: layout.UniqueNames}, N: 2000})), "", "", 1)
	p, fixed = optimizeSrc(t, names, optimize.Options{})
	if applied(p, optimize.KindHashSize) != 1 || !strings.Contains(fixed, "server_names_hash_max_size 3202;") {
		t.Errorf("hash not sized: %+v", p.Rewrites)
	}
	for _, h := range p.After.Hashes {
		if h.Outcome != costmodel.HashOK {
			t.Errorf("hash still %s", h.Outcome)
		}
	}
}

func TestDuplicateListen(t *testing.T) {
	src := "events {}\nhttp {\n    server {\n        listen 127.0.0.1:8080;\n        listen 127.0.0.1:8080;\n        server_name a;\n    }\n}\n"
	p, fixed := optimizeSrc(t, src, optimize.Options{})
	if applied(p, optimize.KindDuplicateListen) != 1 || strings.Count(fixed, "listen") != 1 {
		t.Errorf("duplicate kept:\n%s", fixed)
	}
}

func TestNameBased(t *testing.T) {
	src := string(layout.Generate(layout.Options{Layout: layout.Layout{Listen: layout.IPPerServer, Naming: layout.UniqueNames}, N: 50}))
	p, fixed := optimizeSrc(t, src, optimize.Options{})
	var nb *optimize.Rewrite
	for i := range p.Rewrites {
		if p.Rewrites[i].Kind == optimize.KindByName {
			nb = &p.Rewrites[i]
		}
	}
	if nb == nil || nb.Applied || len(nb.Changes) < 2 || !strings.Contains(nb.Changes[1], "a request to 127.0.0.2:20000 without Host or with an unknown Host goes to server perf-test-00001.example") {
		t.Fatalf("name-based rewrite: %+v", nb)
	}
	if !strings.Contains(fixed, "listen 127.0.0.2:20000;") {
		t.Error("the addresses are gone without --assume-host")
	}
	if p, _ := optimizeSrc(t, src, optimize.Options{AssumeHost: true}); applied(p, optimize.KindByName) != 0 {
		t.Error("name-based rewrite applied without Wildcard: it opens the port on every address")
	}
	p, fixed = optimizeSrc(t, src, optimize.Options{AssumeHost: true, Wildcard: true})
	if applied(p, optimize.KindByName) != 1 || strings.Contains(fixed, "127.0.0.2:20000") || p.After.Counts.Addrs != 1 {
		t.Fatalf("not applied under AssumeHost: %+v\n%s", p.Rewrites, fixed)
	}
	// Shared names: a Host no longer tells the servers apart.
	same := string(layout.Generate(layout.Options{Layout: layout.Layout{Listen: layout.IPPerServer, Naming: layout.SameName}, N: 5}))
	p, _ = optimizeSrc(t, same, optimize.Options{AssumeHost: true, Wildcard: true})
	if applied(p, optimize.KindByName) != 0 {
		t.Errorf("applied although every server has the same name: %+v", p.Rewrites)
	}
}

// TestOneBadPort: a port whose wildcard would collide with a stream
// listen is left alone with that reason, and the other port is still
// rewritten.
func TestOneBadPort(t *testing.T) {
	src := `events {}
stream {
    server { listen 127.0.0.3:8080; return "x"; }
}
http {
    server { listen 127.0.0.1:8080; server_name a; }
    server { listen 127.0.0.2:8080; server_name b; }
    server { listen 127.0.0.1:8081; server_name c; }
    server { listen 127.0.0.2:8081; server_name d; }
}
`
	p, fixed := optimizeSrc(t, src, optimize.Options{Wildcard: true})
	var bad, good *optimize.Rewrite
	for i, rw := range p.Rewrites {
		if rw.Kind != optimize.KindWildcard {
			continue
		}
		if strings.HasPrefix(rw.Title, "port 8080") {
			bad = &p.Rewrites[i]
		} else {
			good = &p.Rewrites[i]
		}
	}
	if bad == nil || bad.Applied || !strings.Contains(bad.Reason, "would fail to start") {
		t.Errorf("port 8080: %+v", bad)
	}
	if good == nil || !good.Applied || !strings.Contains(fixed, "listen 8081;") || strings.Contains(fixed, "listen 8080;") {
		t.Errorf("port 8081: %+v\n%s", good, fixed)
	}
}

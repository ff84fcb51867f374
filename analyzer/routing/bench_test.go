package routing_test

import (
	"math/rand/v2"
	"net/netip"
	"strconv"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/parser"
)

// routeLocations are the 20 locations of every server of BenchmarkRoute:
// prefixes at several depths, exact and ^~ locations, regexes, a nested
// pair, try_files, a rewrite chain, error_page and a proxied prefix.
var routeLocations = []string{
	"location / { try_files $uri $uri/ /index.php?$args; }",
	"location = / { return 200 home; }",
	"location = /health { return 200 ok; }",
	"location /api/ { proxy_pass http://127.0.0.1:9000; }",
	"location /api/v1/ { proxy_pass http://127.0.0.1:9001; }",
	"location /api/v2/ { location ~ ^/api/v2/admin { return 403; } proxy_pass http://127.0.0.1:9002; }",
	"location ^~ /static/ { expires 1d; }",
	"location ^~ /assets/ { alias /srv/assets/; }",
	`location ~ \.php$ { fastcgi_pass 127.0.0.1:9003; }`,
	`location ~* \.(png|jpg|gif|css|js)$ { expires 7d; }`,
	"location /old/ { rewrite ^/old/(.*)$ /new/$1 last; }",
	"location /new/ { return 200 new; }",
	"location /blog { rewrite ^/blog/(\\d+)/(.*)$ /posts/$2?id=$1 last; }",
	"location /posts/ { error_page 404 = @fallback; }",
	"location @fallback { return 200 fallback; }",
	"location /redirect { return 301 https://$host$request_uri; }",
	"location /download/ { internal; }",
	"location ~ ^/users/(?<user>[a-z]+)/ { return 200 $user; }",
	"location /search { if ($arg_q = \"\") { return 400; } return 200 $arg_q; }",
	"location /a/b/c/d/ { return 200 deep; }",
}

var routePaths = []string{"/", "/health", "/api/x", "/api/v1/users", "/api/v2/admin/x", "/static/app.css", "/assets/logo.png",
	"/index.php", "/img/a.PNG", "/old/page", "/blog/12/title", "/posts/x", "/redirect?x=1", "/download/f", "/users/ann/",
	"/search?q=nginx", "/a/b/c/d/e", "//a/../api/v1/%75sers", "/nothing/here", "/api"}

// BenchmarkRoute is issue 29's benchmark: the seed benchmark's slowest
// layout (L2c, 19,900 servers each on its own address and name) with
// 20 locations per server, parsed once; each iteration builds the
// request model and routes 10,000 requests to random servers and paths.
func BenchmarkRoute(b *testing.B) {
	src := layout.Generate(layout.Options{Layout: layout.Layout{Listen: layout.IPPerServer, Naming: layout.UniqueNames}, N: 19900,
		Server: func(s *layout.Server) { s.Lines = append(s.Lines, routeLocations...) }})
	f := parser.ParseFile("/bench/nginx.conf", src, &parser.Options{Kinds: analyzer.Kinds})
	c := &parser.Config{Main: f, Files: []*parser.File{f}}
	pm := parser.BuildModel(c)
	rng := rand.New(rand.NewPCG(1, 2))
	reqs := make([]routing.HTTPRequest, 10000)
	for i := range reqs {
		n := rng.IntN(19900)
		reqs[i] = routing.HTTPRequest{Request: routing.Request{Addr: slot(n), Port: 20000, Host: layout.ServerName(n)},
			Target: routePaths[rng.IntN(len(routePaths))], Remote: netip.MustParseAddr("192.0.2.1")}
	}
	b.ResetTimer()
	b.ReportAllocs()
	for b.Loop() {
		m := routing.New(pm, costmodel.Compute(pm, costmodel.Options{}), routing.Options{NoFiles: true})
		for _, r := range reqs {
			if a := m.Route(r); a.Server < 0 || a.Handler.Kind == routing.HandlerUnknown {
				b.Fatalf("%s: %+v", r, a)
			}
		}
	}
}

// BenchmarkRouteWarm is BenchmarkRoute's 10,000 requests on a model
// already built, every server's locations read: the cost of routing
// alone.
func BenchmarkRouteWarm(b *testing.B) {
	src := layout.Generate(layout.Options{Layout: layout.Layout{Listen: layout.IPPerServer, Naming: layout.UniqueNames}, N: 19900,
		Server: func(s *layout.Server) { s.Lines = append(s.Lines, routeLocations...) }})
	f := parser.ParseFile("/bench/nginx.conf", src, &parser.Options{Kinds: analyzer.Kinds})
	pm := parser.BuildModel(&parser.Config{Main: f, Files: []*parser.File{f}})
	m := routing.New(pm, costmodel.Compute(pm, costmodel.Options{}), routing.Options{NoFiles: true})
	rng := rand.New(rand.NewPCG(1, 2))
	reqs := make([]routing.HTTPRequest, 10000)
	for i := range reqs {
		n := rng.IntN(19900)
		reqs[i] = routing.HTTPRequest{Request: routing.Request{Addr: slot(n), Port: 20000, Host: layout.ServerName(n)},
			Target: routePaths[rng.IntN(len(routePaths))], Remote: netip.MustParseAddr("192.0.2.1")}
		m.Route(reqs[i])
	}
	b.ResetTimer()
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range reqs {
			m.Route(r)
		}
	}
}

// slot is the address layout L2 gives server n: 127.0.0.1 on, skipping
// the .0 and .255 of every /24.
func slot(n int) netip.Addr {
	s := n // 127.0.0.1 is slot 0
	net24, host := s/254, s%254+1
	return netip.AddrFrom4([4]byte{127, byte(net24 >> 8), byte(net24), byte(host)})
}

// TestRouteBenchmarkConfig: the benchmark's requests reach the server
// they name and the location meant for them.
func TestRouteBenchmarkConfig(t *testing.T) {
	src := layout.Generate(layout.Options{Layout: layout.Layout{Listen: layout.IPPerServer, Naming: layout.UniqueNames}, N: 300,
		Server: func(s *layout.Server) { s.Lines = append(s.Lines, routeLocations...) }})
	m := model(t, string(src), routing.Options{NoFiles: true})
	want := map[string]string{"/": "= /", "/health": "= /health", "/api/x": "/api/", "/api/v1/users": "/api/v1/",
		"/api/v2/admin/x": "~ ^/api/v2/admin", "/static/app.css": "^~ /static/", "/index.php": `~ \.php$`, "/img/a.PNG": `~* \.(png|jpg|gif|css|js)$`,
		"/old/page": "/new/", "/blog/12/title": "@fallback", "/users/ann/": "~ ^/users/(?<user>[a-z]+)/", "/search?q=nginx": "/search",
		"/a/b/c/d/e": "/a/b/c/d/", "//a/../api/v1/%75sers": "/api/v1/", "/nothing/here": `~ \.php$`, "/api": "/api/", "/download/f": "/download/"}
	for _, n := range []int{0, 253, 254, 299} {
		for path, loc := range want {
			r := routing.HTTPRequest{Request: routing.Request{Addr: slot(n), Port: 20000, Host: layout.ServerName(n)}, Target: path}
			a := m.Route(r)
			if a.Server != n || a.Location.String() != loc {
				t.Errorf("server %d, %s: server %d, location %s (%s)", n, path, a.Server, a.Location, a.Describe())
			}
		}
	}
}

// BenchmarkDiffRegexLocations is the diff of one server of n regex
// locations (regexLocations) against a small configuration, as
// `nginx-lint diff` runs it: both request models built, the request set
// asked of both. Before the level's regexes were asked as one
// regex.Ordered, its CPU time grew as n^1.8 (5.5 s for 5,000).
func BenchmarkDiffRegexLocations(b *testing.B) {
	for _, n := range []int{500, 1000, 2000, 5000} {
		src := regexLocations(n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				big, small := model(b, src, routing.Options{NoFiles: true}), model(b, smallConfig, routing.Options{NoFiles: true})
				if _, reqs := routing.Diff(big, small, routing.Probes(big, small)); reqs < 3*n {
					b.Fatalf("%d requests", reqs)
				}
			}
		})
	}
}

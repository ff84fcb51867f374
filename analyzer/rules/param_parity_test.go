package rules_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/corpustest"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// The value parity test mutates the values that nginx's hand-written
// handlers read (listen, an upstream's server, the *_pass addresses, if,
// return, error_page, rewrite, add_header, nested locations, geo, map,
// split_clients, empty upstreams) into valid and invalid forms, runs the
// real nginx -t on each mutant and compares: where nginx's first error is
// one a value validator covers, that validator must report it at nginx's
// line; where nginx accepts the mutant, no value validator may report an
// error. The variants are chosen by hand to sit on both sides of each
// check; which directive of which seed gets which variant is random (a
// fixed seed, so runs repeat).
//
// A seed with stream and mail servers loads their dynamic modules (Debian's
// libnginx-mod-stream and libnginx-mod-mail, which .ci/run installs).
// Parameters
// whose acceptance depends on the operating system (setfib=,
// accept_filter=, which Linux lacks) are left out: the linter does not
// know the target system.

// Replacements for the arguments of each directive kind.
var (
	listenParams = []string{
		"backlog=0", "backlog=511", "backlog=x", "backlog=", "rcvbuf=8k", "rcvbuf=8q", "sndbuf=1m", "sndbuf=",
		"so_keepalive=on", "so_keepalive=off", "so_keepalive=30m::10", "so_keepalive=x", "so_keepalive=::",
		"so_keepalive=1:2:3", "so_keepalive=1h:", "ipv6only=ox", "ipv6only=yes", "fastopen=10", "fastopen=a",
		"quic", "http2", "proxy_protocol", "reuseport", "deferred", "bind", "udp", "foo", "multipath", "spdy",
		"default", "default_server", "Default_server", "ssl=on", "backlog=-1", "rcvbuf=1K", "rcvbuf=2M",
		"quic reuseport", "quic backlog=10", "quic http2", "quic deferred",
	}
	listenAddrs = []string{
		"127.0.0.1:99999", "127.0.0.1:0", ":8081", "[::1", "[::1]:8081x", "127.0.0.1:8081-", "[fe80::1%eth0]:8081",
		"unix:", "127.0.0.1:8081", "[::1]:8081", "127.0.0.1:8081/x", "127.0.0.1:80a", "[::1]", "[]:8081",
		"[::1]x", "127.0.0.1:8081-8080", "127.1:8081",
	}
	serverParams = []string{
		"weight=0", "weight=5", "weight=x", "weight=", "max_fails=3", "max_fails=-1", "fail_timeout=10s",
		"fail_timeout=10x", "fail_timeout=1m30s", "fail_timeout=30s1m", "max_conns=10", "max_conns=a", "backup",
		"down", "resolve", "service=http", "slow_start=10s", "route=a", "drain", "foo", "Backup", "weight=1 backup",
	}
	serverAddrs = []string{
		"127.0.0.1:0", "127.0.0.1:9002", "127.0.0.1:9002/x", "[::1]:9002", "[::1", "unix:", ":9002", "127.0.0.1",
		"unix:/tmp/nginx-lint-x.sock", "127.0.0.1:9002?x", "[::1]:0", "127.0.0.1:65536",
	}
	proxyURLs = []string{
		"http://127.0.0.1:9002", "http://127.0.0.1:9002/", "http://127.0.0.1:9002/x/", "127.0.0.1:9002",
		"ftp://127.0.0.1", "http://127.0.0.1:0", "http://127.0.0.1:99999/", "http://[::1]:9002", "http://[::1",
		"http://:80", "http://unix:/tmp/nginx-lint-x.sock", "http://unix:/tmp/nginx-lint-x.sock:/uri",
		"https://127.0.0.1", "HTTP://127.0.0.1:9002", "http://127.0.0.1?a=1", "http://unix:",
		"http://$host", "http://127.0.0.1:9002/$uri",
	}
	upstreamURLs = []string{
		"127.0.0.1:9000", "127.0.0.1", "lintbackend", "unix:/tmp/nginx-lint-php.sock", "127.0.0.1:9000/x",
		"[::1]:9000", "[::1]", "127.0.0.1:0", ":9000", "unix:", "lintbackend:9000",
	}
	passNames  = []string{"fastcgi_pass", "grpc_pass", "uwsgi_pass", "scgi_pass", "memcached_pass"}
	conditions = []string{
		"($http_x)", "($http_x = 1)", "($http_x == 1)", "($http_x ~ ^a)", "($http_x !~* ^a)", "(-f /tmp/x)",
		"(!-e /tmp/x)", "(-q /tmp/x)", "(x)", "$http_x", "($http_x", "$http_x)", "( $http_x )", "()", "( )",
		"($http_x = a b)", "(-f)", "($http_x =)", "($http_x ~*)", "(!-x /tmp/x)", "(-d /tmp /x)", "($http_x != \"\")",
		"($)", "(!- /tmp)", "($http_x ! 1)", "( -e /tmp )",
	}
	returns = []string{
		"200", "999", "1000", "-1", "abc", "http://x", "$scheme://x", "301 /x", "https://x y", "0", "444",
		"200 \"ok\"", "1e3", "https:/x",
	}
	errorPages = []string{
		"404 /x", "200 /x", "499 /x", "600 /x", "abc /x", "= /x", "404 = /x", "404 =200 /x", "404 =abc /x",
		"500 502 503 /x", "404 500 =301 /x", "300 /x", "599 /x", "404 =-1 /x", "404 =0 /x",
	}
	rewrites = []string{
		"^ /x last", "^ /x foo", "^ /x permanent", "^ /x break", "^ /x redirect", "^ \"\" last", "^ /x Last",
	}
	resolvers = []string{
		"127.0.0.53", "127.0.0.53 valid=30s", "127.0.0.53 valid=30x", "127.0.0.53 ipv6=off", "127.0.0.53 ipv6=no",
		"valid=30s", "127.0.0.53:0", "[::1]:5353 valid=1m", "127.0.0.53/x", "[::1", "127.0.0.53 ipv6=on valid=1h30m",
	}
	addHeaders   = []string{"X-A 1 always", "X-A 1 never", "X-A 1 Always"}
	geoEntries   = []string{"10.0.0.0/8 1;", "10.0.0.0/33 1;", "10.0.0.1-10.0.0.9 1;", "ranges; 10.0.0.1-10.0.0.9 1;", "ranges; 10.0.0.0/8 1;", "value 1;", "::1/128 1;", "::1/129 1;", "10.0.0.0/8 1 2;", "default 1; ranges;", "volatile;", "proxy 10.0.0.0/8;", "proxy x;", "ranges; 10.0.0.9-10.0.0.1 1;", "ranges; default 1; 10.0.0.1-10.0.0.300 1;", "delete 10.0.0.0/8;", "1.2.3 1;", "255.255.255.255 1;", "ranges; 1.2.3.4-255.255.255.255 1;", "10.1.1.1/8 1;", "proxy_recursive;"}
	mapEntries   = []string{"a b c;", "default 1; default 2;", "a 1;", "hostnames;", "volatile;", "a;", "\"default\" 1; default 2;", "a 1; A 2;", "a 1; \\\\a 2;", "~a 1; ~a 2;", "a 1; b 2;", "A 1; a 1;", "É 1; é 2;"}
	splitEntries = []string{"50% a; 50% b;", "60% a; 50% b;", "abc a;", "0% a;", "50.5% a; * b;", "* a; 10% b;", "12.555% a;", "12.55% a;", "100% a;", "100.01% a;", "% a;", "1.2.3% a;"}
	zoneDefs     = []string{
		"limit_req_zone $binary_remote_addr zone=ZONE:10m rate=10r/s", "limit_req_zone $binary_remote_addr zone=ZONE:32k rate=30r/m",
		"limit_req_zone $binary_remote_addr zone=ZONE rate=1r/s", "limit_req_zone $binary_remote_addr zone=ZONE:10q rate=1r/s",
		"limit_req_zone $binary_remote_addr zone=ZONE:16k rate=1r/s", "limit_req_zone $binary_remote_addr zone=ZONE:1m rate=0r/s",
		"limit_req_zone $binary_remote_addr zone=ZONE:1m rate=0.5r/s", "limit_req_zone $binary_remote_addr zone=ZONE:1m burst=5",
		"limit_req_zone $binary_remote_addr zone=ZONE:1m rate=5", "limit_req_zone $binary_remote_addr rate=1r/s rate=2r/s",
		"limit_conn_zone $binary_remote_addr zone=ZONE:1m", "limit_conn_zone $binary_remote_addr zone=ZONE:1",
		"limit_conn_zone $binary_remote_addr rate=1r/s", "limit_conn_zone $binary_remote_addr zone=ZONE:1g",
		"proxy_cache_path lintcache_ZONE levels=1:2 keys_zone=ZONE:10m inactive=1h max_size=1g use_temp_path=off",
		"proxy_cache_path lintcache_ZONE keys_zone=ZONE:4k", "proxy_cache_path lintcache_ZONE keys_zone=ZONE:8k levels=1:2:2",
		"proxy_cache_path lintcache_ZONE levels=3 keys_zone=ZONE:1m", "proxy_cache_path lintcache_ZONE levels=1: keys_zone=ZONE:1m",
		"proxy_cache_path lintcache_ZONE keys_zone=ZONE:1m inactive=1x", "proxy_cache_path lintcache_ZONE keys_zone=ZONE:1m max_size=1t",
		"proxy_cache_path lintcache_ZONE keys_zone=ZONE:1m use_temp_path=yes", "proxy_cache_path lintcache_ZONE keys_zone=ZONE:1m purger=on",
		"fastcgi_cache_path lintcache_ZONE levels=1:2", "uwsgi_cache_path lintcache_ZONE keys_zone=ZONE:1m min_free=1x",
		"scgi_cache_path lintcache_ZONE keys_zone=ZONE:1m loader_files=x", "proxy_cache_path lintcache_ZONE keys_zone=:1m",
	}
	nestedLocations = []string{"location /zzz { }", "location @lintnamed { }", "location ~ \\.x$ { }", "location ~* /z { }"}
)

// streamSeed has stream and mail servers, for nginx builds with those
// modules loadable (Debian's libnginx-mod-stream and libnginx-mod-mail).
const streamSeed = `load_module /usr/lib/nginx/modules/ngx_stream_module.so;
load_module /usr/lib/nginx/modules/ngx_mail_module.so;
events {
    worker_connections 64;
}
stream {
    upstream db {
        server 127.0.0.1:5432;
        server 127.0.0.1:5433 weight=2;
    }
    server {
        listen 127.0.0.1:9100;
        proxy_pass db;
    }
    server {
        listen 127.0.0.1:9101 udp;
        proxy_pass 127.0.0.1:9053;
    }
    server {
        listen 127.0.0.1:9102 reuseport;
        proxy_pass 127.0.0.1:9054;
    }
}
mail {
    auth_http 127.0.0.1:9000/auth;
    server {
        listen 127.0.0.1:2525;
        protocol smtp;
        smtp_auth none;
    }
    server {
        listen 127.0.0.1:2526 backlog=16;
        protocol smtp;
        smtp_auth none;
    }
}
`

// streamModules are the dynamic modules streamSeed loads.
var streamModules = []string{"/usr/lib/nginx/modules/ngx_stream_module.so", "/usr/lib/nginx/modules/ngx_mail_module.so"}

// paramMutant is one generated config.
type paramMutant struct {
	seed      seed
	file, src string
	how       string
}

// seedTarget is a directive of a seed file with its enclosing blocks.
type seedTarget struct {
	d     *parser.Directive
	stack []string
}

func (st seedTarget) in(name string) bool {
	return len(st.stack) > 0 && st.stack[len(st.stack)-1] == name
}

func (st seedTarget) http() bool { return len(st.stack) > 0 && st.stack[0] == "http" }

func (st seedTarget) stream() bool {
	return len(st.stack) > 0 && (st.stack[0] == "stream" || st.stack[0] == "mail")
}

// targets lists the directives of src with the names of their enclosing
// blocks (outermost first), prefixed with the context the file is
// included in.
func targets(src string, root []string) []seedTarget {
	f := parser.ParseFile("seed.conf", []byte(src), &parser.Options{Kinds: analyzer.Kinds})
	var out []seedTarget
	var walk func(ds []*parser.Directive, stack []string)
	walk = func(ds []*parser.Directive, stack []string) {
		for _, d := range ds {
			out = append(out, seedTarget{d, stack})
			if d.Block != nil {
				walk(d.Block.Directives, append(append([]string(nil), stack...), d.Name().Value))
			}
		}
	}
	walk(f.Directives, root)
	return out
}

// rootStack returns the enclosing blocks of a seed file's top level.
func rootStack(sd seed, file string) []string {
	switch sd.mutable[file] {
	case 0, 1: // directives.Main
		return nil
	}
	switch file {
	case "conf.d/site.conf":
		return []string{"http"}
	case "snippets/server.conf":
		return []string{"http", "server"}
	case "snippets/location.conf":
		return []string{"http", "server", "location"}
	}
	return nil
}

// argsRange is the text of d's arguments.
func argsRange(d *parser.Directive) (int32, int32) {
	return d.Args()[0].Range.Start, d.Args()[len(d.Args())-1].Range.End
}

// mutateValues makes the value mutants of one seed file.
func mutateValues(r *rand.Rand, sd seed, file string) []paramMutant {
	src := sd.files[file]
	var out []paramMutant
	add := func(start, end int32, text, how string) {
		out = append(out, paramMutant{seed: sd, file: file, src: src[:start] + text + src[end:], how: how})
	}
	pick := func(list []string) string { return list[r.IntN(len(list))] }
	for _, st := range targets(src, rootStack(sd, file)) {
		d := st.d
		name := d.Name().Value
		if st.stream() {
			mutateStream(r, st, add)
			continue
		}
		if name == "stream" && d.LBrace() >= 0 {
			at := d.LBrace() + 1
			add(at, at, " upstream lint_empty { }", "stream empty upstream")
			add(at, at, " upstream lint_spare { server 127.0.0.1:9009 backup; }", "stream backup-only upstream")
			for i := range 2 {
				g := pick(geoEntries)
				add(at, at, fmt.Sprintf(" geo $remote_addr $lint_geo_%d { %s }", i, g), "stream geo { "+g+" }")
				m := pick(mapEntries)
				add(at, at, fmt.Sprintf(" map $remote_addr $lint_map_%d { %s }", i, m), "stream map { "+m+" }")
				sc := pick(splitEntries)
				add(at, at, fmt.Sprintf(" split_clients $remote_addr $lint_sc_%d { %s }", i, sc), "stream split_clients { "+sc+" }")
			}
			for _, z := range []string{"zone=lintz:1m", "zone=lintz:16k", "zone=lintz", "rate=1r/s"} {
				add(at, at, " limit_conn_zone $binary_remote_addr "+z+";", "stream limit_conn_zone "+z)
			}
			continue
		}
		if !st.http() && name != "http" {
			continue
		}
		switch {
		case name == "listen" && st.in("server") && len(d.Args()) > 0:
			end := d.Args()[len(d.Args())-1].Range.End
			for range 3 {
				v := pick(listenParams)
				add(end, end, " "+v, "listen ... "+v)
			}
			v := pick(listenAddrs)
			add(d.Args()[0].Range.Start, d.Args()[0].Range.End, v, "listen "+v)
		case name == "server" && st.in("upstream") && len(d.Args()) > 0:
			end := d.Args()[len(d.Args())-1].Range.End
			for range 2 {
				v := pick(serverParams)
				add(end, end, " "+v, "server ... "+v)
			}
			v := pick(serverAddrs)
			add(d.Args()[0].Range.Start, d.Args()[0].Range.End, v, "server "+v)
		case name == "proxy_pass" && len(d.Args()) == 1:
			for range 2 {
				v := pick(proxyURLs)
				add(d.Args()[0].Range.Start, d.Args()[0].Range.End, v, "proxy_pass "+v)
			}
		case name == "location" && d.Block != nil && d.LBrace() >= 0:
			at := d.LBrace() + 1
			ps := pick(passNames)
			u := pick(upstreamURLs)
			add(at, at, " "+ps+" "+u+";", ps+" "+u)
			v := pick(proxyURLs)
			add(at, at, " proxy_pass "+v+";", "proxy_pass "+v+" in "+d.Args()[len(d.Args())-1].Value)
			c := pick(conditions)
			add(at, at, " if "+c+" { }", "if "+c)
			if l, err := grammar.ParseLocation(d.ArgValues()); err == nil {
				sub := "location " + l.Path + "sub { }"
				if r.IntN(2) == 0 {
					sub = pick(nestedLocations)
				}
				add(at, at, " "+sub, sub+" in "+l.Path)
			}
			lx := " limit_except GET { proxy_pass " + pick(proxyURLs) + "; }"
			add(at, at, lx, strings.TrimSpace(lx))
		case name == "return" && len(d.Args()) > 0:
			s, e := argsRange(d)
			v := pick(returns)
			add(s, e, v, "return "+v)
		case name == "error_page" && len(d.Args()) > 1:
			s, e := argsRange(d)
			v := pick(errorPages)
			add(s, e, v, "error_page "+v)
		case name == "rewrite" && len(d.Args()) > 1:
			s, e := argsRange(d)
			v := pick(rewrites)
			add(s, e, v, "rewrite "+v)
		case name == "add_header" && len(d.Args()) > 1:
			s, e := argsRange(d)
			v := pick(addHeaders)
			add(s, e, v, "add_header "+v)
		case name == "if" && len(d.Args()) > 0:
			s, e := argsRange(d)
			v := pick(conditions)
			add(s, e, v, "if "+v)
		case name == "server" && st.in("http") && d.LBrace() >= 0:
			at := d.LBrace() + 1
			c := pick(conditions)
			add(at, at, " if "+c+" { }", "if "+c+" in server")
			v := pick(returns)
			add(at, at, " location /lintret { return "+v+"; }", "return "+v)
			v = pick(errorPages)
			add(at, at, " error_page "+v+";", "error_page "+v)
			v = pick(rewrites)
			add(at, at, " rewrite "+v+";", "rewrite "+v)
			v = pick(resolvers)
			add(at, at, " resolver "+v+";", "resolver "+v)
		case name == "http" && d.LBrace() >= 0:
			at := d.LBrace() + 1
			for i := range 2 {
				g := pick(geoEntries)
				add(at, at, fmt.Sprintf(" geo $remote_addr $lint_geo_%d { %s }", i, g), "geo { "+g+" }")
				m := pick(mapEntries)
				add(at, at, fmt.Sprintf(" map $uri $lint_map_%d { %s }", i, m), "map { "+m+" }")
				s := pick(splitEntries)
				add(at, at, fmt.Sprintf(" split_clients $remote_addr $lint_sc_%d { %s }", i, s), "split_clients { "+s+" }")
			}
			for i := range 2 {
				z := strings.ReplaceAll(pick(zoneDefs), "ZONE", fmt.Sprintf("lintzone%d", i))
				add(at, at, " "+z+";", z)
			}
			add(at, at, " upstream lint_empty { }", "empty upstream")
			add(at, at, " upstream lint_one { keepalive 2; server 127.0.0.1:9009; }", "upstream with a server")
			v := pick(serverParams)
			add(at, at, " upstream lint_hash { hash $uri; server 127.0.0.1:9009 "+v+"; }", "hash, server "+v)
			add(at, at, " upstream lintbackend { server 127.0.0.1:9009; }", "upstream lintbackend")
		}
	}
	return out
}

// mutateStream makes the mutants of a directive in stream or mail.
func mutateStream(r *rand.Rand, st seedTarget, add func(start, end int32, text, how string)) {
	d := st.d
	pick := func(list []string) string { return list[r.IntN(len(list))] }
	switch {
	case d.Name().Value == "listen" && st.in("server") && len(d.Args()) > 0:
		end := d.Args()[len(d.Args())-1].Range.End
		for range 6 {
			v := pick(listenParams)
			add(end, end, " "+v, st.stack[0]+" listen ... "+v)
		}
		v := pick(listenAddrs)
		add(d.Args()[0].Range.Start, d.Args()[0].Range.End, v, st.stack[0]+" listen "+v)
	case d.Name().Value == "server" && st.in("upstream") && len(d.Args()) > 0:
		end := d.Args()[len(d.Args())-1].Range.End
		for range 4 {
			v := pick(serverParams)
			add(end, end, " "+v, "stream server ... "+v)
		}
		v := pick(serverAddrs)
		add(d.Args()[0].Range.Start, d.Args()[0].Range.End, v, "stream server "+v)
	case d.Name().Value == "proxy_pass" && len(d.Args()) == 1:
		for range 3 {
			v := pick(upstreamURLs)
			add(d.Args()[0].Range.Start, d.Args()[0].Range.End, v, "stream proxy_pass "+v)
		}
	}
}

// TestNginxParityValues is the differential test of the value
// validators against the real nginx (see the comment at the top).
func TestNginxParityParameters(t *testing.T) {
	if testing.Short() {
		t.Skip("runs nginx a few thousand times")
	}
	nginx := nginxtest.Require(t)
	// The built-in seeds alone cannot reach the floors below: the corpus
	// configs carry the volume (skipped without it, unless CI=true).
	corpustest.Root(t)
	seeds := paritySeeds(t)
	r := rand.New(rand.NewPCG(8, 2026))
	// A sample of the corpus seeds keeps the run near a minute.
	r.Shuffle(len(seeds)-2, func(i, j int) { seeds[i+2], seeds[j+2] = seeds[j+2], seeds[i+2] })
	if len(seeds) > 70 {
		seeds = seeds[:70]
	}
	stream := true
	for _, m := range streamModules {
		if _, err := os.Stat(m); err != nil {
			stream = false
		}
	}
	switch {
	case stream:
		// Three times: the seed is small and stream and mail have only it.
		for range 3 {
			seeds = append(seeds, seed{files: map[string]string{"nginx.conf": streamSeed},
				mutable: map[string]directives.Context{"nginx.conf": directives.Main}})
		}
	case os.Getenv("CI") != "":
		t.Fatalf("the stream and mail modules are missing (%v): .ci/run installs libnginx-mod-stream and libnginx-mod-mail", streamModules)
	default:
		t.Logf("stream and mail modules missing (%v): their forms are not compared", streamModules)
	}
	var muts []paramMutant
	for _, sd := range seeds {
		files := make([]string, 0, len(sd.mutable))
		for f := range sd.mutable {
			files = append(files, f)
		}
		sort.Strings(files)
		for _, f := range files {
			muts = append(muts, mutateValues(r, sd, f)...)
		}
	}
	// An upstream named like the implicit one the *_pass mutants create
	// (lintbackend) changes their meaning; both forms occur.
	paths := make([]string, len(muts))
	for i, m := range muts {
		paths[i] = writeMutant(t, m.seed, mutant{file: m.file, src: m.src})
	}
	counts := map[string]int{}
	directiveNames := map[string]bool{}
	others := map[string]int{}
	for i, run := range runAll(context.Background(), nginx, paths) {
		m := muts[i]
		if errors.Is(run.err, nginxtest.ErrNotLoopback) {
			counts["skipped: not loopback-only"]++
			continue
		}
		if run.err != nil {
			t.Fatalf("%s: %v", m.how, run.err)
		}
		directiveNames[strings.Fields(m.how)[0]] = true
		if strings.HasPrefix(m.how, "stream ") || strings.HasPrefix(m.how, "mail ") {
			counts["  of which: stream or mail"]++
		}
		l := parityLint(t, run.path)
		errs := run.res.Errors()
		if len(errs) == 0 {
			counts["nginx accepted the mutant"]++
			for _, d := range l.findings {
				if valueRules[d.Name] && d.Severity == parser.Error {
					t.Errorf("%s in %s: nginx accepts it, but %v [%s]\n%s", m.how, m.file, d, d.Name, numberedLines(m.src))
				}
			}
			continue
		}
		vr := valueRule(errs[0].Text)
		if strings.HasPrefix(m.how, "error_page") && strings.HasPrefix(errs[0].Text, "invalid value ") {
			// error_page words its errors like the generic handlers.
			vr = "invalid-status"
		}
		if strings.Contains(m.how, "_zone ") || strings.Contains(m.how, "_cache_path ") {
			if strings.HasPrefix(errs[0].Text, "invalid parameter ") {
				vr = "invalid-zone"
			}
		}
		if vr == "" || errs[0].Line == 0 {
			counts["other first error"]++
			others[strings.SplitN(errs[0].Text, `"`, 2)[0]]++
			continue
		}
		counts[vr]++
		if m.file != "nginx.conf" {
			counts["  of which: in an included file"]++
		}
		if !l.reports(vr, errs[0]) {
			t.Errorf("%s in %s: nginx: %s; no %s finding at that line\n%s", m.how, m.file, errs[0], vr, numberedLines(m.src))
		} else if !l.saysExactly(vr, errs[0]) {
			t.Errorf("%s in %s: nginx says %q; our %s finding there words it otherwise", m.how, m.file, errs[0].Text, vr)
		} else {
			counts["  of which: worded exactly as nginx"]++
		}
	}
	logCounts(t, "other first errors", others)
	t.Logf("directives mutated: %d", len(directiveNames))
	logCounts(t, fmt.Sprintf("value mutants (%d seeds, %d mutants)", len(seeds), len(muts)), counts)
	for rule := range valueRules {
		if counts[rule] < 10 {
			t.Errorf("only %d mutants made nginx report what %s checks", counts[rule], rule)
		}
	}
	if counts["nginx accepted the mutant"] < 200 {
		t.Errorf("only %d mutants were accepted by nginx", counts["nginx accepted the mutant"])
	}
}

// saysExactly reports whether a finding of rule at nginx's line has
// nginx's message text.
func (l *linted) saysExactly(rule string, m nginxtest.Message) bool {
	for _, d := range l.findings {
		if d.Name == rule && d.Severity == parser.Error && samePath(d.FilePath(), m.File) && d.Message == m.Text {
			return true
		}
	}
	return false
}

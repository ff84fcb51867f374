//go:build unix

package routing_test

import (
	"fmt"
	"math/rand/v2"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// response is what nginx answered one probe.
type response struct {
	status   int
	location string
	body     string
}

// send writes one raw HTTP request to addr (the target as given,
// undecoded) and reads the response.
func send(method, addr, host, target string, headers ...routing.Header) (response, error) {
	var hs []string
	for _, h := range headers {
		hs = append(hs, h.Name+": "+h.Value)
	}
	r, err := nginxtest.SendMethod(method, addr, host, target, hs...)
	return response{r.Status, r.Location, r.Body}, err
}

// expected is what the model says nginx answers: the status, and for a
// 200 the body (a return's text, or a static file's content), for a
// redirect the Location.
// comparable leaves out of nginx's answer and the model's what the
// model does not predict: the body of a HEAD response, nginx's own pages
// (an error, an autoindex listing) and the body of any status but 200.
func comparable(method string, a *routing.Answer, got, want response) (response, response) {
	if method == "HEAD" {
		want.body = ""
	}
	if got.status != 200 || a.Handler.Kind == routing.HandlerAutoindex {
		got.body = ""
	}
	if want.status != 200 {
		want.body = ""
	}
	return got, want
}

func expected(a *routing.Answer) (response, bool) {
	r := response{status: a.Status}
	switch a.Handler.Kind {
	case routing.HandlerUnknown:
		return r, false
	case routing.HandlerRedirect:
		r.location = a.Handler.Target
	case routing.HandlerReturn:
		r.body = a.Handler.Target
		r.location = a.LocationHeader
	case routing.HandlerError:
		r.location = a.LocationHeader
	case routing.HandlerStatic:
		r.location = a.LocationHeader
		b, err := os.ReadFile(a.Handler.Target)
		if err != nil {
			return r, false
		}
		r.body = string(b)
	case routing.HandlerProxy:
		// The tests proxy to a closed port.
		if r.status == 0 {
			r.status = 502
		}
	}
	return r, true
}

// routeCase is one configuration started once and probed many times.
type routeCase struct {
	conf   string
	hosts  []string
	probes []string
	// headers, when set, are sent with every probe in turn (nil: none).
	headers [][]routing.Header
	// methods are the methods of every probe (nil: GET).
	methods []string
	// addrs are the loopback addresses every probe is sent to (nil:
	// 127.0.0.1).
	addrs []netip.Addr
}

// runCase starts nginx on c and requires every probe's answer to be
// the model's. It returns the number of probes compared.
func runCase(t *testing.T, ngx string, c routeCase, port int) int {
	t.Helper()
	m, stop := startNginx(t, ngx, t.TempDir(), "nginx.conf", c.conf)
	defer stop()
	addrs := c.addrs
	if addrs == nil {
		addrs = []netip.Addr{netip.MustParseAddr("127.0.0.1")}
	}
	compared, failed, skipped := 0, 0, 0
	hsets := c.headers
	if hsets == nil {
		hsets = [][]routing.Header{nil}
	}
	methods := c.methods
	if methods == nil {
		methods = []string{"GET"}
	}
	for _, local := range addrs {
		addr := netip.AddrPortFrom(local, uint16(port))
		for _, h := range c.hosts {
			for _, target := range c.probes {
				for _, hs := range hsets {
					for _, method := range methods {
						req := routing.HTTPRequest{Request: routing.Request{Addr: addr.Addr(), Port: port, Host: h, NoHost: h == ""},
							Target: target, Remote: netip.MustParseAddr("127.0.0.1"), Headers: hs, Method: method}
						a := m.Route(req)
						want, ok := expected(a)
						if !ok {
							skipped++
							if skipped <= 3 {
								t.Logf("unsure: Host %q, %q: %v", h, target, a.Unsure)
							}
							continue
						}
						got, err := send(method, addr.String(), h, target, hs...)
						if err != nil {
							t.Fatalf("%s %q: %v", h, target, err)
						}
						got, want = comparable(method, a, got, want)
						compared++
						if got != want {
							failed++
							if failed <= 10 {
								t.Errorf("%s %s, Host %q, %q %v: nginx %+v, the model %+v (%s; location %v, steps %d, unsure %v)",
									method, addr, h, target, hs, got, want, a.Describe(), a.Location, len(a.Steps), a.Unsure)
							}
						}
					}
				}
			}
		}
	}
	if failed > 0 {
		t.Logf("%d of %d probes differ; configuration:\n%s", failed, compared, c.conf)
	}
	if skipped > compared/10 {
		t.Errorf("the model is unsure of %d probes, and answers %d", skipped, compared)
	}
	return compared
}

// publicDir is a temporary directory nginx's workers can read: run as
// root, nginx switches them to nobody, and t.TempDir's 0700 would make
// every file a 403.
func publicDir(t *testing.T) string {
	d := t.TempDir()
	for _, p := range []string{filepath.Dir(d), d} {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

// head is the start of every test configuration: loopback only, its
// own logs and temp paths, relative redirects.
func head(extra string) string {
	return "worker_processes 1;\nerror_log error.log;\npid nginx.pid;\nevents {}\nhttp {\n    access_log off;\n" +
		"    client_body_temp_path cb; proxy_temp_path pt; fastcgi_temp_path ft; uwsgi_temp_path ut; scgi_temp_path st;\n" +
		"    absolute_redirect off;\n" + extra
}

// A generated location tree.
type genLoc struct {
	mod, path string
	id        string
	children  []*genLoc
	proxy     bool
}

var (
	prefixPaths = []string{"/", "/a", "/a/", "/ab", "/a/b", "/a/b/", "/b", "/b/c", "/a.b", "/A", "/a/b/c", "/%61", "/\xc3\xa9", "/a-", "/a/bc"}
	exactPaths  = []string{"/", "/a", "/a/", "/a/b", "/ab", "/b/c", "/x.php", "/a.b", "/A"}
	regexPaths  = []string{`^/a`, `^/a/b$`, `\.php$`, `/b`, `^/(a|b)/c`, `^/A/`, `\.(gif|jpg)$`, `^/a/b/\.`, `^/[^/]+$`, `c$`,
		`^/(?<first>[a-z]+)/`, `\xc3`, `^/a[.]b`, `%`, `^/a\+`, `[?#]`}
)

// genTree draws the locations of one level; parent is the path that
// nested prefix locations must start with ("" at the server level).
func genTree(r *rand.Rand, parent string, depth int, next *int) []*genLoc {
	var out []*genLoc
	seen := map[string]bool{}
	n := 1 + r.IntN(6)
	if depth > 0 {
		n = r.IntN(4)
	}
	for range n {
		l := &genLoc{}
		switch k := r.IntN(10); {
		case k < 4:
			l.path = prefixPaths[r.IntN(len(prefixPaths))]
			if r.IntN(4) == 0 {
				l.mod = "^~"
			}
		case k < 6:
			l.mod, l.path = "=", exactPaths[r.IntN(len(exactPaths))]
		default:
			l.mod, l.path = "~", regexPaths[r.IntN(len(regexPaths))]
			if r.IntN(3) == 0 {
				l.mod = "~*"
			}
		}
		if l.mod != "~" && l.mod != "~*" && !strings.HasPrefix(l.path, parent) {
			continue
		}
		key := l.path
		if l.mod == "=" {
			key = "=" + key
		}
		if l.mod == "~" || l.mod == "~*" {
			key = l.mod + key + strconv.Itoa(*next)
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		*next++
		l.id = "L" + strconv.Itoa(*next)
		if l.mod != "=" && depth < 2 && l.mod != "~" && l.mod != "~*" {
			l.children = genTree(r, l.path, depth+1, next)
		}
		if l.mod != "~" && l.mod != "~*" && strings.HasSuffix(l.path, "/") && len(l.children) == 0 && r.IntN(4) == 0 {
			l.proxy = true
		}
		out = append(out, l)
	}
	return out
}

func writeLocs(b *strings.Builder, locs []*genLoc, indent string) {
	for _, l := range locs {
		m := l.mod
		if m != "" {
			m += " "
		}
		fmt.Fprintf(b, "%slocation %s%q {\n", indent, m, l.path)
		if l.proxy {
			fmt.Fprintf(b, "%s    proxy_pass http://127.0.0.1:1;\n", indent)
		} else {
			fmt.Fprintf(b, "%s    return 200 \"%s\";\n", indent, l.id)
		}
		writeLocs(b, l.children, indent+"    ")
		fmt.Fprintf(b, "%s}\n", indent)
	}
}

// probeTargets are raw request targets, normalized or not.
var probeTargets = []string{"/", "/a", "/a/", "/ab", "/a/b", "/a/b/", "/a/b/c", "/b", "/b/c", "/A", "/A/B", "/a.b", "/x.php", "/X.PHP",
	"//a", "/a//b", "///", "/a/./b", "/a/../b", "/a/b/..", "/a/b/../", "/a/.", "/a.", "/a..", "/..", "/../a", "/a/%2e%2e/b", "/%2e%2e",
	"/%61", "/%2561", "/a%2Fb", "/a%2fb/c", "/%2F%2Fa", "/a?x=1", "/a?", "/a#frag", "/a%23b", "/a%3Fb", "/a%3fb?c=d",
	"/a%00", "/a%zz", "/a%2", "/a+b", "/a%2Bb", "/\xc3\xa9", "/%C3%A9", "/%c3%a9/x", "/a/b.gif", "/b/x.JPG", "/a-b", "/a/bc",
	"/a/b/.x", "/a%20b", "/a/./../a/b", "/a/b/%2e/c", "/a/%2e/", "/a.b/c", "/%41/", "/a%2F..%2Fb"}

func moreTargets(r *rand.Rand, n int) []string {
	segs := []string{"a", "b", "c", "ab", "A", "a.b", "x.php", "X.PHP", "\xc3\xa9", "%61", "%2F", "%2e", "%2E%2E", ".", "..", "", "b.gif", "bc", "a+"}
	var out []string
	for range n {
		var b strings.Builder
		if r.IntN(5) == 0 {
			b.WriteString("/")
		}
		for range 1 + r.IntN(4) {
			b.WriteString("/" + segs[r.IntN(len(segs))])
		}
		switch r.IntN(6) {
		case 0:
			b.WriteString("/")
		case 1:
			b.WriteString("?q=1")
		}
		out = append(out, b.String())
	}
	return out
}

// seedOf is the seed of a randomized test: a fixed one, so that a run
// of go test answers as the last one did; ROUTING_SEED=N repeats seed N
// and ROUTING_SEED=random draws a new one (printed, to repeat it).
func seedOf(t *testing.T) uint64 {
	seed := uint64(20261205)
	switch s := os.Getenv("ROUTING_SEED"); s {
	case "":
	case "random":
		seed = uint64(time.Now().UnixNano())
	default:
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("seed %d (ROUTING_SEED repeats it; ROUTING_SEED=random draws another)", seed)
	return seed
}

// TestLocationsAgainstNginx is the property test of the location
// search: random location trees (exact, prefix, ^~, regexes, nested,
// proxied prefixes that redirect the URI without their slash) in a few
// servers, every location answering with its own id, probed with
// normalized and raw targets; the model's answer is nginx's on every
// probe.
func TestLocationsAgainstNginx(t *testing.T) {
	ngx := nginxtest.Require(t)
	rng := rand.New(rand.NewPCG(seedOf(t), 2))
	total := 0
	for round := range 16 {
		port := freePort(t)
		var b strings.Builder
		b.WriteString(head(""))
		root := publicDir(t)
		next := 0
		var hosts []string
		for s := range 1 + rng.IntN(3) {
			name := fmt.Sprintf("s%d.example", s)
			hosts = append(hosts, name)
			fmt.Fprintf(&b, "server {\n    listen 127.0.0.1:%d;\n    server_name %s;\n    root %s;\n", port, name, root)
			if s == 0 && round%3 == 1 {
				b.WriteString("    merge_slashes off;\n")
			}
			writeLocs(&b, genTree(rng, "", 0, &next), "    ")
			b.WriteString("}\n")
		}
		b.WriteString("}\n")
		hosts = append(hosts, "other.example", "")
		c := routeCase{conf: b.String(), hosts: hosts, probes: append(probeTargets, moreTargets(rng, 60)...)}
		total += runCase(t, ngx, c, port)
		if t.Failed() {
			break
		}
	}
	t.Logf("%d probes agree with nginx", total)
}

// siteFiles are the files of the redirect tests' document root; each
// holds "F:" and its own path.
var siteFiles = []string{"/index.html", "/d/index.html", "/d/x.txt", "/f.txt", "/a/b.txt", "/leaf0/f.txt", "/r1/f.txt", "/r2/index.html", "/e/.keep"}

func makeSite(t *testing.T) string {
	root := publicDir(t)
	for _, f := range siteFiles {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("F:"+f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// genRedirects draws a server of "router" locations that send requests
// on (rewrite with every flag, try_files, error_page to named and URI
// targets, index, alias, if and set, return) to each other and to
// "leaf" locations that answer with their id, $uri and $args.
func genRedirects(r *rand.Rand, root string) string {
	const routers, leaves, named = 8, 3, 2
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	dest := func() string {
		switch r.IntN(4) {
		case 0:
			return fmt.Sprintf("/r%d", r.IntN(routers))
		case 1:
			return pick("/d", "/d/", "/f.txt", "/e/", "/nope")
		}
		return fmt.Sprintf("/leaf%d", r.IntN(leaves))
	}
	var b strings.Builder
	if r.IntN(2) == 0 {
		fmt.Fprintf(&b, "    rewrite ^/s(/.*)$ %s$1;\n", dest())
	}
	if r.IntN(3) == 0 {
		b.WriteString("    if ($arg_srv) { return 200 \"server-if $arg_srv\"; }\n")
	}
	if r.IntN(3) == 0 {
		fmt.Fprintf(&b, "    error_page 404 %s;\n", pick("/leaf0/404", "@n0", "=200 /leaf1/e"))
	}
	for i := range leaves {
		fmt.Fprintf(&b, "    location /leaf%d { return 200 \"leaf%d $uri $args\"; }\n", i, i)
	}
	for i := range named {
		fmt.Fprintf(&b, "    location @n%d { return 200 \"n%d $uri $args $status\"; }\n", i, i)
	}
	// A named location that sends the request on.
	fmt.Fprintf(&b, "    location @rw { rewrite ^(.*)$ %s$1 %s; return 200 \"rw $uri\"; }\n", dest(), pick("last", "break", ""))
	for i := range routers {
		fmt.Fprintf(&b, "    location /r%d {\n", i)
		switch r.IntN(10) {
		case 0:
			repl := dest() + "$1"
			switch r.IntN(4) {
			case 0:
				repl += "?from=r$1"
			case 1:
				repl += "?"
			}
			fmt.Fprintf(&b, "        rewrite ^/r%d(.*)$ %s %s;\n", i, repl, pick("", "last", "break", "redirect", "permanent"))
			if r.IntN(2) == 0 {
				fmt.Fprintf(&b, "        return 200 \"after-rewrite r%d $uri $args\";\n", i)
			}
		case 1:
			fmt.Fprintf(&b, "        try_files $uri $uri/ %s;\n", pick(fmt.Sprintf("/leaf%d$uri", r.IntN(leaves)), "@n1", "=404", dest()+"?t=1", "/r0/x"))
		case 2:
			fmt.Fprintf(&b, "        error_page 404 %s %s;\n", pick("", "=", "=200", "=302"), pick("@n0", "/leaf2/ep?e=1", "/f.txt", "http://example.com/x", "/nope"))
			if r.IntN(2) == 0 {
				b.WriteString("        return 404;\n")
			}
		case 3:
			fmt.Fprintf(&b, "        index %s;\n", pick("nothere.html index.html", "x.txt", "/leaf1/idx", "index.html"))
			if r.IntN(2) == 0 {
				fmt.Fprintf(&b, "        alias %s/d/;\n", root)
			}
		case 4:
			fmt.Fprintf(&b, "        set $v \"r%d:$uri\";\n        if ($arg_v) { rewrite ^ %s last; }\n        if ($arg_w ~ \"^(?<word>[a-z]+)(\\d*)$\") { return 200 \"$v $word $2\"; }\n        return 200 \"$v $arg_v\";\n", i, dest())
		case 5:
			fmt.Fprintf(&b, "        return %s;\n", pick("301 /leaf0$request_uri", "302 http://example.com$uri", "307 $scheme://$host/x", "200 \"$host $server_port $is_args$args\"", "404", "403 \"no\""))
		case 6:
			// A loop when both point at each other.
			fmt.Fprintf(&b, "        rewrite ^ /r%d%s last;\n", r.IntN(routers), pick("", "/x"))
		case 7:
			// error_page chains through routers, once or recursively.
			if r.IntN(2) == 0 {
				b.WriteString("        recursive_error_pages on;\n")
			}
			fmt.Fprintf(&b, "        error_page 404 %s %s;\n        return 404;\n", pick("", "=", "=200"), dest())
		case 8:
			fmt.Fprintf(&b, "        try_files %s @rw;\n", pick("/nope", "$uri", "/d/ $uri.txt"))
		case 9:
			fmt.Fprintf(&b, "        error_page %s %s @n%d;\n        return %s;\n", pick("404", "302", "404 302"), pick("", "=", "=200"),
				r.IntN(named), pick("404", "302 /x", "200 \"r$status\""))
		}
		b.WriteString("    }\n")
	}
	return b.String()
}

// TestRedirectsAgainstNginx is the property test of the rewrite phase
// and internal redirects: random servers whose locations send requests
// to each other (rewrite last, break, redirect, permanent and none;
// try_files with and without a file; error_page to a named location, a
// URI and a URL; index; alias; if and set; return; cycles), probed on a
// document root with files; the model's status, body and Location are
// nginx's on every probe.
func TestRedirectsAgainstNginx(t *testing.T) {
	ngx := nginxtest.Require(t)
	rng := rand.New(rand.NewPCG(seedOf(t), 3))
	root := makeSite(t)
	targets := []string{"/", "/d", "/d/", "/e/", "/f.txt", "/nope", "/a/", "/leaf0/x", "/leaf1?q=1", "/s/leaf0", "/s/d/", "/?srv=1",
		"/leaf2/%20?x=%20", "/index.html"}
	for i := range 8 {
		for _, s := range []string{"", "/", "/x", "/d/", "/f.txt", "/index.html", "?v=1", "?w=abc12", "?w=Abc", "/a%20b?v=2&x=y", "/a+b", "/%2e%2e/f.txt", "?srv=q"} {
			targets = append(targets, fmt.Sprintf("/r%d%s", i, s))
		}
	}
	total := 0
	for range 20 {
		port := freePort(t)
		conf := head("") + fmt.Sprintf("server {\n    listen 127.0.0.1:%d;\n    server_name r.example;\n    root %s;\n", port, root) +
			genRedirects(rng, root) + "}\n}\n"
		total += runCase(t, ngx, routeCase{conf: conf, hosts: []string{"r.example"}, probes: targets}, port)
		if t.Failed() {
			break
		}
	}
	t.Logf("%d probes agree with nginx", total)
}

// featuresConf exercises what the random tests do not draw: maps (exact
// without case, hostnames, regexes with captures, default), allow and
// deny, internal locations, if's file tests, autoindex, header and
// cookie variables, alias with try_files, an absolute index, a named
// location that does not exist, recursive_error_pages.
const featuresConf = `
    map $http_x_kind $kind { default none; Alpha a; ~^b(?<bnum>\d+)$ b$bnum; ~*^C c; }
    map $host $hostkind { hostnames; default other; .f.example f; *.sub.example sub; www.x.* wx; }
    map $arg_m $mapped { "" empty; 1 one; }
    server {
        listen 127.0.0.1:PORT;
        server_name f.example www.sub.example www.x.org;
        root ROOT;
        location /map { return 200 "$kind $bnum $hostkind $mapped"; }
        location /deny { deny 127.0.0.1; allow all; return 200 "denied?"; }
        location /allow { allow 127.0.0.0/8; deny all; return 200 "allowed"; }
        location /int { internal; return 200 "internal"; }
        location /toint { rewrite ^ /int last; }
        location /ftest {
            if (-f $document_root/f.txt) { return 200 "f"; }
            return 200 "no f";
        }
        location /dtest { if (!-d $request_filename) { return 200 "not dir $request_filename"; } return 200 "dir"; }
        location /etest { if (-e $document_root$arg_p) { return 200 "exists $arg_p"; } return 404; }
        location /d/ { autoindex on; if ($arg_r) { root ROOT/nope; } }
        location ~ ^/rxa/(.*)$ { alias ROOT/d/$1; }
        location /tif { if ($arg_t) { set $x 1; } try_files /nope /leaf-m; }
        location /e/ { autoindex on; }
        location /hdr { return 200 "$http_x_kind|$http_user_agent|$cookie_sid|$cookie_other|$http_cookie"; }
        location /al/ { alias ROOT/d/; try_files $uri $uri/ =404; }
        location /ali/ { alias ROOT/d/; index nothere.html /absolute-index; }
        location /absolute-index { return 200 "abs $uri $args"; }
        location /nonamed { try_files /nothere @missing; }
        location /rec { recursive_error_pages on; error_page 404 /rec2; return 404; }
        location /rec2 { error_page 404 @n; return 404; }
        location @n { return 200 "named after $uri"; }
        location /eq { if ($arg_a = $arg_b) { return 200 "eq"; } if ($arg_a != "") { return 200 "ne $arg_a"; } return 200 "empty"; }
        location /re { if ($uri ~* ^/RE/(\w+)) { return 200 "re $1"; } if ($args !~ x) { return 200 "no x $1"; } return 200 "x"; }
        location /st { set $a "$uri$is_args$args"; set $b $a-$a; return 200 "$b"; }
        location /lx/ { limit_except GET { deny all; } alias ROOT/d/; }
        location /lp/ { limit_except POST PUT { allow 127.0.0.1; deny all; } alias ROOT/d/; }
        location /m/ { alias ROOT/d/; error_page 405 = /leaf-m; }
        location /leaf-m { return 200 "m $request_method $uri"; }
    }
    server {
        listen 127.0.0.1:PORT;
        server_name ~^(?<sub>[a-z]+)\.(rx)\.example$;
        location / { return 200 "rx $sub $2 $host $server_name"; }
        location ~ ^/(?<p>[a-z]+)/ { return 200 "rx $sub $1 $p"; }
    }
`

// TestFeaturesAgainstNginx probes featuresConf with headers and
// cookies; the model answers as nginx on every probe.
func TestFeaturesAgainstNginx(t *testing.T) {
	ngx := nginxtest.Require(t)
	root := makeSite(t)
	port := freePort(t)
	conf := head("") + strings.NewReplacer("PORT", strconv.Itoa(port), "ROOT", root).Replace(featuresConf) + "}\n"
	probes := []string{"/map", "/map?m=1", "/map?m=2", "/deny", "/allow", "/int", "/toint", "/ftest", "/dtest", "/dtest/d", "/d",
		"/etest?p=/f.txt", "/etest?p=/nope", "/etest?p=/d", "/d/", "/e/", "/e/nope/", "/hdr", "/al/x.txt", "/al/", "/al/nope", "/ali/",
		"/nonamed", "/rec", "/eq?a=1&b=1", "/eq?a=1&b=2", "/eq", "/eq?A=1&b=1", "/re/Abc", "/RE/x?y", "/re?x", "/st?q=1", "/st",
		"/lx/x.txt", "/lx/", "/lp/x.txt", "/m/x.txt", "/m/", "/m/nope", "/d/x.txt?r=1", "/d/?r=1", "/rxa/x.txt", "/rxa/nope",
		"/rxa/", "/tif", "/tif?t=1", "/ab/c"}
	headers := [][]routing.Header{nil,
		{{Name: "X-Kind", Value: "ALPHA"}, {Name: "User-Agent", Value: "t/1"}, {Name: "Cookie", Value: "sid=42; other = x y"}},
		{{Name: "X-Kind", Value: "b12"}, {Name: "Cookie", Value: "a=1"}, {Name: "Cookie", Value: "SID=7"}},
		{{Name: "X-Kind", Value: "cat"}, {Name: "X_Kind", Value: "underscore"}},
	}
	hosts := []string{"f.example", "a.f.example", "www.sub.example", "www.x.org", "", "abc.rx.example", "ABC.RX.EXAMPLE."}
	n := runCase(t, ngx, routeCase{conf: conf, hosts: hosts, probes: probes, headers: headers, methods: []string{"GET", "HEAD", "POST", "PUT", "DELETE"}}, port)
	t.Logf("%d probes agree with nginx", n)
}

// TestCaselessHighBytesAgainstNginx compares ~* regexes naming bytes
// above 0x7f: nginx's PCRE folds ASCII letters only (0xC3 is not 0xE3),
// and a capture holds the subject's bytes; so does a ~ regex with an
// inline (?i), and a general category (\p{L}) is the bytes whose code
// points have it.
func TestCaselessHighBytesAgainstNginx(t *testing.T) {
	ngx := nginxtest.Require(t)
	port := freePort(t)
	regexes := []string{`^/1/\xc3`, `^/2/[\x7b-\xff]$`, `^/3/[^a\xc3]$`, `^/4/(\xc3)(.)$`, `^/5/[\xc0-\xde]`,
		`^/6/.\xe9$`, "^/7/\xc3a", `^/8/\x{e3}(?<rest>.*)`,
		`~^/9/(?i)\xc3(a)`, `~^/10/a(?i:\xe3(s))`, `^/11/(\p{L})\xc3`, `^/12/([\p{L}0]+)$`, `~^/13/(\PL)(?i)k`,
		`~^/14/(?i)([^\p{Nd}\xe9])`}
	var b strings.Builder
	b.WriteString(head(""))
	fmt.Fprintf(&b, "server {\n    listen 127.0.0.1:%d;\n    server_name h.example;\n", port)
	b.WriteString("    location / { return 200 \"none\"; }\n")
	for i, re := range regexes {
		mod := "~*"
		if strings.HasPrefix(re, "~") {
			mod, re = "~", re[1:]
		}
		fmt.Fprintf(&b, "    location %s \"%s\" { return 200 \"r%d $1 $2\"; }\n", mod, re, i+1)
	}
	b.WriteString("}\n}\n")
	var probes []string
	for i := range regexes {
		for _, s := range []string{"\xc3", "\xe3", "\xc3\xa9", "\xe3\xa9", "\xe3x", "s", "S", "k", "K", "A", "a", "{",
			"\xc3A", "\xe3a", "caf\xc9", "caf\xe9", "\xff", "\xdf", "\xaa\xc3", "\xd7\xc3", "a\xe3S", "A\xe3s",
			"\xb5a0", "\xd7K", "0", "\xc9", "\xb2"} {
			probes = append(probes, fmt.Sprintf("/%d/%s", i+1, s))
		}
	}
	n := runCase(t, ngx, routeCase{conf: b.String(), hosts: []string{"h.example"}, probes: probes}, port)
	if n != len(probes) {
		t.Errorf("%d of %d probes compared", n, len(probes))
	}
	t.Logf("%d probes agree with nginx", n)
}

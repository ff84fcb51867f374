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

	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// mixed draws configurations that mix what the other property tests
// draw apart: several servers on two ports (exact, wildcard and regex
// names with captures, default_server, merge_slashes off), nested
// locations of every kind whose bodies rewrite with captures, test $uri,
// $request_uri, $args and $host, try files under a document root, use
// index, alias with regex captures and error_page, all answering with
// their own id.
type mixed struct {
	r    *rand.Rand
	root string
	next int
	b    strings.Builder
}

func (g *mixed) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

// mixedRegexes are location regexes and the number of their captures.
var mixedRegexes = []struct {
	re   string
	caps int
}{
	{`^/a`, 0}, {`^/(a|b)/(.*)$`, 2}, {`\.php$`, 0}, {`^/(?<seg>[^/]+)/(?<rest>.*)$`, 2}, {`(?i)^/up/(.+)`, 1},
	{`\.(gif|jpg|txt)$`, 1}, {`^/d/(.*)$`, 1}, {`/$`, 0}, {`^/[^/]*$`, 0}, {`^/a/b/(c|d)?`, 1}, {`%`, 0}, {`\.\.`, 0},
	{`^/(\w+)\.(\w+)$`, 2}, {`^/x/(?<n>\d+)`, 1}, {`^/A`, 0}, {`//`, 0}, {`^/a/\.`, 0},
}

var mixedPrefixes = []string{"/", "/a", "/a/", "/a/b", "/a/b/", "/b", "/d", "/d/", "/x/", "/up", "/A", "/a.", "/e/", "/r/", "/%"}

// body writes a location's directives: something that answers with the
// location's id, or sends the request on.
func (g *mixed) body(id string, caps int, ind string) {
	b := &g.b
	answer := func(extra string) string {
		return fmt.Sprintf("return 200 \"%s%s $uri|$args\";", id, extra)
	}
	capVar := ""
	if caps > 0 {
		capVar = " $" + strconv.Itoa(1+g.r.IntN(caps))
	}
	switch g.r.IntN(20) {
	case 0, 1:
		fmt.Fprintf(b, "%s%s\n", ind, answer(capVar))
	case 2:
		// Rewrite with captures, then maybe answer.
		fmt.Fprintf(b, "%srewrite %s %s %s;\n", ind, g.pick(`^/(\w+)/(.*)$`, `^/a(.*)$`, `^(.*)/$`, `^/(.+)\.php$`, `(?i)^/A(.*)`),
			g.pick("/r/$1", "/leaf/$2?x=$1", "/b$1", "/d/$1", "/e/", "/leaf/$1?", "/a/b/$1"),
			g.pick("last", "break", "redirect", "permanent", ""))
		fmt.Fprintf(b, "%s%s\n", ind, answer(" after"))
	case 3:
		fmt.Fprintf(b, "%sif (%s) { %s }\n", ind,
			g.pick(`$request_uri ~ "%"`, `$uri ~* "^/A"`, `$args`, `$host ~ "^(\w+)\."`, `$request_uri ~ "//"`, `$arg_q = 1`,
				`$uri ~ "\.$"`, `$http_host ~* "EXAMPLE"`),
			g.pick(answer(" if$1"), "rewrite ^ /leaf/if last;", "return 302 /leaf$uri;", "set $v if;"))
		fmt.Fprintf(b, "%s%s\n", ind, answer(" $v"))
	case 4:
		fmt.Fprintf(b, "%stry_files %s %s;\n", ind, g.pick("$uri", "$uri $uri/", "$uri/index.html", "/f.txt", "/nope $uri.txt"),
			g.pick("/leaf$uri", "@n", "=404", "/leaf/t?$args", "=200"))
	case 5:
		fmt.Fprintf(b, "%sindex %s;\n", ind, g.pick("index.html", "nope.html index.html", "x.txt", "/leaf/idx"))
	case 6:
		fmt.Fprintf(b, "%serror_page 404 %s;\n%stry_files /nope =404;\n", ind, g.pick("= @n", "@n", "/leaf/e?$args", "=200 /leaf/e2", "=301 /leaf/e3"), ind)
	case 7:
		if caps > 0 {
			fmt.Fprintf(b, "%salias %s/d/$%d;\n", ind, g.root, 1+g.r.IntN(caps))
		} else {
			fmt.Fprintf(b, "%s%s\n", ind, answer(""))
		}
	case 8:
		fmt.Fprintf(b, "%sreturn %s;\n", ind, g.pick("301 /leaf$request_uri", "302 $scheme://$host$uri", "404", "200 \""+id+" $request_uri $is_args\"", "403"))
	case 9:
		fmt.Fprintf(b, "%sset $s \"%s:$uri\";\n%srewrite ^/(.*)$ /leaf/$s break;\n%s%s\n", ind, id, ind, ind, answer(" s"))
	case 10:
		// error_page chains, once or recursively, and $status.
		if g.r.IntN(2) == 0 {
			fmt.Fprintf(b, "%srecursive_error_pages on;\n", ind)
		}
		fmt.Fprintf(b, "%serror_page 404 %s %s;\n%s%s;\n", ind, g.pick("", "=", "=200"), g.pick("/st", "/a/", "/d/nope", "@rw", "/b$uri"),
			ind, g.pick("try_files /nope =404", "return 404", "return 200 \""+id+" $status\""))
	case 11:
		if caps > 0 {
			// try_files after a regex location's alias.
			fmt.Fprintf(b, "%salias %s/%s$%d;\n%stry_files %s %s;\n", ind, g.root, g.pick("", "d/"), 1+g.r.IntN(caps), ind,
				g.pick("$uri", "$uri/", "/x.txt", "/$1", "$uri/index.html"), g.pick("=404", "/leaf/tf", "@n"))
		} else {
			fmt.Fprintf(b, "%stry_files %s @rw;\n", ind, g.pick("$uri", "/nope"))
		}
	case 12:
		fmt.Fprintf(b, "%sinternal;\n%s%s\n", ind, ind, answer(""))
	case 13:
		fmt.Fprintf(b, "%sif ($request_method = %s) { return %s; }\n%s%s\n", ind, g.pick("POST", "HEAD", "PUT"), g.pick("405", "200", "204", "302 /leaf/m"), ind, answer(""))
	case 14:
		fmt.Fprintf(b, "%serror_page %s %s;\n", ind, g.pick("405", "404 405", "403 404"), g.pick("=200 /leaf/ep", "/leaf/ep?$args", "@n", "= /index.html"))
		if g.r.IntN(2) == 0 {
			fmt.Fprintf(b, "%sroot %s/d;\n", ind, g.root)
		}
	case 15:
		fmt.Fprintf(b, "%sautoindex on;\n%sindex %s;\n", ind, ind, g.pick("nope.html", "index.html"))
	case 16:
		fmt.Fprintf(b, "%sset $args \"%s\";\n%s%s\n", ind, g.pick("z=1", "$args&z=2", ""), ind, answer(" args"))
	case 17:
		fmt.Fprintf(b, "%sreturn %s;\n", ind, g.pick("301 $scheme://$http_host$request_uri", "302 //$host/x", "308 /leaf$uri?$args", "200"))
	case 18:
		fmt.Fprintf(b, "%srewrite %s %s %s;\n%s%s\n", ind, g.pick(`^/(.*)$`, `^(.*)$`, `(?i)^/a(.*)`), g.pick("http://ext.example/$1?x", "/leaf/$1?a=$1&", "$scheme://$host/$1", "/leaf$request_uri?"),
			g.pick("permanent", "redirect", "last", "break"), ind, answer(" r"))
	case 19:
		fmt.Fprintf(b, "%sif (%s) { %s }\n%s%s\n", ind, g.pick("-f $request_filename", "!-e $request_filename", "-d $document_root$uri"),
			g.pick(answer(" f"), "rewrite ^ /leaf/f last;"), ind, answer(" nf"))
	default:
		fmt.Fprintf(b, "%s%s\n", ind, answer(capVar))
	}
}

// locs writes one level of locations under parent.
func (g *mixed) locs(parent string, depth int, ind string) {
	n := 2 + g.r.IntN(6)
	if depth > 0 {
		n = g.r.IntN(3)
	}
	seen := map[string]bool{}
	for range n {
		var mod, path string
		caps := 0
		switch k := g.r.IntN(10); {
		case k < 4:
			path = mixedPrefixes[g.r.IntN(len(mixedPrefixes))]
			if g.r.IntN(4) == 0 {
				mod = "^~"
			}
		case k < 5:
			mod, path = "=", mixedPrefixes[g.r.IntN(len(mixedPrefixes))]
		default:
			x := mixedRegexes[g.r.IntN(len(mixedRegexes))]
			mod, path, caps = g.pick("~", "~", "~*"), x.re, x.caps
		}
		if mod != "~" && mod != "~*" && !strings.HasPrefix(path, parent) {
			continue
		}
		key := mod + " " + path
		if mod == "^~" {
			key = " " + path
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		g.next++
		id := "L" + strconv.Itoa(g.next)
		m := mod
		if m != "" {
			m += " "
		}
		fmt.Fprintf(&g.b, "%slocation %s\"%s\" {\n", ind, m, strings.ReplaceAll(path, `\`, `\\`))
		g.body(id, caps, ind+"    ")
		if mod != "=" && depth < 2 {
			p := path
			if mod == "~" || mod == "~*" {
				p = "\x00" // a regex nests only regexes
			}
			g.locs(p, depth+1, ind+"    ")
		}
		fmt.Fprintf(&g.b, "%s}\n", ind)
	}
}

// server writes one server block.
func (g *mixed) server(listen, names string, mergeOff bool) {
	b := &g.b
	fmt.Fprintf(b, "server {\n    listen %s;\n", listen)
	if names != "" {
		fmt.Fprintf(b, "    server_name %s;\n", names)
	}
	fmt.Fprintf(b, "    root %s;\n    set $v \"\";\n", g.root)
	if mergeOff {
		b.WriteString("    merge_slashes off;\n")
	}
	if g.r.IntN(4) == 0 {
		// The request line must fit in the default server's.
		b.WriteString("    large_client_header_buffers 4 2k;\n")
	}
	g.next++
	sid := "S" + strconv.Itoa(g.next)
	switch g.r.IntN(5) {
	case 0:
		fmt.Fprintf(b, "    rewrite ^/s/(.*)$ /%s %s;\n", g.pick("$1", "a/$1", "leaf/$1?srv=1"), g.pick("last", "break", "redirect", ""))
	case 1:
		fmt.Fprintf(b, "    if ($host ~* \"^www\\.\") { return 200 \"%s www $host\"; }\n", sid)
	case 2:
		fmt.Fprintf(b, "    if ($request_uri ~ \"^/q\\?\") { return 200 \"%s q $args\"; }\n", sid)
	}
	fmt.Fprintf(b, "    location /leaf { return 200 \"%s leaf $uri|$args|$server_name|$host\"; }\n", sid)
	fmt.Fprintf(b, "    location @n { return 200 \"%s named $uri|$args\"; }\n", sid)
	fmt.Fprintf(b, "    location @rw { rewrite ^(.*)$ /leaf/rw$1 %s; return 200 \"%s rw $uri\"; }\n", g.pick("last", "break", ""), sid)
	fmt.Fprintf(b, "    location /st { return 200 \"%s st $status $uri|$args\"; }\n", sid)
	fmt.Fprintf(b, "    location /cap/ { return 200 \"%s cap $sub|$1|$2|$server_name\"; }\n", sid)
	g.locs("", 0, "    ")
	b.WriteString("}\n")
}

// mixedTargets are the raw targets every configuration is probed with.
var mixedTargets = []string{"/", "/a", "/a/", "/a/b", "/a/b/", "/a/b/c", "/a/b/d/", "/b", "/b/x", "/d", "/d/", "/d/x.txt", "/d/nope",
	"/d/index.html", "/e/", "/f.txt", "/index.html", "/x/12", "/x/", "/up/Q", "/UP/q", "/A", "/A/b", "/a.", "/a..", "/a.php", "/A.PHP",
	"/r/", "/r/x", "/s/a/b", "/s/leaf", "/q?z=1", "/a?q=1", "/a/b?q=1&r=2", "//a", "/a//b", "/./a", "/a/../b", "/a/b/..", "/%61/b",
	"/a%2Fb", "/%2e%2e/a", "/a/%2e/b", "/a%20b", "/a+b", "/%C3%A9", "/\xc3\xa9/x", "/a%25", "/%", "/%25/x", "/a/b.gif", "/a/b.JPG",
	"/d/x.TXT", "/x.txt", "/a/.hidden", "/a/b/c/d/e", "/a%3Fb?c", "/a#f", "/a%23", "/leaf/x?y", "/cap/x", "/s/cap/",
	"/%C0%AF", "/a%00b", "/a?%00", "/%E2%80%AE", "/a/%2e%2e%2f", "/a\\b", "/a;b", "/a/b;c=d/..", "/~u", "/a/b/c/../../../../x",
	"/" + strings.Repeat("a", 1100), "/" + strings.Repeat("b/", 4200), "/a?" + strings.Repeat("q", 9000), "/a/%",
	// "GET " and " HTTP/1.1\r\n" with these fill 8k exactly, and one more byte.
	"/" + strings.Repeat("d", 2100), "/" + strings.Repeat("c", 8176), "/" + strings.Repeat("c", 8177), "/" + strings.Repeat("c", 8175),
	// Absolute-form targets: their host wins over Host.
	"http://m.example/a", "http://www.w.example/a/../b?q=1", "HTTP://ABC.R.EXAMPLE./x/1", "http://m.example:8080/d/", "http://m.example",
	"http://m.example?q=1", "foo+bar.1://m.example/a", "http://[::1]/a", "http://m_example/a", "http:///a", "http://m.example//a",
	"http://unknown.example/up/x", "http://m.example:/a", "http://m..example/a", "1http://m.example/a", "http:/m.example/a", "*"}

// mixedHosts are Host headers: "" sends HTTP/1.0 without one.
var mixedHosts = []string{"m.example", "M.EXAMPLE", "m.example.", "m.example:8080", "www.w.example", "x.w.example", "abc.r.example",
	"ABC.R.example", "www.other", "unknown", "", "127.0.0.1", "m.example..", "[::1]", "m.example:", "M.Example.:80", ".m.example",
	"a/b", "m.example:x", "www.m.org", "WWW.M.co.", "www.m"}

// TestMixedAgainstNginx is the property test of everything at once, on
// two ports; the model answers as nginx on every probe. ROUTING_SEED
// draws other configurations, ROUTING_ROUNDS more of them.
func TestMixedAgainstNginx(t *testing.T) {
	ngx := nginxtest.Require(t)
	seed := uint64(29)
	if os.Getenv("ROUTING_SEED") != "" {
		seed = seedOf(t)
	}
	rounds := 6
	if n, err := strconv.Atoi(os.Getenv("ROUTING_ROUNDS")); err == nil {
		rounds = n
	}
	rng := rand.New(rand.NewPCG(seed, 29))
	root := makeSite(t)
	total := 0
	for range rounds {
		g := &mixed{r: rng, root: root}
		p1, p2 := freePort(t), freePort(t)
		h := head("")
		if rng.IntN(2) == 0 {
			// nginx's default: relative redirects made absolute with
			// the Host, or the server's name, and the port.
			h = strings.Replace(h, "    absolute_redirect off;\n", g.pick("", "    server_name_in_redirect on;\n", "    port_in_redirect off;\n"), 1)
		}
		g.b.WriteString(h)
		def := rng.IntN(4)
		l1 := func(i int) string {
			s := fmt.Sprintf("127.0.0.1:%d", p1)
			if i == def {
				s += " default_server"
			}
			return s
		}
		g.server(l1(0), "m.example www.m.*", false)
		g.server(l1(1), ".Other.Example *.w.example www.other", rng.IntN(3) == 0)
		g.server(l1(2), `"~^(?<sub>[a-z]+)\.(r)\.example$"`, false)
		g.server(l1(3)+" ", "", false)
		g.server(fmt.Sprintf("127.0.0.1:%d", p2), "m.example", rng.IntN(2) == 0)
		g.b.WriteString("}\n")
		conf := g.b.String()
		probes := append(append([]string{}, mixedTargets...), moreTargets(rng, 30)...)
		total += runMixed(t, ngx, conf, []int{p1, p2}, probes)
		if t.Failed() {
			break
		}
	}
	t.Logf("%d probes agree with nginx", total)
}

// runMixed starts conf and compares every probe on every port and Host.
func runMixed(t *testing.T, ngx, conf string, ports []int, probes []string) int {
	t.Helper()
	dir := t.TempDir()
	m, stop := startNginx(t, ngx, dir, "nginx.conf", conf)
	defer stop()
	compared, failed, skipped := 0, 0, 0
	for _, port := range ports {
		addr := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), uint16(port))
		for i, h := range mixedHosts {
			for j, target := range probes {
				// A method in turn: the static handler refuses POST,
				// error_page turns a POST into a GET, HEAD stays.
				method := [...]string{"GET", "GET", "HEAD", "POST", "GET", "PUT", "GET", "OPTIONS"}[(i+j)%8]
				req := routing.HTTPRequest{Request: routing.Request{Addr: addr.Addr(), Port: port, Host: h, NoHost: h == ""},
					Target: target, Remote: netip.MustParseAddr("127.0.0.1"), Method: method}
				a := m.Route(req)
				want, ok := expected(a)
				if !ok {
					skipped++
					if skipped <= 3 {
						t.Logf("unsure: Host %q, %q: %v", h, target, a.Unsure)
					}
					continue
				}
				got, err := send(method, addr.String(), h, target)
				if err != nil && strings.HasSuffix(err.Error(), `no end of the headers in ""`) {
					got, err = response{}, nil // closed without a response
				}
				if err != nil {
					log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
					t.Fatalf("%s %s %q: %v\n%s\n%s", method, h, target, err, conf, log)
				}
				got, want = comparable(method, a, got, want)
				compared++
				if got != want {
					failed++
					if failed <= 10 {
						t.Errorf("%s, port %d, Host %q, %q: nginx %+v, the model %+v (%s; location %v, steps %d, unsure %v)",
							method, port, h, target, got, want, a.Describe(), a.Location, len(a.Steps), a.Unsure)
					}
				}
			}
		}
	}
	if failed > 0 {
		t.Logf("%d of %d probes differ; configuration:\n%s", failed, compared, conf)
	}
	if skipped > compared/10 {
		t.Errorf("the model is unsure of %d probes, and answers %d", skipped, compared)
	}
	return compared
}

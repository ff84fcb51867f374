package routing_test

import (
	"fmt"
	"net/netip"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/parser"
)

// table parses src as /t/nginx.conf and builds its routing table.
func table(t testing.TB, src string) *routing.Table {
	t.Helper()
	c := (&parser.Loader{Kinds: analyzer.Kinds, FS: &parser.Overlay{}}).LoadSource("/t/nginx.conf", []byte(src), nil)
	m := parser.BuildModel(c)
	return routing.Build(m, costmodel.Compute(m, costmodel.Options{}))
}

func req(addr string, port int, host string) routing.Request {
	r := routing.Request{Addr: netip.MustParseAddr(addr), Port: port, Host: host}
	if host == "-" {
		r.Host, r.NoHost = "", true
	}
	return r
}

const namesConf = `events {}
http {
    server { listen 127.0.0.1:8080; server_name a.example; }
    server { listen 127.0.0.1:8080; server_name *.example.com; }
    server { listen 127.0.0.1:8080 default_server; server_name www.example.*; }
    server { listen 127.0.0.1:8080; server_name ~^re[0-9]+\.example$; }
    server { listen 127.0.0.1:8080; server_name .dot.example x.example.com; }
    server { listen 127.0.0.1:8080; server_name *.b.example.com ~^RE; }
    server { listen 127.0.0.1:8080; server_name a.example; }
    server { listen 127.0.0.2:8080; server_name two.example; }
    server { listen 127.0.0.2:8080; server_name a.example; }
    server { listen 8081; server_name w.example; }
    server { listen 127.0.0.3:8081; server_name three.example; }
}
`

func TestRoute(t *testing.T) {
	tb := table(t, namesConf)
	cases := []struct {
		r    routing.Request
		want int
	}{
		{req("127.0.0.1", 8080, "a.example"), 0},
		{req("127.0.0.1", 8080, "A.Example.:8080"), 0},
		{req("127.0.0.1", 8080, "foo.example.com"), 1},
		{req("127.0.0.1", 8080, "example.com"), 2}, // *.x does not match x
		{req("127.0.0.1", 8080, "www.example.org"), 2},
		{req("127.0.0.1", 8080, "re12.example"), 3},
		{req("127.0.0.1", 8080, "dot.example"), 4},
		{req("127.0.0.1", 8080, "q.dot.example"), 4},
		{req("127.0.0.1", 8080, "x.example.com"), 4},   // exact before wildcard
		{req("127.0.0.1", 8080, "q.b.example.com"), 5}, // the longest wildcard
		{req("127.0.0.1", 8080, "rex.example"), 5},     // caseless regex
		{req("127.0.0.1", 8080, "nope.example"), 2},    // default_server
		{req("127.0.0.1", 8080, "-"), 2},
		{req("127.0.0.1", 8080, "bad..host"), 2},
		{req("127.0.0.2", 8080, "a.example"), 8},
		{req("127.0.0.2", 8080, "-"), 7},
		{req("127.0.0.1", 8080, "bad..host"), 2},
		{req("127.0.0.9", 8080, "a.example"), routing.Refused},
		{req("127.0.0.3", 8081, "w.example"), 10}, // a listed address ignores the wildcard's servers
		{req("127.0.0.4", 8081, "three.example"), 9},
		{req("::1", 8081, "w.example"), routing.Refused},
	}
	for _, c := range cases {
		if got := tb.Route(c.r); got != c.want {
			t.Errorf("%s: server %d, want %d", c.r, got, c.want)
		}
	}
}

func TestNormalizeHost(t *testing.T) {
	for in, want := range map[string]string{
		"Example.COM": "example.com", "example.com.": "example.com", "example.com:80": "example.com",
		"[::1]:80": "[::1]", "a.b.:8080": "a.b",
	} {
		if got, ok := routing.NormalizeHost(in); !ok || got != want {
			t.Errorf("NormalizeHost(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, bad := range []string{"", ".", "a..b", "a/b", "a b", ":80"} {
		if _, ok := routing.NormalizeHost(bad); ok {
			t.Errorf("NormalizeHost(%q) accepted", bad)
		}
	}
}

func TestCompare(t *testing.T) {
	base := table(t, namesConf)
	if d := routing.Compare(base, base, 0); len(d) != 0 {
		t.Fatalf("a table differs from itself: %v", d[0].Describe(base, base))
	}
	cases := []struct {
		name, from, to string
		kind           routing.Kind
		same           bool
	}{
		{"names reordered in a server", "server_name .dot.example x.example.com;", "server_name x.example.com .dot.example;", 0, true},
		{"default moved", "listen 127.0.0.1:8080 default_server;", "listen 127.0.0.1:8080;", routing.Changed, false},
		{"exact name dropped", "server_name a.example; }\n    server { listen 127.0.0.1:8080; server_name *.example.com; }",
			"server_name aa.example; }\n    server { listen 127.0.0.1:8080; server_name *.example.com; }", routing.Changed, false},
		{"address dropped", "listen 127.0.0.3:8081;", "listen 127.0.0.1:8082;", routing.Changed, false},
		{"wildcard dropped", "listen 8081;", "listen 127.0.0.4:8081;", routing.NowRefused, false},
		{"unix socket moved", "listen 127.0.0.2:8080; server_name two.example;", "listen unix:/run/b.sock; server_name two.example;", routing.Changed, false},
		{"regex changed", `~^re[0-9]+\.example$`, `~^re[0-9]*\.example$`, routing.Unproven, false},
	}
	for _, c := range cases {
		if !strings.Contains(namesConf, c.from) {
			t.Fatalf("%s: %q not in the config", c.name, c.from)
		}
		other := table(t, strings.Replace(namesConf, c.from, c.to, 1))
		d := routing.Compare(base, other, 0)
		if c.same {
			if len(d) > 0 {
				t.Errorf("%s: differs: %s", c.name, d[0].Describe(base, other))
			}
			continue
		}
		if len(d) == 0 {
			t.Errorf("%s: called equivalent", c.name)
			continue
		}
		if d[0].Kind != c.kind {
			t.Errorf("%s: kind %d (%s), want %d", c.name, d[0].Kind, d[0].Describe(base, other), c.kind)
		}
		if d[0].Kind != routing.Unproven && d[0].Request.Unix == "" && base.Route(d[0].Request) == other.Route(d[0].Request) {
			t.Errorf("%s: the difference %s routes alike", c.name, d[0].Describe(base, other))
		}
	}
}

// TestDescribe: a request without Host and one with an unknown Host that
// move alike are one line, as the issue words it.
func TestDescribe(t *testing.T) {
	a := table(t, "events {}\nhttp { server { listen 127.0.0.1:80; server_name a; } server { listen 127.0.0.7:80; server_name y; } }\n")
	b := table(t, "events {}\nhttp { server { listen 80; server_name a; } server { listen 80; server_name y; } }\n")
	d := routing.Compare(a, b, 0)
	want := "a request to 127.0.0.7:80 without Host or with an unknown Host goes to server a (at /t/nginx.conf:2) instead of y (at /t/nginx.conf:2)"
	if len(d) < 2 || d[1].Describe(a, b) != want {
		for _, x := range d {
			t.Log(x.Describe(a, b))
		}
		t.Errorf("want %q", want)
	}
}

func TestCompareUnix(t *testing.T) {
	a := table(t, "events {}\nhttp { server { listen unix:/run/a.sock; server_name a; } server { listen unix:/run/a.sock; server_name b; } }\n")
	b := table(t, "events {}\nhttp { server { listen unix:/run/a.sock; server_name a; } server { listen unix:/run/b.sock; server_name b; } }\n")
	if routing.Equivalent(a, a) != true {
		t.Error("a table differs from itself")
	}
	d := routing.Compare(a, b, 0)
	if len(d) != 2 || d[0].Request.Unix != "unix:/run/a.sock" || d[1].Kind != routing.NowAccepted {
		t.Fatalf("differences %+v", d)
	}
	if _, ok := routing.KeepsNamedRequests(a, a); !ok {
		t.Error("KeepsNamedRequests: a table moves its own named requests")
	}
	if d, ok := routing.KeepsNamedRequests(a, b); ok || d.Request.Unix != "unix:/run/a.sock" || d.Request.Host != "b" {
		t.Errorf("KeepsNamedRequests: %+v", d)
	}
	if got := a.Route(routing.Request{Unix: "unix:/run/a.sock", Host: "b"}); got != 1 {
		t.Errorf("Host b on a.sock: server %d", got)
	}
}

func TestUnsure(t *testing.T) {
	tb := table(t, "events {}\nhttp { server { listen localhost:8080; } server { listen 80; server_name $hostname; } }\n")
	if len(tb.Unsure) != 2 {
		t.Fatalf("Unsure = %q, want the host-name listen and $hostname", tb.Unsure)
	}
	if routing.Equivalent(tb, tb) {
		t.Error("a table the model is unsure of is called equivalent")
	}
}

// TestClashes: the names nginx refuses on an address, in the order it
// files them, with the claim that holds each key; a refused name is not
// looked up, and the exact key of a refused ".b.example" stays taken.
func TestClashes(t *testing.T) {
	c := (&parser.Loader{Kinds: analyzer.Kinds, FS: &parser.Overlay{}}).LoadSource("/t/nginx.conf", []byte(clashConf), nil)
	m := parser.BuildModel(c)
	res := costmodel.Compute(m, costmodel.Options{})
	var got []string
	n := 0
	for a := range routing.Addresses(res, parser.HTTP) {
		n++
		if a.Servers != 8 || a.Key() != "127.0.0.1:8080" || a.Default != m.Servers[2] || a.DefaultBy == nil {
			t.Errorf("address %s: %d servers, default %v", a.Key(), a.Servers, a.Default)
		}
		for _, cl := range a.Names().Clashes {
			got = append(got, fmt.Sprintf("%s:%d<%d", cl.Name, cl.At.Server, cl.First.Server))
		}
	}
	if want := ".example.com:1<0 .b.example:4<3 b.example:5<4 www.c.*:7<6"; n != 1 || strings.Join(got, " ") != want {
		t.Errorf("%d addresses, clashes %v, want %s", n, got, want)
	}
	tb := table(t, clashConf)
	for h, want := range map[string]int{"example.com": 0, "x.example.com": 2, "b.example": 2, "x.b.example": 3, "c.example": 5, "www.c.org": 6} {
		if got := tb.Route(req("127.0.0.1", 8080, h)); got != want {
			t.Errorf("%s: server %d, want %d", h, got, want)
		}
	}
}

// TestProblems: the replay of the listens of an address says what nginx
// refuses or warns about, at the listen it names.
func TestProblems(t *testing.T) {
	src := `events {}
http {
    server { listen 127.0.0.1:8080 default_server; listen 127.0.0.1:8080; }
    server { listen 127.0.0.1:8080 default_server; }
    server { listen 127.0.0.1:8081 backlog=10; }
    server { listen 127.0.0.1:8081 backlog=20; }
    server { listen 127.0.0.1:8082 ssl; }
    server { listen 127.0.0.1:8082; }
    server { listen 127.0.0.1:8082 ssl; }
}
`
	c := (&parser.Loader{Kinds: analyzer.Kinds, FS: &parser.Overlay{}}).LoadSource("/t/nginx.conf", []byte(src), nil)
	m := parser.BuildModel(c)
	var got []string
	for _, pr := range routing.Problems(costmodel.Compute(m, costmodel.Options{}), parser.HTTP) {
		got = append(got, fmt.Sprintf("%d@%d<%d %s %d", pr.Kind, pr.At.Line(), pr.First.Line(), pr.Addr, pr.Protocols))
	}
	want := fmt.Sprintf("%d@3<3 127.0.0.1:8080 0,%d@4<3 127.0.0.1:8080 0,%d@6<5 127.0.0.1:8081 0,%d@9<7 127.0.0.1:8082 %d",
		routing.DuplicateListen, routing.DuplicateDefault, routing.DuplicateOptions, routing.ProtocolsRedefined, routing.SSL)
	if strings.Join(got, ",") != want {
		t.Errorf("problems %v, want %s", got, want)
	}
}

// TestRoutePortRanges: a port range is a run of ports in the model (one
// entry for ports every listen covers alike); a request to any of its
// ports, not only the first, reaches the servers on it, and a single
// port inside a range its own.
func TestRoutePortRanges(t *testing.T) {
	tb := table(t, `events {}
http {
    server { listen 127.0.0.1:1000-1999; server_name a.example; }
    server { listen 127.0.0.1:1500-2500 default_server; server_name b.example; }
    server { listen 127.0.0.1:1700; server_name c.example; }
    server { listen 3000-3999; server_name w.example; }
}
`)
	cases := []struct {
		r    routing.Request
		want int
	}{
		{req("127.0.0.1", 1000, "-"), 0},
		{req("127.0.0.1", 1234, "b.example"), 0},
		{req("127.0.0.1", 1499, "a.example"), 0},
		{req("127.0.0.1", 1500, "-"), 1},
		{req("127.0.0.1", 1650, "a.example"), 0},
		{req("127.0.0.1", 1650, "zzz"), 1},
		{req("127.0.0.1", 1700, "c.example"), 2},
		{req("127.0.0.1", 1700, "a.example"), 0},
		{req("127.0.0.1", 1999, "a.example"), 0},
		{req("127.0.0.1", 2000, "a.example"), 1},
		{req("127.0.0.1", 2500, "-"), 1},
		{req("127.0.0.1", 2501, "-"), routing.Refused},
		{req("127.0.0.1", 999, "-"), routing.Refused},
		{req("127.0.0.2", 1500, "b.example"), routing.Refused},
		{req("127.0.0.9", 3456, "-"), 3},
		{req("127.0.0.9", 4000, "-"), routing.Refused},
	}
	for _, c := range cases {
		if got := tb.Route(c.r); got != c.want {
			t.Errorf("%s: server %d, want %d", c.r, got, c.want)
		}
	}
}

// clashConf has names nginx refuses on one address ("conflicting server
// name ... ignored"): a refused name routes nowhere, but the exact key a
// refused ".b.example" took stays taken.
const clashConf = `events {}
http {
    server { listen 127.0.0.1:8080; server_name example.com; }
    server { listen 127.0.0.1:8080; server_name .example.com; }
    server { listen 127.0.0.1:8080 default_server; server_name other.example; }
    server { listen 127.0.0.1:8080; server_name *.b.example; }
    server { listen 127.0.0.1:8080; server_name .b.example; }
    server { listen 127.0.0.1:8080; server_name b.example c.example; }
    server { listen 127.0.0.1:8080; server_name www.c.*; }
    server { listen 127.0.0.1:8080; server_name www.c.*; }
}
`

package routing_test

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer/routing"
)

// plainSSLConf has one ssl port whose servers take 497 (a plain HTTP
// request on the ssl port) each in its own way, and one plain port.
const plainSSLConf = "http {\n" + plainSSLServers + "}\n"

const plainSSLServers = `	server { listen 127.0.0.1:443 ssl default_server; server_name a.example;
		location / { return 200 "a"; } }
	server { listen 127.0.0.1:443 ssl; server_name b.example;
		error_page 497 =301 https://$host$request_uri; location / { return 200 "b"; } }
	server { listen 127.0.0.1:443 ssl; server_name c.example;
		error_page 497 /plain; location = /plain { return 200 "c $scheme $uri"; } location / { return 200 "c"; } }
	server { listen 127.0.0.1:443 ssl; server_name d.example;
		error_page 497 = @named; location @named { return 200 "d $scheme $request_uri"; } }
	server { listen 127.0.0.1:443 ssl; server_name e.example;
		error_page 497 https://$host$request_uri; }
	server { listen 127.0.0.1:443 ssl; server_name f.example;
		error_page 400 =200 /four; location = /four { return 200 "f"; } }
	server { listen 127.0.0.1:80 default_server; server_name p.example;
		error_page 400 /bad; location = /bad { return 200 "p bad"; } location / { return 200 "p"; } }
	server { listen 127.0.0.1:80; server_name q.example; location / { return 200 "q"; } }
`

// TestPlainHTTPToSSLPort: plain HTTP on a listen ... ssl is 497 in the
// server the Host chose, through that server's error_page, else 400;
// https to a listen without ssl is a 400 of the default server.
func TestPlainHTTPToSSLPort(t *testing.T) {
	m := model(t, plainSSLConf, routing.Options{NoFiles: true})
	ip := netip.MustParseAddr("127.0.0.1")
	for _, c := range []struct {
		host, target string
		port         int
		https        bool
		server       int
		status       int
		kind         routing.HandlerKind
		target2      string
		// notes are the causes the answer gives, in words they contain:
		// "plain" (a plain request on the ssl port is 497), "as 400"
		// (497 no error_page takes is 400), "TLS" (a handshake on a
		// plain port).
		notes []string
	}{
		{"a.example", "/x", 443, false, 0, 400, routing.HandlerError, "", []string{"plain", "as 400"}},
		{"a.example", "/x", 443, true, 0, 200, routing.HandlerReturn, "a", nil},
		{"nope.example", "/x", 443, false, 0, 400, routing.HandlerError, "", []string{"plain", "as 400"}},
		{"b.example", "/x?y", 443, false, 1, 301, routing.HandlerRedirect, "https://b.example/x?y", []string{"plain"}},
		{"b.example", "/x", 443, true, 1, 200, routing.HandlerReturn, "b", nil},
		{"c.example", "/x", 443, false, 2, 400, routing.HandlerReturn, "c http /plain", []string{"plain"}},
		{"d.example", "/x?y", 443, false, 3, 200, routing.HandlerReturn, "d http /x?y", []string{"plain"}},
		{"e.example", "/x", 443, false, 4, 302, routing.HandlerRedirect, "https://e.example/x", []string{"plain"}},
		{"f.example", "/x", 443, false, 5, 400, routing.HandlerError, "", []string{"plain", "as 400"}},
		{"q.example", "/x", 80, false, 7, 200, routing.HandlerReturn, "q", nil},
		{"q.example", "/x", 80, true, 6, 400, routing.HandlerReturn, "p bad", []string{"TLS"}},
	} {
		a := m.Route(routing.HTTPRequest{Request: routing.Request{Addr: ip, Port: c.port, Host: c.host}, Target: c.target, HTTPS: c.https})
		if a.Server != c.server || a.Status != c.status || a.Handler.Kind != c.kind || a.Handler.Target != c.target2 {
			t.Errorf("%+v: server %d, %d %v %q (%s, unsure %q)", c, a.Server, a.Status, a.Handler.Kind, a.Handler.Target, a.Describe(), a.Unsure)
		}
		ok := len(a.Notes) == len(c.notes) && len(a.Unsure) == 0
		for i := 0; ok && i < len(c.notes); i++ {
			ok = strings.Contains(a.Notes[i], c.notes[i])
		}
		if !ok {
			t.Errorf("%+v: notes %q, unsure %q; want notes with %q and nothing unsure", c, a.Notes, a.Unsure, c.notes)
		}
	}
}

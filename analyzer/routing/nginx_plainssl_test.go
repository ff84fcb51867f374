//go:build unix

package routing_test

import (
	"crypto/tls"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// recorder keeps what a connection read.
type recorder struct {
	net.Conn
	got []byte
}

func (r *recorder) Read(b []byte) (int, error) {
	n, err := r.Conn.Read(b)
	r.got = append(r.got, b[:n]...)
	return n, err
}

// TestPlainHTTPToSSLPortAgainstNginx probes plainSSLServers with plain
// HTTP on the ssl port (497 through each server's error_page, or 400)
// and with a TLS handshake on the plain port (a 400 of the default
// server, through its error_page 400); nginx answers as the model.
func TestPlainHTTPToSSLPortAgainstNginx(t *testing.T) {
	ngx := nginxtest.Require(t)
	dir := publicDir(t)
	cert, key := writeCert(t, dir, "plainssl")
	sslPort, plainPort := freePort(t), freePort(t)
	for plainPort == sslPort {
		plainPort = freePort(t)
	}
	servers := strings.NewReplacer("127.0.0.1:443", "127.0.0.1:"+strconv.Itoa(sslPort), "127.0.0.1:80", "127.0.0.1:"+strconv.Itoa(plainPort)).Replace(plainSSLServers)
	conf := head("    ssl_certificate "+cert+"; ssl_certificate_key "+key+";\n") + servers + "}\n"
	hosts := []string{"a.example", "b.example", "c.example", "d.example", "e.example", "f.example", "nope.example", ""}
	probes := []string{"/x", "/x?y=1", "/plain", "/%61/../b", "/four"}
	n := runCase(t, ngx, routeCase{conf: conf, hosts: hosts, probes: probes}, sslPort)
	t.Logf("%d plain probes of the ssl port agree with nginx", n)

	m, stop := startNginx(t, ngx, dir, "tls.conf", conf)
	defer stop()
	addr := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), uint16(plainPort))
	for _, host := range []string{"q.example", "p.example", "nope.example"} {
		a := m.Route(routing.HTTPRequest{Request: routing.Request{Addr: addr.Addr(), Port: plainPort, Host: host}, Target: "/x", HTTPS: true})
		c, err := net.DialTimeout("tcp", addr.String(), 3*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		_ = c.SetDeadline(time.Now().Add(3 * time.Second))
		rec := &recorder{Conn: c}
		if err := tls.Client(rec, &tls.Config{InsecureSkipVerify: true, ServerName: host}).Handshake(); err == nil {
			t.Errorf("%s: a TLS handshake with a plain port succeeded", host)
		}
		c.Close()
		got := string(rec.got)
		f := strings.Fields(got)
		if len(f) < 2 || f[0] != "HTTP/1.1" || f[1] != strconv.Itoa(a.Status) {
			t.Errorf("https://%s/x on a plain port: nginx answered %.60q; the model %d (%s)", host, got, a.Status, a.Describe())
		}
		if a.Status == 400 && a.Handler.Kind == routing.HandlerReturn && !strings.Contains(got, a.Handler.Target) {
			t.Errorf("https://%s/x on a plain port: nginx answered %.200q; the model's body is %q", host, got, a.Handler.Target)
		}
	}
}

//go:build unix

package routing_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// writeCert writes a self-signed certificate whose common name is cn.
func writeCert(t *testing.T, dir, cn string) (cert, key string) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: cn},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	cert, key = filepath.Join(dir, cn+".crt"), filepath.Join(dir, cn+".key")
	if err := os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		t.Fatal(err)
	}
	return cert, key
}

// TestRouteTLSAgainstNginx: the certificate of the handshake is the SNI
// name's server, the answer the Host's, as RouteTLS predicts.
func TestRouteTLSAgainstNginx(t *testing.T) {
	ngx := nginxtest.Require(t)
	dir := t.TempDir()
	port := freePort(t)
	names := []string{"a.example", "*.b.example", `~^c[0-9]\.example$`, "d.example"}
	var b strings.Builder
	b.WriteString("events {}\nhttp {\n")
	for i, n := range names {
		cert, key := writeCert(t, dir, "server-"+strconv.Itoa(i))
		def := ""
		if i == 1 {
			def = " default_server"
		}
		fmt.Fprintf(&b, "    server { listen 127.0.0.1:%d ssl%s; server_name %s; ssl_certificate %s; ssl_certificate_key %s; }\n", port, def, n, cert, key)
	}
	b.WriteString("}\n")
	src := b.String()
	tb := table(t, src)
	startConf(t, ngx, src)
	ip := netip.MustParseAddr("127.0.0.1")
	for _, c := range []struct{ sni, host string }{
		{"a.example", "a.example"}, {"a.example", "x.b.example"}, {"", "c7.example"}, {"zz.example", "a.example"},
		{"x.b.example", "d.example"}, {"c1.example", "nope.example"}, {"D.Example", "d.example"},
	} {
		wantHS, wantReq := tb.RouteTLS(ip, port, c.sni, c.host)
		conf := &tls.Config{InsecureSkipVerify: true, ServerName: c.sni}
		conn, err := tls.DialWithDialer(&net.Dialer{Timeout: 3 * time.Second}, "tcp", netip.AddrPortFrom(ip, uint16(port)).String(), conf)
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		gotHS := -1
		if certs := conn.ConnectionState().PeerCertificates; len(certs) > 0 {
			gotHS, _ = strconv.Atoi(strings.TrimPrefix(certs[0].Subject.CommonName, "server-"))
		}
		_ = conn.SetDeadline(time.Now().Add(3 * time.Second))
		fmt.Fprintf(conn, "GET / HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", c.host)
		var sb strings.Builder
		buf := make([]byte, 4096)
		for {
			n, err := conn.Read(buf)
			sb.Write(buf[:n])
			if err != nil {
				break
			}
		}
		conn.Close()
		gotReq := -1
		if i := strings.Index(sb.String(), "server "); i >= 0 {
			gotReq, _ = strconv.Atoi(strings.TrimSpace(sb.String()[i+len("server "):]))
		}
		if gotHS != wantHS || gotReq != wantReq {
			t.Errorf("SNI %q, Host %q: nginx used the certificate of server %d and answered from %d; the model says %d and %d",
				c.sni, c.host, gotHS, gotReq, wantHS, wantReq)
		}
	}
}

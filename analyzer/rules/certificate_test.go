package rules_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/internal/testcerts"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// certRules are the certificate audit's rules.
var certRules = []*analyzer.Rule{rules.CertificateExpired, rules.CertificateExpiring, rules.CertificateKeyMismatch,
	rules.CertificateChain, rules.CertificateNameMismatch, rules.CertificateWeak}

// certCase is a server with a certificate file and a key file made by
// the test, and what the certificate rules say of it.
type certCase struct {
	name  string
	cert  []byte // the ssl_certificate file
	key   []byte // the ssl_certificate_key file
	names string // server_name (default a.example)
	// want are "rule: message part", one per finding of the certificate
	// rules; none for a certificate nginx and clients accept.
	want []string
	// refused says nginx -t refuses it (the errors among want).
	refused bool
}

// certCases makes the certificates: a private root and intermediate, and
// what is wrong with each server's files.
func certCases() []certCase {
	now := time.Now()
	day := 24 * time.Hour
	root := testcerts.New(testcerts.Options{CN: "Test Root CA", CA: true})
	inter := testcerts.New(testcerts.Options{CN: "Test Intermediate CA", CA: true, Parent: root})
	rsaRoot := testcerts.New(testcerts.Options{CN: "Test RSA Root", CA: true, RSABits: 2048})
	leaf := testcerts.New(testcerts.Options{CN: "a.example", DNS: []string{"a.example", "*.a.example"}, Parent: inter})
	other := testcerts.New(testcerts.Options{CN: "b.example", Parent: inter})
	expired := testcerts.New(testcerts.Options{CN: "a.example", Parent: inter, NotBefore: now.Add(-100 * day), NotAfter: now.Add(-2 * day)})
	future := testcerts.New(testcerts.Options{CN: "a.example", Parent: inter, NotBefore: now.Add(3 * day), NotAfter: now.Add(90 * day)})
	soon := testcerts.New(testcerts.Options{CN: "a.example", Parent: inter, NotAfter: now.Add(10 * day)})
	weak := testcerts.New(testcerts.Options{CN: "a.example", Parent: rsaRoot, RSABits: 1024})
	sha1 := testcerts.New(testcerts.Options{CN: "a.example", Parent: inter, SHA1: true})
	cnOnly := testcerts.New(testcerts.Options{CN: "a.example", Parent: inter, NoSAN: true})
	selfSigned := testcerts.New(testcerts.Options{CN: "a.example"})
	return []certCase{
		{name: "valid chain", cert: testcerts.Chain(leaf, inter), key: leaf.KeyPEM, names: "a.example www.a.example .a.example"},
		{name: "valid chain with its root", cert: testcerts.Chain(leaf, inter, root), key: leaf.KeyPEM},
		{name: "self-signed", cert: selfSigned.PEM, key: selfSigned.KeyPEM},
		{name: "combined file", cert: append(append([]byte{}, leaf.KeyPEM...), testcerts.Chain(leaf, inter)...), key: append(append([]byte{}, leaf.KeyPEM...), testcerts.Chain(leaf, inter)...)},
		{name: "expired", cert: testcerts.Chain(expired, inter), key: expired.KeyPEM,
			want: []string{"certificate-expired: certificate \"CERT\" expired on"}},
		{name: "not yet valid", cert: testcerts.Chain(future, inter), key: future.KeyPEM,
			want: []string{"certificate-expired: certificate \"CERT\" is not valid before"}},
		{name: "expiring", cert: testcerts.Chain(soon, inter), key: soon.KeyPEM,
			want: []string{"certificate-expiring: certificate \"CERT\" expires on"}},
		{name: "mismatched key", cert: testcerts.Chain(leaf, inter), key: other.KeyPEM, refused: true,
			want: []string{"certificate-key-mismatch: ssl_certificate_key \"KEY\" is not the key of ssl_certificate \"CERT\""}},
		{name: "intermediate first", cert: testcerts.Chain(inter, leaf), key: leaf.KeyPEM, refused: true,
			want: []string{"certificate-chain: the server's certificate (\"a.example\") is certificate 2 of the file, after \"Test Intermediate CA\": it must come first",
				"certificate-key-mismatch: is not the key of", "certificate-name-mismatch: does not cover server_name \"a.example\""}},
		{name: "chain out of order", cert: testcerts.Chain(leaf, root, inter), key: leaf.KeyPEM,
			want: []string{"certificate-chain: certificate 1 of the chain (\"a.example\") is not issued by the next (\"Test Root CA\") but by certificate 3: the chain is out of order"}},
		{name: "short chain", cert: leaf.PEM, key: leaf.KeyPEM,
			want: []string{"certificate-chain: the chain stops at the server's certificate (\"a.example\"), issued by \"Test Intermediate CA\""}},
		{name: "stray certificate", cert: testcerts.Chain(leaf, inter, rsaRoot), key: leaf.KeyPEM,
			want: []string{"certificate-chain: certificate 3 of the chain (\"Test RSA Root\") issued none of the others"}},
		{name: "name not covered", cert: testcerts.Chain(leaf, inter), key: leaf.KeyPEM, names: "a.example b.example x.y.a.example _ ~^c\\.example$",
			want: []string{"certificate-name-mismatch: does not cover server_name \"b.example\" and \"x.y.a.example\" (it covers a.example, *.a.example)"}},
		{name: "common name only", cert: testcerts.Chain(cnOnly, inter), key: cnOnly.KeyPEM,
			want: []string{"certificate-name-mismatch: (it covers no subjectAltName (clients ignore its common name \"a.example\"))"}},
		{name: "wildcard server_name", cert: testcerts.Chain(other, inter), key: other.KeyPEM, names: "*.b.example",
			want: []string{"certificate-name-mismatch: does not cover server_name \"*.b.example\""}},
		{name: "RSA 1024", cert: testcerts.Chain(weak, rsaRoot), key: weak.KeyPEM, refused: true,
			want: []string{"certificate-weak: its RSA key has 1024 bits, under 2048 (ee key too small)"}},
		{name: "SHA-1 signature", cert: testcerts.Chain(sha1, inter), key: sha1.KeyPEM, refused: true,
			want: []string{"certificate-weak: it is signed with SHA-1"}},
		{name: "not a certificate", cert: []byte("hello\n"), key: leaf.KeyPEM, refused: true,
			want: []string{"certificate-key-mismatch: cannot load certificate \"CERT\": PEM_read_bio_X509_AUX() failed"}},
		{name: "not a key", cert: testcerts.Chain(leaf, inter), key: leaf.PEM, refused: true,
			want: []string{"certificate-key-mismatch: cannot load certificate key \"KEY\": PEM_read_bio_PrivateKey() failed"}},
	}
}

// certConf writes a case's files under dir and returns the configuration
// of one TLS server on loopback that uses them, with a root for the
// short-chain check (the test's CA, as ssl_trusted_certificate).
func certConf(t *testing.T, dir string, c certCase, trusted []byte) string {
	t.Helper()
	certPath, keyPath, rootPath := filepath.Join(dir, "server.crt"), filepath.Join(dir, "server.key"), filepath.Join(dir, "root.crt")
	for p, b := range map[string][]byte{certPath: c.cert, keyPath: c.key, rootPath: trusted} {
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	names := c.names
	if names == "" {
		names = "a.example"
	}
	return fmt.Sprintf("events {}\nhttp {\n    server {\n        listen 127.0.0.1:18443 ssl;\n        server_name %s;\n        ssl_certificate %s;\n        ssl_certificate_key %s;\n    }\n}\n",
		names, certPath, keyPath)
}

// TestCertificateAudit: each case's findings are the certificate rules'
// at the ssl_certificate (or _key) line; a valid chain, a self-signed
// certificate and a file holding key and chain have none. Without
// check-files the rules stay quiet.
func TestCertificateAudit(t *testing.T) {
	for _, c := range certCases() {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			src := certConf(t, dir, c, nil)
			got := certFindings(t, dir, src, true)
			var msgs []string
			for _, d := range got {
				msgs = append(msgs, d.Name+": "+d.Message)
				if d.Name == rules.CertificateKeyMismatch.Name && d.Severity != parser.Error {
					t.Errorf("%s is a %v, want an error (nginx refuses it)", d.Message, d.Severity)
				}
				line := d.Start().Line
				if want := 6; d.Name == rules.CertificateKeyMismatch.Name && strings.Contains(d.Message, "key") {
					want = 7
					if line != want {
						t.Errorf("%s at line %d, want %d (ssl_certificate_key)", d.Name, line, want)
					}
				} else if line != want {
					t.Errorf("%s at line %d, want %d (ssl_certificate)", d.Name, line, want)
				}
				if d.Detail == "" {
					t.Errorf("%s: no detail saying what to do", d.Message)
				}
			}
			for _, w := range c.want {
				rule, part, _ := strings.Cut(w, ": ")
				part = strings.NewReplacer("CERT", filepath.Join(dir, "server.crt"), "KEY", filepath.Join(dir, "server.key")).Replace(part)
				if !slices.ContainsFunc(msgs, func(m string) bool { return strings.HasPrefix(m, rule+": ") && strings.Contains(m, part) }) {
					t.Errorf("no %s finding with %q in\n%s", rule, part, strings.Join(msgs, "\n"))
				}
			}
			if len(msgs) != len(c.want) {
				t.Errorf("%d findings, want %d:\n%s", len(msgs), len(c.want), strings.Join(msgs, "\n"))
			}
			if off := certFindings(t, dir, src, false); len(off) != 0 {
				t.Errorf("without check-files: %v", off)
			}
		})
	}
}

// certFindings lints src (in dir) with the certificate rules alone.
func certFindings(t *testing.T, dir, src string, checkFiles bool) []*parser.Diagnostic {
	t.Helper()
	path := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := (&parser.Loader{Kinds: analyzer.Kinds}).Load(path)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := analyzer.NewRegistry(certRules...)
	if err != nil {
		t.Fatal(err)
	}
	return lintFindings(c, reg, analyzer.Options{CheckFiles: checkFiles})
}

// TestCertificateExpiryDays: cert-expiry-days moves the window: a
// certificate that expires in ten days is quiet at 5, reported at 21.
func TestCertificateExpiryDays(t *testing.T) {
	soon := testcerts.New(testcerts.Options{CN: "a.example", NotAfter: time.Now().Add(10 * 24 * time.Hour)})
	dir := t.TempDir()
	src := certConf(t, dir, certCase{cert: soon.PEM, key: soon.KeyPEM}, nil)
	path := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := (&parser.Loader{Kinds: analyzer.Kinds}).Load(path)
	if err != nil {
		t.Fatal(err)
	}
	reg, _ := analyzer.NewRegistry(rules.CertificateExpiring)
	for days, want := range map[int]int{5: 0, 9: 0, 11: 1, 21: 1} {
		got := lintFindings(c, reg, analyzer.Options{CheckFiles: true, RuleOptions: map[string]map[string]any{rules.CertificateExpiring.Name: {"cert-expiry-days": days}}})
		if len(got) != want {
			t.Errorf("cert-expiry-days %d: %d findings, want %d", days, len(got), want)
		}
	}
}

// TestCertificateAuditPrivateRoot: a server certificate issued straight
// by a private root is a short chain until the root is named in
// ssl_trusted_certificate.
func TestCertificateAuditPrivateRoot(t *testing.T) {
	root := testcerts.New(testcerts.Options{CN: "Private Root", CA: true})
	leaf := testcerts.New(testcerts.Options{CN: "a.example", Parent: root})
	dir := t.TempDir()
	src := certConf(t, dir, certCase{cert: leaf.PEM, key: leaf.KeyPEM}, root.PEM)
	if got := certFindings(t, dir, src, true); len(got) != 1 || got[0].Name != rules.CertificateChain.Name {
		t.Errorf("without the root: %v, want a certificate-chain finding", got)
	}
	src = strings.Replace(src, "        ssl_certificate ", "        ssl_trusted_certificate "+filepath.Join(dir, "root.crt")+";\n        ssl_certificate ", 1)
	if got := certFindings(t, dir, src, true); len(got) != 0 {
		t.Errorf("with the root in ssl_trusted_certificate: %v", got)
	}
}

// TestCertificateAuditAgainstNginx holds the severities to nginx's
// verdict: nginx -t refuses a configuration exactly when a certificate
// rule reports an error (a key that does not match, a file it cannot
// load, a weak key or signature), and accepts the expired, short,
// disordered-but-matching and misnamed ones, which are warnings.
func TestCertificateAuditAgainstNginx(t *testing.T) {
	ngx := nginxtest.Require(t)
	for _, c := range certCases() {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			src := certConf(t, dir, c, nil)
			src = "pid " + filepath.Join(dir, "nginx.pid") + ";\n" + src
			res, err := nginxtest.Test(context.Background(), ngx, writeFile(t, dir, "nginx.conf", src))
			if err != nil {
				t.Fatal(err)
			}
			errs := 0
			for _, d := range certFindings(t, dir, src, true) {
				if d.Severity == parser.Error {
					errs++
				}
			}
			if res.OK != (errs == 0) || res.OK == c.refused {
				t.Errorf("nginx -t ok=%v (want %v), our errors: %d\n%s", res.OK, !c.refused, errs, res.Stderr)
			}
		})
	}
}

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

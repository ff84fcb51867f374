package fix_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/fix"
	"github.com/nginx-lint/nginx-lint/parser/corpustest"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// walf443Rules maps the walf443/nginx-lint rules whose findings carry a
// fix in both tools to ours.
var walf443Rules = map[string]string{
	"deprecation/listen_http2_deprecated":          "deprecated",
	"deprecation/ssl_on_deprecated":                "deprecated",
	"security/server_tokens_enabled":               "version-disclosure",
	"security/deprecated_ssl_protocol":             "weak-ssl-tls",
	"security/weak_ssl_ciphers":                    "weak-ssl-tls",
	"best_practices/map_missing_default":           "map-without-default",
	"syntax/duplicate_directive":                   "duplicate-directive",
	"best_practices/alias_location_slash_mismatch": "alias-slash-mismatch",
	"best_practices/directive_inheritance":         "directive-inheritance",
}

// walf443Targets are the nginx versions the fixtures of a plugin are fixed
// for: a fix is applied only when the target accepts its result, and with
// no target only when the configuration already needs that nginx; "listen
// ... http2" becomes "http2 on", which needs 1.25.1.
var walf443Targets = map[string]string{"deprecation/listen_http2_deprecated": "1.25.1"}

// TestFixWalf443Fixtures runs the fix on the error fixtures of the mapped
// walf443 rules: the result must be clean for our rule, a second fix must
// change nothing, and where the real nginx accepted the input it must
// accept the result.
func TestFixWalf443Fixtures(t *testing.T) {
	root := filepath.Join(corpustest.Root(t), "walf443", "plugins", "builtin")
	nginx, nginxErr := nginxtest.Find()
	if nginxErr != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("nginx not found under CI=true: %v", nginxErr)
		}
		t.Logf("nginx not found, the nginx -t comparison is skipped: %v", nginxErr)
	}
	keys := make([]string, 0, len(walf443Rules))
	for k := range walf443Rules {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fixtures, compared := 0, 0
	for _, plugin := range keys {
		rule := walf443Rules[plugin]
		paths, _ := filepath.Glob(filepath.Join(root, plugin, "tests", "fixtures", "*", "error", "nginx.conf"))
		if len(paths) == 0 {
			t.Errorf("%s: no fixtures", plugin)
		}
		for _, p := range paths {
			name := plugin + "/" + filepath.Base(filepath.Dir(filepath.Dir(p)))
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			files := map[string]string{"/t/nginx.conf": string(src)}
			opts := analyzer.Options{}
			if v := walf443Targets[plugin]; v != "" {
				opts.Target = &analyzer.Target{Version: v}
			}
			linter := func() fix.Linter { return memLinterFor(files, opts) }
			if !reports(linter(), rule) {
				// walf443 flags more than our rule does (e.g. "HIGH"
				// without exclusions): not a case of ours.
				t.Logf("%s: %s does not report the input", name, rule)
				continue
			}
			fixtures++
			res, err := fix.Run(linter())
			if err != nil {
				t.Fatal(err)
			}
			out, ok := res.Fixed["/t/nginx.conf"]
			if !ok {
				t.Errorf("%s: nothing fixed", name)
				continue
			}
			files["/t/nginx.conf"] = string(out)
			left, _ := linter()(nil)
			for _, d := range left {
				if d.Name == rule {
					t.Errorf("%s: %s still reported after --fix: %s\n%s", name, rule, d.Message, out)
				}
			}
			if again, _ := fix.Run(linter()); len(again.Fixed) != 0 {
				t.Errorf("%s: a second fix changed the file", name)
			}
			if nginxErr != nil || opts.Target != nil {
				continue // fixed for an nginx newer than the one here
			}
			before, err := nginxTest(t, nginx, src)
			if err != nil {
				continue // not loopback-only: not run
			}
			if !before.OK {
				t.Logf("%s: nginx -t refuses the input: %v", name, before.Errors())
				continue
			}
			compared++
			after, err := nginxTest(t, nginx, out)
			if err != nil {
				t.Fatal(err)
			}
			if !after.OK {
				t.Errorf("%s: nginx accepted the input but not the fixed config: %v\n%s", name, after.Errors(), out)
			}
		}
	}
	t.Logf("%d fixtures fixed, %d compared with nginx -t", fixtures, compared)
	if fixtures < len(walf443Rules) {
		t.Errorf("only %d fixtures", fixtures)
	}
	if nginxErr == nil && compared < 5 {
		t.Errorf("only %d fixtures compared with nginx -t", compared)
	}
}

func reports(lint fix.Linter, rule string) bool {
	ds, _ := lint(nil)
	for _, d := range ds {
		if d.Name == rule {
			return true
		}
	}
	return false
}

// wildcardListen matches the "listen PORT" forms of the fixtures, which
// the test moves to loopback before nginx sees them.
var (
	wildcardListen  = regexp.MustCompile(`(?m)^(\s*listen\s+)(\d+)`)
	wildcardListen6 = regexp.MustCompile(`(?m)^(\s*listen\s+)\[::\]:(\d+)`)
	certificate     = regexp.MustCompile(`(?m)^(\s*ssl_certificate)\s+[^;]+;`)
	certificateKey  = regexp.MustCompile(`(?m)^(\s*ssl_certificate_key)\s+[^;]+;`)
)

var (
	httpBlock   = regexp.MustCompile(`(?m)^\s*http\s*\{`)
	topServer   = regexp.MustCompile(`(?m)^server\s*\{`)
	eventsBlock = regexp.MustCompile(`(?m)^\s*events\s*\{`)
)

// nginxTest runs nginx -t on a fixture made whole: most are fragments (a
// server, or an http block without events), which nginx refuses for that
// alone.
func nginxTest(t *testing.T, nginx string, conf []byte) (nginxtest.Result, error) {
	dir := t.TempDir()
	conf = wildcardListen.ReplaceAll(conf, []byte("${1}127.0.0.1:2${2}"))
	conf = wildcardListen6.ReplaceAll(conf, []byte("${1}[::1]:2${2}"))
	if certificate.Match(conf) {
		cert, key := selfSigned(t, dir)
		conf = certificate.ReplaceAll(conf, []byte("${1} "+cert+";"))
		conf = certificateKey.ReplaceAll(conf, []byte("${1} "+key+";"))
	}
	if !httpBlock.Match(conf) && topServer.Match(conf) {
		conf = append(append([]byte("http {\n"), conf...), "}\n"...)
	}
	if !eventsBlock.Match(conf) {
		conf = append([]byte("events {}\n"), conf...)
	}
	p := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(p, conf, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := nginxtest.CheckLoopback(p); err != nil {
		if errors.Is(err, nginxtest.ErrNotLoopback) {
			return nginxtest.Result{}, err
		}
		return nginxtest.Result{}, err
	}
	return nginxtest.Test(context.Background(), nginx, p, nginxtest.WithPrefix(dir))
}

// selfSigned writes a throwaway certificate and key for the fixtures'
// ssl servers (their own paths do not exist here).
func selfSigned(t *testing.T, dir string) (cert, key string) {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "example.com"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	cert, key = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		t.Fatal(err)
	}
	return cert, key
}

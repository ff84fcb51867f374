package rules_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// TestThirdPartySlotsNginx has the real nginx judge the directives of the
// third-party modules installed beside it whose handler is one of nginx's
// generic slots (read from the modules' command tables): each given
// twice, with a bogus value, and with a valid one. Where nginx refuses at
// a line, the rules must report an error there; where it accepts, none.
// A directive this build's older copy of the module lacks ("unknown
// directive") gives no verdict on the slot and is counted apart.
func TestThirdPartySlotsNginx(t *testing.T) {
	if testing.Short() {
		t.Skip("runs nginx a few hundred times")
	}
	nginx := nginxtest.Require(t)
	info := nginxBuild(t, nginx)
	objects := installedObjects(info)
	// nginx runs on this machine: the files it loads are checked too.
	opts := analyzer.Options{Target: analyzer.BuildTarget(info),
		RuleOptions: map[string]map[string]any{rules.MissingFile.Name: {analyzer.CheckFilesOption.Name(): true}}}
	reg := rules.All()
	ca, crl := tlsFiles(t)
	// Values the module itself reads further than its slot: a cipher
	// list OpenSSL accepts, an SSL_CONF command it knows, files it loads.
	validFor := map[string]string{"lua_ssl_ciphers": "HIGH:!aNULL", "lua_ssl_conf_command": "Options PrioritizeChaCha",
		"lua_ssl_trusted_certificate": ca, "lua_ssl_crl": crl}
	good := map[directives.ValueKind]string{directives.ValueFlag: "on", directives.ValueNum: "1", directives.ValueSize: "1k",
		directives.ValueOff: "1k", directives.ValueMsec: "1s", directives.ValueSec: "1s", directives.ValueStr: "x",
		directives.ValueStrArray: "x", directives.ValueBufs: "4 8k", directives.ValueKeyval: "a b"}
	type probe struct{ what, conf string }
	var probes []probe
	for _, row := range directives.All() {
		if !row.ThirdParty || row.Value == nil || row.Value.Kind == directives.ValueCustom || row.Contexts&directives.Location == 0 {
			continue
		}
		load, ok := loadLines(row, info, objects)
		if !ok || load == "" {
			continue
		}
		v := good[row.Value.Kind]
		if row.Value.Kind == directives.ValueEnum || row.Value.Kind == directives.ValueBitmask {
			if len(row.Value.Values) == 0 {
				continue
			}
			v = row.Value.Values[0]
		}
		if o, ok := validFor[row.Name]; ok {
			v = o
		}
		if v == "" {
			continue
		}
		for _, c := range []struct{ how, body string }{
			{"twice", row.Name + " " + v + ";\n            " + row.Name + " " + v + ";"},
			{"bogus", row.Name + " bogus_x;"},
			{"valid", row.Name + " " + v + ";"},
		} {
			probes = append(probes, probe{row.Name + " " + c.how, load + "events {}\nhttp {\n    server {\n        listen 127.0.0.1:18937;\n" +
				"        location / {\n            " + c.body + "\n        }\n    }\n}\n"})
		}
	}
	var (
		wg                                sync.WaitGroup
		mu                                sync.Mutex
		refused, accepted, older, checked int
		sem                               = make(chan struct{}, 2)
	)
	for _, pr := range probes {
		f := parser.ParseFile("/t/nginx.conf", []byte(pr.conf), &parser.Options{Kinds: analyzer.Kinds})
		cfg := &parser.Config{Main: f, Files: []*parser.File{f}}
		errLines := map[int]string{}
		var errCalls []string
		for _, d := range ruleFindings(cfg, reg, opts) {
			if d.Severity == parser.Error {
				errLines[f.Line(int(d.Range.Start))] = d.Message
				errCalls = append(errCalls, callOf(d.Message))
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			res, err := nginxtest.TestData(context.Background(), nginx, []byte(pr.conf), nginxtest.Quiet())
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			checked++
			errs := res.Errors()
			switch {
			case len(errs) == 0:
				accepted++
				if len(errLines) > 0 {
					t.Errorf("%s: nginx accepts, the rules report %v:\n%s", pr.what, errLines, pr.conf)
				}
			case strings.HasPrefix(errs[0].Text, "unknown directive"):
				older++
			default:
				refused++
				// nginx reports what fails when the module creates its
				// SSL context without a line: the rules must report the
				// same failing call (SSL_CTX_set_cipher_list, ...).
				if _, ok := errLines[errs[0].Line]; !ok && !(errs[0].Line == 0 && slices.Contains(errCalls, callOf(errs[0].Text))) {
					t.Errorf("%s: nginx says %q at line %d, the rules %v:\n%s", pr.what, errs[0].Text, errs[0].Line, errLines, pr.conf)
				}
			}
		}()
	}
	wg.Wait()
	t.Logf("%d probes: nginx refuses %d, accepts %d; %d name a directive this build's module lacks", checked, refused, accepted, older)
	if refused < 50 || accepted < 30 {
		t.Errorf("too few verdicts (refused %d, accepted %d): are the third-party modules installed (.ci/run)?", refused, accepted)
	}
}

// callOf is the call an OpenSSL failure message names, up to its "(":
// SSL_CTX_set_cipher_list, X509_LOOKUP_load_file.
func callOf(msg string) string {
	call, _, _ := strings.Cut(msg, "(")
	return call
}

// tlsFiles writes a CA certificate and an empty CRL it signs, in PEM, for
// the directives that load them, and returns their paths.
func tlsFiles(t *testing.T) (ca, crl string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "nginx-lint test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour), IsCA: true,
		BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageCRLSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	crlDER, err := x509.CreateRevocationList(rand.Reader, &x509.RevocationList{Number: big.NewInt(1),
		ThisUpdate: time.Now().Add(-time.Hour), NextUpdate: time.Now().Add(24 * time.Hour)}, cert, key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ca, crl = filepath.Join(dir, "ca.pem"), filepath.Join(dir, "crl.pem")
	for path, block := range map[string]*pem.Block{ca: {Type: "CERTIFICATE", Bytes: der}, crl: {Type: "X509 CRL", Bytes: crlDER}} {
		if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return ca, crl
}

package lsp

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/nginx-lint/nginx-lint/internal/testcerts"
)

// TestCertificateAuditInEditor: with check-files on in the settings the
// language server runs the rules that read this machine's files, the
// certificate audit among them: a key that is not the certificate's is
// an error at the ssl_certificate_key line, as on the command line.
// Without it they stay quiet (a checkout's certificates are elsewhere).
func TestCertificateAuditInEditor(t *testing.T) {
	leaf := testcerts.New(testcerts.Options{CN: "a.example"})
	other := testcerts.New(testcerts.Options{CN: "a.example"})
	for _, on := range []bool{true, false} {
		settings := "rules:\n  missing-file: off\n"
		if on {
			settings += "check-files: true\n"
		}
		s, c, dir := setup(t, map[string]string{".nginx-lint.yaml": settings, "a.crt": string(leaf.PEM), "a.key": string(other.KeyPEM)})
		text := fmt.Sprintf("events {}\nhttp {\n    server {\n        listen 443 ssl;\n        server_name a.example;\n        ssl_certificate %s;\n        ssl_certificate_key %s;\n    }\n}\n",
			filepath.Join(dir, "a.crt"), filepath.Join(dir, "a.key"))
		uri := open(t, s, c, filepath.Join(dir, "nginx.conf"), text)
		var got []string
		for _, d := range c.diags(uri) {
			got = append(got, fmt.Sprintf("%v@%d", d.Code.Value, d.Range.Start.Line))
		}
		want := 0
		if on {
			want = 1
		}
		if len(got) != want || on && got[0] != "NL2072@6" {
			t.Errorf("check-files %v: %v, want NL2072@6 when on", on, got)
		}
	}
}

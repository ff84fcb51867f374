//go:build unix

package editors_test

import (
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/internal/testfiles"
)

// TestEmacs drives batch Emacs with the shipped emacs/nginx-lint.el and
// eglot (Debian 12: emacs-nox and elpa-eglot) against the server built
// from this checkout: a site file's project is the directory of the
// nginx.conf above it, so eglot reads it in that nginx.conf (definition
// from its proxy_pass reaches the upstream nginx.conf defines), and
// completion after "$" replaces from the "$" on; declaration, workspace
// symbols through xref's apropos, formatting of a region (range
// formatting), and snippets/*.conf in nginx-mode anywhere.
func TestEmacs(t *testing.T) {
	emacs := require(t, "emacs", "apt-get install --no-install-recommends emacs-nox elpa-eglot")
	if err := exec.Command(emacs, "--batch", "-q", "--eval", "(require 'eglot)").Run(); err != nil {
		missing(t, "Emacs has no eglot (apt-get install elpa-eglot): %v", err)
	}
	bin := buildServer(t)
	top := t.TempDir()
	root := filepath.Join(top, "etc", "nginx")
	testfiles.Write(t, root, map[string]string{
		"nginx.conf":              "events {}\nhttp {\n    upstream Backend { server 127.0.0.1:9000; }\n    include sites-enabled/*;\n}\n",
		"sites-enabled/site.conf": "server {\n    listen 80;\n  server_name a;\n    location / { proxy_pass http://backend; return 200 $ho; }\n      root /srv;\n}\n",
	})
	// A snippet outside any directory named nginx.
	testfiles.Write(t, filepath.Join(top, "srv", "site"), map[string]string{"snippets/ssl.conf": "ssl_protocols TLSv1.3;\n"})
	runEmacs(t, 2*time.Minute, emacs, bin, top, root, "eglot-test.el")
}

package lint_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/internal/testfiles"
	"github.com/nginx-lint/nginx-lint/parser"
)

// debianFile reads a file of the Debian layout in testdata.
func debianFile(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "layouts", "debian", "etc", "nginx", rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// lintNamed lints path, named alone on the command line from the working
// directory wd, and returns its findings and the files read.
func lintNamed(t *testing.T, wd, path string) ([]*parser.Diagnostic, []string) {
	t.Helper()
	t.Chdir(wd)
	rep, err := (&lint.Workspace{}).Lint([]lint.Target{lint.FileTarget(path)})
	if err != nil {
		t.Fatal(err)
	}
	var read []string
	for _, e := range rep.Units {
		for _, f := range e.Config.Files {
			read = append(read, filepath.Base(f.Path))
		}
	}
	return rep.Findings, read
}

func errorsOf(ds []*parser.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		if d.Severity == parser.Error {
			out = append(out, d.Code+" "+d.Message)
		}
	}
	return out
}

// TestFileAloneOnLiveServer: Debian's snippets/fastcgi-php.conf, named
// alone on a live server (its conf prefix outside any repository, not a
// copy of /etc/nginx), finds the nginx.conf above it as its conf prefix
// from any working directory, so its "include fastcgi.conf;" reads the
// prefix's fastcgi.conf, as nginx reads it: no error. The search goes up
// three directories at most, and never above the file system's root.
func TestFileAloneOnLiveServer(t *testing.T) {
	dir := t.TempDir()
	srv := filepath.Join(dir, "srv", "nginx")
	testfiles.Write(t, srv, map[string]string{
		"nginx.conf":                debianFile(t, "nginx.conf"),
		"fastcgi.conf":              debianFile(t, "fastcgi.conf"),
		"mime.types":                debianFile(t, "mime.types"),
		"snippets/fastcgi-php.conf": debianFile(t, "snippets/fastcgi-php.conf"),
		"a/b/c/deep.conf":           "fastcgi_index index.php;\ninclude fastcgi.conf;\n",
		"a/b/c/d/deeper.conf":       "fastcgi_index index.php;\ninclude fastcgi.conf;\n",
	})
	snippet := filepath.Join(srv, "snippets", "fastcgi-php.conf")
	for _, c := range []struct{ wd, path string }{
		{srv, "snippets/fastcgi-php.conf"},
		{filepath.Join(srv, "snippets"), "fastcgi-php.conf"},
		{dir, snippet},
		{"/", snippet},
		{filepath.Join(srv, "a"), "../snippets/fastcgi-php.conf"},
		{srv, "a/b/c/deep.conf"},
	} {
		found, read := lintNamed(t, c.wd, c.path)
		if errs := errorsOf(found); len(errs) > 0 || !slices.Contains(read, "fastcgi.conf") {
			t.Errorf("%s from %s: errors %q, read %q (want fastcgi.conf of the conf prefix)", c.path, c.wd, errs, read)
		}
	}
	// Four directories up is beyond the search: the conf prefix is not
	// found, so fastcgi.conf is not read (and, being the nginx package's
	// file, is left to the deployment host, no error).
	found, read := lintNamed(t, srv, "a/b/c/d/deeper.conf")
	if errs := errorsOf(found); len(errs) > 0 || slices.Contains(read, "fastcgi.conf") {
		t.Errorf("deeper.conf: errors %q, read %q", errs, read)
	}

	// The machine's own Debian tree, when it has one.
	if _, err := os.Stat("/etc/nginx/snippets/fastcgi-php.conf"); err == nil {
		for _, c := range []struct{ wd, path string }{
			{"/", "/etc/nginx/snippets/fastcgi-php.conf"},
			{"/etc/nginx", "snippets/fastcgi-php.conf"},
			{"/etc/nginx/snippets", "fastcgi-php.conf"},
			{dir, "/etc/nginx/snippets/fastcgi-php.conf"},
		} {
			found, read := lintNamed(t, c.wd, c.path)
			if errs := errorsOf(found); len(errs) > 0 || !slices.Contains(read, "fastcgi.conf") {
				t.Errorf("this machine's %s from %s: errors %q, read %q", c.path, c.wd, errs, read)
			}
		}
	}
}

// TestDeploymentHostFiles: in a checkout, an include of a file that
// certbot or the nginx package installs on the deployment host, and that
// this machine lacks, is no error but an information with the hint to map
// it; the configuration counts as incomplete. A missing file of the
// checkout's own stays an include error.
func TestDeploymentHostFiles(t *testing.T) {
	dir := t.TempDir()
	site := "server {\n" +
		"    listen 443 ssl; # managed by Certbot\n" +
		"    server_name example.com;\n" +
		"    ssl_certificate /etc/letsencrypt/live/example.com/fullchain.pem; # managed by Certbot\n" +
		"    ssl_certificate_key /etc/letsencrypt/live/example.com/privkey.pem; # managed by Certbot\n" +
		"    include /etc/letsencrypt/options-ssl-nginx.conf; # managed by Certbot\n" +
		"    ssl_dhparam /etc/letsencrypt/ssl-dhparams.pem; # managed by Certbot\n" +
		"    location ~ \\.php$ {\n" +
		"        include snippets/fastcgi-php.conf;\n" +
		"        fastcgi_pass unix:/run/php/php-fpm.sock;\n" +
		"    }\n" +
		"    location /app {\n" +
		"        include fastcgi_params;\n" +
		"        fastcgi_pass 127.0.0.1:9000;\n" +
		"    }\n" +
		"}\n"
	testfiles.Write(t, dir, map[string]string{
		"repo/.git/HEAD":                "ref: refs/heads/main\n",
		"repo/sites-available/example":  site,
		"repo/sites-available/own.conf": "server {\n    include /etc/letsencrypt/custom.conf;\n    include app/missing.conf;\n}\n",
	})
	if _, err := os.Stat("/etc/letsencrypt/options-ssl-nginx.conf"); err == nil {
		t.Skip("this machine has certbot's files: the checkout's include would read them")
	}
	repo := filepath.Join(dir, "repo")
	found, _ := lintNamed(t, repo, "sites-available/example")
	if errs := errorsOf(found); len(errs) > 0 {
		t.Errorf("certbot's site: errors %q", errs)
	}
	var hints []string
	for _, d := range found {
		if d.Code == parser.CodeUnreadable && d.Severity == parser.Info && strings.Contains(d.Detail, "include-paths") {
			hints = append(hints, d.Message)
		}
	}
	want := []string{
		`included file "/etc/letsencrypt/options-ssl-nginx.conf" is not read: certbot installs it on the deployment host`,
		`included file "` + filepath.Join(repo, "sites-available", "snippets", "fastcgi-php.conf") + `" is not read: the nginx package installs it on the deployment host`,
		`included file "` + filepath.Join(repo, "sites-available", "fastcgi_params") + `" is not read: the nginx package installs it on the deployment host`,
	}
	if !slices.Equal(hints, want) {
		t.Errorf("hints %q\nwant %q", hints, want)
	}
	found, _ = lintNamed(t, repo, "sites-available/own.conf")
	if errs := errorsOf(found); len(errs) != 2 || !strings.Contains(errs[0], "/etc/letsencrypt/custom.conf") || !strings.Contains(errs[1], "missing.conf") {
		t.Errorf("the checkout's own missing files: %q, want two include errors", errs)
	}
}

// TestIncludesOnlyFragment: a snippet made only of includes (h5bp's
// basic.conf) says nothing about where it goes, since include is allowed
// everywhere; once its includes resolve it is linted in the context the
// files it includes suggest (a server's add_header and location), not in
// the main context, where each of their directives would be an error.
func TestIncludesOnlyFragment(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{
		"nginx.conf":                  "events {}\nhttp {\n    include conf.d/*.conf;\n}\n",
		"h5bp/basic.conf":             "include h5bp/security/headers.conf;\ninclude h5bp/location/*.conf;\n",
		"h5bp/security/headers.conf":  "add_header X-Content-Type-Options nosniff always;\n",
		"h5bp/location/dotfiles.conf": "location ~* /\\.(?!well-known\\/) {\n    deny all;\n}\n",
	})
	found, read := lintNamed(t, dir, "h5bp/basic.conf")
	if errs := errorsOf(found); len(errs) > 0 || !slices.Contains(read, "headers.conf") || !slices.Contains(read, "dotfiles.conf") {
		t.Errorf("errors %q, read %q", errs, read)
	}
}

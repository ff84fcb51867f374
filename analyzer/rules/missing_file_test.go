package rules_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/config"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// TestMissingFile: with check-files, the files nginx loads at startup
// and lacks here are reported, relative ones against the prefix; files
// nginx does not load then (no TLS in the server, no client
// verification, variables, auth_basic_user_file) are not; without the
// option nothing is.
func TestMissingFile(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"present.crt", "present.key"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	conf := `events {}
http {
    ssl_dhparam dh.pem;
    server {
        listen 443 ssl;
        ssl_certificate present.crt;
        ssl_certificate_key missing.key;
        ssl_client_certificate unverified.crt;
    }
    server {
        listen 8443 ssl;
        ssl_certificate ` + filepath.Join(dir, "present.crt") + `;
        ssl_certificate_key present.key;
        ssl_certificate /abs/missing-$ssl_server_name.crt;
        ssl_certificate_key /abs/missing-$ssl_server_name.key;
        ssl_verify_client on;
        ssl_client_certificate ca.crt;
        ssl_password_file pass.txt;
    }
    server {
        listen 80;
        ssl_trusted_certificate not-loaded.crt;
        auth_basic x;
        auth_basic_user_file htpasswd;
    }
}
`
	path := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := (&parser.Loader{Kinds: analyzer.Kinds}).Load(path)
	if err != nil {
		t.Fatal(err)
	}
	run := func(on bool) []string {
		opts := analyzer.Options{RuleOptions: map[string]map[string]any{rules.MissingFile.Name: {analyzer.CheckFilesOption.Name(): on}}}
		var got []string
		for _, d := range lintFindings(c, rules.All(), opts) {
			if d.Name == rules.MissingFile.Name {
				got = append(got, strings.ReplaceAll(d.Message, dir, "DIR"))
			}
		}
		sort.Strings(got)
		return got
	}
	want := []string{
		`BIO_new_file("DIR/dh.pem") failed (No such file or directory)`,
		`SSL_CTX_load_verify_locations("DIR/ca.crt") failed (No such file or directory)`,
		`cannot load certificate key "DIR/missing.key": BIO_new_file() failed (No such file or directory)`,
		`open() "DIR/pass.txt" failed (2: No such file or directory)`,
	}
	if got := run(true); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("with check-files got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := run(false); len(got) != 0 {
		t.Errorf("without check-files got %v", got)
	}
}

// TestCheckFilesSetting: check-files: true in .nginx-lint.yaml sets the
// run's CheckFiles, which runs the rules marked Host: the three that
// check this machine.
func TestCheckFilesSetting(t *testing.T) {
	f, err := config.Parse("/x/.nginx-lint.yaml", []byte("check-files: true\n"))
	if err != nil {
		t.Fatal(err)
	}
	var opts analyzer.Options
	if err := f.Apply(&opts, rules.All().Lookup); err != nil {
		t.Fatal(err)
	}
	if !opts.CheckFiles {
		t.Error("check-files did not reach the run")
	}
	var host []string
	for _, r := range rules.All().Rules() {
		if r.Host {
			host = append(host, r.Name)
		}
	}
	if want := []string{rules.MissingFile.Name, rules.HostNotFound.Name, rules.UnknownUser.Name, rules.CertificateExpired.Name, rules.CertificateExpiring.Name,
		rules.CertificateKeyMismatch.Name, rules.CertificateChain.Name, rules.CertificateNameMismatch.Name, rules.CertificateWeak.Name}; !slices.Equal(host, want) {
		t.Errorf("the rules that check this machine: %q, want %q", host, want)
	}
}

// TestHostNotFoundNginx: with check-files, host-not-found reports what
// nginx reports for names that do not resolve (.invalid never does), at
// its line, and nothing for names that do (localhost), for upstream
// blocks, IP addresses and variables.
func TestHostNotFoundNginx(t *testing.T) {
	nginx := nginxtest.Require(t)
	cases := []string{
		"server { listen 127.0.0.1:18940; location / { proxy_pass http://backend.invalid:8080/x; } }",
		"server { listen 127.0.0.1:18940; location / { fastcgi_pass backend.invalid:9000; } }",
		"upstream u { server backend.invalid:81; } server { listen 127.0.0.1:18940; }",
		"server { listen 127.0.0.1:18940; resolver backend.invalid; }",
		"server { listen 127.0.0.1:18940; location / { proxy_pass http://localhost:8080; } }",
		"upstream u { server localhost:81; } server { listen 127.0.0.1:18940; location / { proxy_pass http://U; } }",
		"server { listen 127.0.0.1:18940; location / { proxy_pass http://$host.invalid; } }",
		"server { listen 127.0.0.1:18940; resolver 127.0.0.1 valid=30s; location / { grpc_pass 127.0.0.1:50051; } }",
	}
	opts := analyzer.Options{RuleOptions: map[string]map[string]any{rules.HostNotFound.Name: {analyzer.CheckFilesOption.Name(): true}}}
	notFound := 0
	for _, body := range cases {
		conf := "events {}\nhttp {\n    access_log off;\n    " + body + "\n}\n"
		res, err := nginxtest.TestData(context.Background(), nginx, []byte(conf), nginxtest.Quiet())
		if err != nil {
			t.Fatal(err)
		}
		var want string
		if errs := res.Errors(); len(errs) > 0 {
			want = errs[0].Text
		}
		f := parser.ParseFile("/t/nginx.conf", []byte(conf), &parser.Options{Kinds: analyzer.Kinds})
		var got string
		for _, d := range lintFindings(&parser.Config{Main: f, Files: []*parser.File{f}}, rules.All(), opts) {
			if d.Name == rules.HostNotFound.Name {
				if d.Start().Line != 4 {
					t.Errorf("%s: line %d, nginx says 4", body, d.Start().Line)
				}
				got = d.Message
			}
		}
		if strings.HasPrefix(want, "host not found") != (got != "") || got != "" && got != want {
			t.Errorf("%s:\nnginx: %q\nwe:    %q", body, want, got)
		}
		if strings.HasPrefix(want, "host not found") {
			notFound++
		}
	}
	if notFound != 4 {
		t.Errorf("nginx found %d unresolvable hosts, the cases have 4", notFound)
	}
}

// TestUnknownUserNginx: with check-files, unknown-user says what nginx
// (run as root) says about the user directive, on the line nginx gives.
func TestUnknownUserNginx(t *testing.T) {
	nginx := nginxtest.Require(t)
	if os.Geteuid() != 0 {
		t.Skip("nginx checks users only when run as root")
	}
	opts := analyzer.Options{RuleOptions: map[string]map[string]any{rules.UnknownUser.Name: {analyzer.CheckFilesOption.Name(): true}}}
	failed := 0
	for _, u := range []string{"nginx-lint-no-such-user", "root nginx-lint-no-such-group", "nobody", "root", "root root", "nobody nogroup"} {
		conf := "user " + u + ";\nevents {}\n"
		res, err := nginxtest.TestData(context.Background(), nginx, []byte(conf), nginxtest.Quiet())
		if err != nil {
			t.Fatal(err)
		}
		var want string
		if errs := res.Errors(); len(errs) > 0 {
			want = errs[0].Text
		}
		f := parser.ParseFile("/t/nginx.conf", []byte(conf), &parser.Options{Kinds: analyzer.Kinds})
		var got string
		for _, d := range lintFindings(&parser.Config{Main: f, Files: []*parser.File{f}}, rules.All(), opts) {
			if d.Name == rules.UnknownUser.Name {
				got = d.Message
			}
		}
		if got != want {
			t.Errorf("user %s: nginx %q, we %q", u, want, got)
		}
		if want != "" {
			failed++
		}
	}
	if failed < 2 {
		t.Errorf("nginx rejected only %d of the users", failed)
	}
}

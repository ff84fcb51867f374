package rules_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/config"
	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
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
		opts := analyzer.Options{RuleOptions: map[string]map[string]any{rules.MissingFile.Name: {rules.CheckFilesOption: on}}}
		var got []string
		for _, d := range lint.Run(c, rules.All(), opts) {
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

// TestCheckFilesSetting: check-files: true in .nginx-lint.yaml reaches
// the rule under the names the rule reads.
func TestCheckFilesSetting(t *testing.T) {
	f, err := config.Parse("/x/.nginx-lint.yaml", []byte("check-files: true\n"))
	if err != nil {
		t.Fatal(err)
	}
	var opts analyzer.Options
	if err := f.Apply(&opts, rules.All().Lookup); err != nil {
		t.Fatal(err)
	}
	if on, _ := opts.RuleOptions[rules.MissingFile.Name][rules.CheckFilesOption].(bool); !on {
		t.Errorf("check-files did not reach %s: %v", rules.MissingFile.Name, opts.RuleOptions)
	}
}

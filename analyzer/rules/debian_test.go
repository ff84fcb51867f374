package rules_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// TestDebianEtcNginx lints the configuration Debian's nginx package
// installs (/etc/nginx: nginx.conf with its includes, and the snippets
// and sites on their own, as fragments), for the local nginx build:
// nginx accepts it, so no syntax or validity error may be reported.
func TestDebianEtcNginx(t *testing.T) {
	nginxtest.Require(t)
	const root = "/etc/nginx"
	if _, err := os.Stat(filepath.Join(root, "nginx.conf")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("nginx is installed but %s/nginx.conf is not: %v", root, err)
		}
		t.Skipf("no %s/nginx.conf", root)
	}
	opts, err := buildOptions()
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{filepath.Join(root, "nginx.conf")}
	for _, dir := range []string{"snippets", "sites-available", "conf.d"} {
		m, _ := filepath.Glob(filepath.Join(root, dir, "*"))
		paths = append(paths, m...)
	}
	linted := 0
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			continue // a dangling symlink or a directory
		}
		// Relative includes resolve against the conf prefix, as in nginx.
		l := &parser.Loader{Kinds: analyzer.Kinds, Prefix: root}
		var c *parser.Config
		if strings.HasSuffix(p, "/nginx.conf") {
			if c, err = l.Load(p); err != nil {
				t.Fatal(err)
			}
		} else {
			c = analyzer.LoadInferred(l, p, src)
		}
		linted++
		for _, d := range ruleFindings(c, rules.All(), opts) {
			if d.Severity == parser.Error && (strings.HasPrefix(d.Code, "NL1") || strings.HasPrefix(d.Code, "NL2")) {
				t.Errorf("%s: %v [%s]", p, d, d.Name)
			}
		}
	}
	t.Logf("linted %d files of %s", linted, root)
}

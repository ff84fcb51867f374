package main

import (
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// goldenConfs are the configurations the golden outputs are of: errors
// with a fix and a related location, a non-ASCII character before a
// finding (UTF-16 columns), characters GitHub escapes, a finding whose fix
// depends on the target nginx (the summary's "linted for"), findings in
// several files, and layouts whose cost report has every section (a
// failing and a fitting names hash, reuseport sockets cloned per worker).
var goldenConfs = map[string]string{
	"conf/nginx.conf": findingsConf,
	"site.conf": "events {}\nhttp {\n    server {\n        listen 127.0.0.1:443 ssl http2;\n" +
		"        ssl_certificate a.pem;\n        ssl_certificate_key a.key;\n        server_name a;\n" +
		"        add_header X-A 1;\n        location / { add_header X-B 2; }\n    }\n" +
		"    server { listen 127.0.0.1:443 ssl; server_name a; ssl_certificate a.pem; ssl_certificate_key a.key; }\n}\n",
	"multi/one.conf": costConf,
	"multi/two.conf": "events {}\nhttp { server { listen 127.0.0.1:80; gzip maybe; } }\n",
	"hash.conf":      hashConf(),
}

// readTestdata is a file of the repository's testdata directory. (Read
// in the test, not at init: the test binary also runs as nginx-lint
// elsewhere, for the hook tests.)
func readTestdata(t *testing.T, name string) string {
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// hashConf is 40 names on one address with a names hash too small for
// them, and a reuseport listen under two workers.
func hashConf() string {
	var b strings.Builder
	b.WriteString("worker_processes 2;\nevents {}\nhttp {\n    server_names_hash_max_size 16;\n")
	for i := range 40 {
		fmt.Fprintf(&b, "    server { listen 127.0.0.1:80; server_name host%d.example.com; }\n", i)
	}
	b.WriteString("    server { listen 127.0.0.1:81 reuseport; server_name a; }\n}\n")
	return b.String()
}

// TestGoldenOutputs pins what every output format, the cost report (text,
// JSON and the SVG chart) and the usage errors print, byte for byte, in
// testdata/golden (go test -run TestGoldenOutputs -update rewrites them).
// The other output tests check properties; this one notices any change.
func TestGoldenOutputs(t *testing.T) {
	pkg, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	confs := maps.Clone(goldenConfs)
	// route and diff read the shop of docs/routing.md.
	for _, f := range []string{"route/shop.conf", "route/shop-pr.conf"} {
		confs[f] = readTestdata(t, f)
	}
	dir := writeConf(t, confs)
	chdir(t, dir)
	for _, v := range []string{"NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE"} {
		t.Setenv(v, "")
	}
	old := version
	version = "v1.2.3"
	t.Cleanup(func() { version = old })

	all := []string{"conf/nginx.conf", "site.conf", "multi", "missing.conf"}
	cases := []struct {
		name  string
		args  []string
		files []string // written by the command, shown after its output
	}{
		{"text", append([]string{"--format", "text"}, all...), nil},
		{"text-quiet", append([]string{"-q"}, all...), nil},
		{"text-color", append([]string{"--color", "always"}, all...), nil},
		{"text-clean", []string{"multi/two.conf", "--disable", "invalid-arguments"}, nil},
		{"json", append([]string{"--format", "json"}, all...), nil},
		{"json-clean", []string{"--format", "json", "multi/two.conf", "--disable", "invalid-arguments"}, nil},
		{"sarif", append([]string{"--format", "sarif"}, all...), nil},
		{"github", append([]string{"--format", "github"}, all...), nil},
		{"gitlab", append([]string{"--format", "gitlab"}, all...), nil},
		{"checkstyle", append([]string{"--format", "checkstyle"}, all...), nil},
		{"output-files", append([]string{"--format", "github", "--output", "text=out.txt", "--output", "checkstyle=out.xml", "--output", "gitlab=out.gitlab"}, all...),
			[]string{"out.txt", "out.xml", "out.gitlab"}},
		{"output-unknown", []string{"--output", "sarf=x", "site.conf"}, nil},
		{"format-unknown", []string{"--format", "xml", "site.conf"}, nil},
		{"cost-text", []string{"cost", "hash.conf"}, nil},
		{"cost-text-dir", []string{"cost", "multi"}, nil},
		{"cost-json", []string{"cost", "--format", "json", "hash.conf"}, nil},
		{"cost-json-dir", []string{"cost", "--format", "json", "multi"}, nil},
		{"cost-svg", []string{"cost", "--svg", "hash.svg", "--startup-budget", "20ms", "hash.conf"}, []string{"hash.svg"}},
		{"cost-svg-small", []string{"cost", "--svg", "small.svg", "multi/one.conf"}, []string{"small.svg"}},
		{"route-text", []string{"route", "--no-files", "route/shop.conf", "https://shop.example/catalog/42", "https://shop.example/img/../assets/app.css",
			"https://shop.example/api/v2/orders", "http://shop.example/cart", "https://unknown.example/", "https://shop.example/admin/"}, nil},
		{"route-json", []string{"route", "--format", "json", "--no-files", "--remote", "10.1.2.3", "route/shop.conf", "https://shop.example/catalog/42", "https://shop.example/admin/x"}, nil},
		{"diff-text", []string{"diff", "--no-files", "route/shop.conf", "route/shop-pr.conf"}, nil},
		{"diff-json", []string{"diff", "--format", "json", "--no-files", "route/shop.conf", "route/shop-pr.conf"}, nil},
		{"diff-markdown", []string{"diff", "--format", "markdown", "--no-files", "--fail-on-change", "route/shop.conf", "route/shop-pr.conf"}, nil},
		{"help-lint", []string{"help", "lint"}, nil},
		{"help-cost", []string{"cost", "--help"}, nil},
		{"unknown-command", []string{"lnt", "site.conf"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, "", c.args...)
			var got strings.Builder
			fmt.Fprintf(&got, "$ nginx-lint %s\nexit %d\n-- stdout --\n%s-- stderr --\n%s", strings.Join(c.args, " "), code, out, errOut)
			for _, f := range c.files {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				os.Remove(f)
				fmt.Fprintf(&got, "-- %s --\n%s", f, b)
			}
			// The temporary directory is named in SARIF's base URI.
			s := strings.ReplaceAll(got.String(), filepath.ToSlash(dir), "$DIR")
			s = elideSARIFRules(s)
			golden := filepath.Join(pkg, "testdata", "golden", c.name+".txt")
			if *update {
				if err := os.WriteFile(golden, []byte(s), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test -run TestGoldenOutputs -update writes it)", err)
			}
			if s != string(want) {
				t.Errorf("%s differs from %s:\n%s", c.name, golden, firstDiff(string(want), s))
			}
		})
	}
}

// elideSARIFRules leaves out the rules of a SARIF log's driver (every
// rule's documentation, which TestSARIFSchema and TestSARIFForGitHub
// check): a new rule or a reworded page is no change of the format.
func elideSARIFRules(s string) string {
	const open, closing = "\n          \"rules\": [\n", "\n          ]"
	i := strings.Index(s, open)
	if i < 0 {
		return s
	}
	j := strings.Index(s[i+len(open):], closing)
	if j < 0 {
		return s
	}
	return s[:i+len(open)] + "            (the registry's rules)" + s[i+len(open)+j:]
}

// firstDiff shows the first line where got departs from want.
func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(wl), len(gl)) {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\nwant %q\n got %q", i+1, w, g)
		}
	}
	return "(same lines)"
}

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/internal/report"
	"github.com/nginx-lint/nginx-lint/internal/testfiles"
)

const diffBefore = `events {}
http {
    upstream backend { server 127.0.0.1:9000; }
    server {
        listen 127.0.0.1:8080;
        server_name shop.example;
        location / { return 200 "home"; }
        location /api/ { proxy_pass http://backend; }
        location = /old { return 301 /new; }
    }
    server {
        listen 127.0.0.1:8080;
        server_name blog.example;
        location / { return 200 "blog"; }
    }
}
`

// diffAfter adds a regex that takes part of /api/, changes a redirect's
// status and moves blog.example's name to a new server before it; the
// rest answers alike though every line moved.
const diffAfter = `events {}
http {
    upstream backend { server 127.0.0.1:9000; }

    server {
        listen 127.0.0.1:8080;
        server_name shop.example;
        location / { return 200 "home"; }
        location /api/ { proxy_pass http://backend; }
        location ~ ^/api/v1/ { return 410; }
        location = /old { return 308 /new; }
    }
    server {
        listen 127.0.0.1:8080;
        server_name blog.example;
        location / { return 200 "blog"; }
    }
}
`

// TestDiffFiles: the requests whose location, handler or status
// changed are listed with both answers; the others are not, though
// every line moved; --fail-on-change exits 1, and a change-free diff 0.
func TestDiffFiles(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{"a.conf": diffBefore, "b.conf": diffAfter})
	a, b := filepath.Join(dir, "a.conf"), filepath.Join(dir, "b.conf")
	code, out, errs := runCLI(t, "", "diff", a, b)
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"GET http://shop.example/api/v1/ (on 127.0.0.1:8080)\n  also    Host unknown.nginx-lint.invalid, no Host\n" +
			"  before  server shop.example, location /api/: passed by proxy_pass to http://backend (" + a + ":8)\n" +
			"  after   server shop.example, location ~ ^/api/v1/: 410 (" + b + ":10)\n  changed location, handler, status\n",
		"GET http://shop.example/old (on 127.0.0.1:8080)",
		"  changed handler, status\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing\n%s\nin\n%s", want, out)
		}
	}
	if strings.Contains(out, "blog.example") {
		t.Errorf("blog.example answers alike:\n%s", out)
	}
	if code, _, _ := runCLI(t, "", "diff", "--fail-on-change", a, b); code != exitFindings {
		t.Errorf("--fail-on-change with changes: exit %d", code)
	}
	code, out, _ = runCLI(t, "", "diff", "--fail-on-change", a, a)
	if code != exitClean || !strings.HasPrefix(out, "no change: ") {
		t.Errorf("no change: exit %d\n%s", code, out)
	}

	_, out, _ = runCLI(t, "", "diff", "--format", "json", a, b)
	var rep report.Diff
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Changed != 6 || len(rep.Configurations) != 1 || rep.Requests < 20 {
		t.Fatalf("report %+v", rep)
	}
	c := rep.Configurations[0].Changes[0]
	if c.Before.Location == nil || c.Before.Location.Line != 8 || c.After.Location == nil || c.After.Location.Line != 10 || c.After.Status != 410 {
		t.Errorf("first change %+v", c)
	}

	_, out, _ = runCLI(t, "", "diff", "--format", "markdown", a, b)
	if !strings.HasPrefix(out, "**nginx-lint diff**: 6 of ") || !strings.Contains(out, "| `GET http://shop.example/api/v1/ (also Host unknown.nginx-lint.invalid, no Host)` |") {
		t.Errorf("markdown:\n%s", out)
	}
}

// TestDiffDirectories: configurations are paired by their path below
// the directories; one that only the new side has changes every
// request it answers.
func TestDiffDirectories(t *testing.T) {
	old, new := t.TempDir(), t.TempDir()
	testfiles.Write(t, old, map[string]string{"nginx.conf": "events {}\nhttp {\n    include sites/*.conf;\n}\n", "sites/a.conf": diffBefore[strings.Index(diffBefore, "    server"):strings.LastIndex(diffBefore, "}")]})
	testfiles.Write(t, new, map[string]string{"nginx.conf": "events {}\nhttp {\n    include sites/*.conf;\n}\n", "sites/a.conf": diffAfter[strings.Index(diffAfter, "    server"):strings.LastIndex(diffAfter, "}")],
		"extra/nginx.conf": "events {}\nhttp { server { listen 127.0.0.1:9090; return 204; } }\n"})
	code, out, errs := runCLI(t, "", "diff", old, new)
	if code != exitClean {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	for _, want := range []string{"nginx.conf: 6 of ", "extra/nginx.conf: ", "  before  refused\n  after   server \"\", no location: 204"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}

// TestDiffGit: --git REV compares the working tree's configuration
// with the same path in a commit of its repository, includes read from
// that commit.
func TestDiffGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git is missing under CI=true")
		}
		t.Skip("git is not installed")
	}
	repo := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		c := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	testfiles.Write(t, repo, map[string]string{"etc/nginx/nginx.conf": "events {}\nhttp {\n    include conf.d/*.conf;\n}\n",
		"etc/nginx/conf.d/shop.conf": diffBefore[strings.Index(diffBefore, "    server"):strings.LastIndex(diffBefore, "}")]})
	git("add", ".")
	git("commit", "-q", "-m", "first")
	testfiles.Write(t, repo, map[string]string{"etc/nginx/conf.d/shop.conf": diffAfter[strings.Index(diffAfter, "    server"):strings.LastIndex(diffAfter, "}")]})
	conf := filepath.Join(repo, "etc/nginx/nginx.conf")
	code, out, errs := runCLI(t, "", "diff", "--git", "HEAD", conf)
	if code != exitClean || !strings.HasPrefix(out, "6 of ") || !strings.Contains(out, "after   server shop.example, location ~ ^/api/v1/: 410 ("+filepath.Join(repo, "etc/nginx/conf.d/shop.conf")+":6)") ||
		!strings.Contains(out, "before  server shop.example, location /api/: passed by proxy_pass to http://backend (HEAD:etc/nginx/conf.d/shop.conf:5)") {
		t.Errorf("exit %d: %s\n%s", code, errs, out)
	}
	git("commit", "-q", "-am", "second")
	if code, out, _ := runCLI(t, "", "diff", "--git", "HEAD", "--fail-on-change", conf); code != exitClean || !strings.HasPrefix(out, "no change") {
		t.Errorf("after the commit: exit %d\n%s", code, out)
	}
	if code, out, _ := runCLI(t, "", "diff", "--git", "HEAD~1", "--fail-on-change", conf); code != exitFindings {
		t.Errorf("against the first commit: exit %d\n%s", code, out)
	}
	if code, _, errs := runCLI(t, "", "diff", "--git", "nosuchrev", conf); code != exitUsage || !strings.Contains(errs, "not a revision") {
		t.Errorf("unknown revision: exit %d, %s", code, errs)
	}
	if code, _, errs := runCLI(t, "", "diff", "--git", "HEAD", filepath.Join(t.TempDir(), "x.conf")); code == exitClean {
		t.Errorf("outside a repository: exit %d, %s", code, errs)
	}
}

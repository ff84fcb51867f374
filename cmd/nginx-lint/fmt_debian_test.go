package main

import (
	"context"
	"crypto/sha256"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// requireDebianConf returns the system's nginx configuration directory,
// skipping the test when there is none, except under CI=true, where .ci/run
// has installed nginx and a missing /etc/nginx is a broken environment.
func requireDebianConf(t *testing.T) string {
	t.Helper()
	const dir = "/etc/nginx"
	if _, err := os.Stat(filepath.Join(dir, "nginx.conf")); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s/nginx.conf is missing under CI=true (.ci/run installs nginx): %v", dir, err)
		}
		t.Skipf("%s/nginx.conf is missing (install nginx-light to run this test): %v", dir, err)
	}
	return dir
}

// hashTree returns a digest of every regular file under dir, to prove
// that a test left the system's files alone.
func hashTree(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	out := map[string][32]byte{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if b, err := os.ReadFile(p); err == nil {
				out[p] = sha256.Sum256(b)
			}
		}
		return nil
	})
	return out
}

// TestFmtDebianTree formats a copy of Debian's /etc/nginx in place, as a
// user would (cp -a /etc/nginx X; nginx-lint fmt -w --tabs X): the
// sites-enabled link must still be a link, every file formatted, and
// nginx -t must still accept the copy.
func TestFmtDebianTree(t *testing.T) {
	sys := requireDebianConf(t)
	nginx := nginxtest.Require(t)
	before := hashTree(t, sys)

	root := t.TempDir()

	// First the copy exactly as cp -a makes it. Where Debian's links are
	// absolute (sites-enabled/default -> /etc/nginx/sites-available/default)
	// they lead out of the copy: fmt -w must leave them links and must not
	// write the system's files through them.
	raw := filepath.Join(root, "raw")
	if out, err := exec.Command("cp", "-a", sys, raw).CombinedOutput(); err != nil {
		t.Fatalf("cp -a: %v\n%s", err, out)
	}
	rawLinks := map[string]string{}
	filepath.WalkDir(raw, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type()&fs.ModeSymlink != 0 {
			rawLinks[p], _ = os.Readlink(p)
		}
		return nil
	})
	code, _, errOut := runCLI(t, "", "fmt", "-w", "--tabs", raw)
	if code != exitClean {
		for _, line := range strings.Split(strings.TrimSpace(errOut), "\n") {
			if !regexp.MustCompile(`: links to .*, outside .*: not written`).MatchString(line) {
				t.Errorf("fmt -w on the raw copy: exit %d, unexpected message %q", code, line)
			}
		}
	}
	for p, want := range rawLinks {
		if got, err := os.Readlink(p); err != nil || got != want {
			t.Errorf("%s: after fmt -w: %q, %v; want a link to %s", p, got, err, want)
		}
	}

	x := filepath.Join(root, "nginx")
	if out, err := exec.Command("cp", "-a", sys, x).CombinedOutput(); err != nil {
		t.Fatalf("cp -a: %v\n%s", err, out)
	}
	prefix := filepath.Join(root, "prefix")
	if err := os.MkdirAll(filepath.Join(prefix, "logs"), 0o755); err != nil {
		t.Fatal(err)
	}
	// load_module paths are relative to nginx's prefix.
	for _, m := range []string{"/usr/share/nginx/modules", "/usr/lib/nginx/modules"} {
		if _, err := os.Stat(m); err == nil {
			if err := os.Symlink(m, filepath.Join(prefix, "modules")); err != nil {
				t.Fatal(err)
			}
			break
		}
	}

	// Make the copy self-contained, as a checkout of /etc/nginx deployed
	// elsewhere would be: links into /etc/nginx become relative (Debian's
	// sites-enabled/default -> ../sites-available/default), absolute
	// paths point into the copy and the test prefix, and the listens move
	// to loopback. Links elsewhere (modules-enabled into /usr/share) stay.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	paths := strings.NewReplacer(sys+"/", x+"/", "/var/log/nginx/", prefix+"/logs/", "/run/nginx.pid", prefix+"/nginx.pid")
	listen4 := regexp.MustCompile(`(?m)^(\s*listen\s+)80\b`)
	listen6 := regexp.MustCompile(`(?m)^(\s*listen\s+)\[::\]:80\b`)
	links := map[string]string{}
	err = filepath.WalkDir(x, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			if rest, ok := strings.CutPrefix(target, sys+"/"); ok {
				rel, err := filepath.Rel(filepath.Dir(p), filepath.Join(x, rest))
				if err != nil {
					return err
				}
				if err := os.Remove(p); err != nil {
					return err
				}
				if err := os.Symlink(rel, p); err != nil {
					return err
				}
				target = rel
			}
			links[p] = target
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			s := paths.Replace(string(b))
			s = listen4.ReplaceAllString(s, "${1}127.0.0.1:"+port)
			s = listen6.ReplaceAllString(s, "${1}127.0.0.2:"+port)
			if s != string(b) {
				return os.WriteFile(p, []byte(s), 0o644)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	site := filepath.Join(x, "sites-available", "default")
	enabled := filepath.Join(x, "sites-enabled", "default")
	if links[enabled] != "../sites-available/default" {
		t.Fatalf("setup: %s -> %q, want ../sites-available/default (links: %v)", enabled, links[enabled], links)
	}
	nginxOK := func(when string) {
		t.Helper()
		res, err := nginxtest.Test(context.Background(), nginx, filepath.Join(x, "nginx.conf"), nginxtest.WithPrefix(prefix))
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		if !res.OK {
			t.Fatalf("%s: nginx -t fails:\n%s", when, res.Stderr)
		}
	}
	// Debian's site file is tab-indented, which fmt keeps; indent it
	// with spaces so that fmt -w --tabs has something to rewrite.
	siteText, err := os.ReadFile(site)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(site, []byte(strings.ReplaceAll(string(siteText), "\t", "   ")), 0o644); err != nil {
		t.Fatal(err)
	}
	nginxOK("the copy before formatting")
	if code, out, _ := runCLI(t, "", "fmt", "--check", "--tabs", x); code != exitFindings || !strings.Contains(out, "sites-available/default") {
		t.Fatalf("setup: the copy should need formatting: exit %d\n%s", code, out)
	}
	siteBefore, _ := os.ReadFile(site)

	code, out, errOut := runCLI(t, "", "fmt", "-w", "--tabs", x)
	if code != exitClean {
		t.Fatalf("fmt -w: exit %d\n%s%s", code, out, errOut)
	}
	for p, want := range links {
		if got, err := os.Readlink(p); err != nil || got != want {
			t.Errorf("%s: after fmt -w: %q, %v; want a link to %s", p, got, err, want)
		}
	}
	if b, _ := os.ReadFile(site); string(b) == string(siteBefore) {
		t.Errorf("%s was not rewritten", site)
	}
	if code, out, _ := runCLI(t, "", "fmt", "--check", "--tabs", x); code != exitClean {
		t.Errorf("after fmt -w, --check: exit %d\n%s", code, out)
	}
	nginxOK("the copy after fmt -w")

	// Named through the link: the target is written, the link stays.
	messy := strings.ReplaceAll(string(siteBefore), "\t", "  ")
	if err := os.WriteFile(site, []byte(messy), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, "", "fmt", "-w", "--tabs", enabled); code != exitClean {
		t.Fatalf("fmt -w %s: exit %d\n%s", enabled, code, errOut)
	}
	if got, err := os.Readlink(enabled); err != nil || got != "../sites-available/default" {
		t.Errorf("%s after fmt -w through it: %q, %v", enabled, got, err)
	}
	if code, _, _ := runCLI(t, "", "fmt", "--check", "--tabs", site); code != exitClean {
		t.Errorf("the link's target is not formatted")
	}
	nginxOK("the copy after fmt -w through the link")

	after := hashTree(t, sys)
	for p, h := range before {
		if after[p] != h {
			t.Errorf("%s changed: the test must not touch the system's configuration", p)
		}
	}
}

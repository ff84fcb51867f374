//go:build unix

package rules_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer/analysistest"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// freePorts returns n loopback ports nobody listens on now.
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	var ports []int
	var ls []net.Listener
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

// TestPHPAndMergeSlashesAgainstNginx starts nginx on loopback with the
// shapes php-script-unchecked and merge-slashes-bypass report, and checks
// nginx does what their messages say: a PHP name below an existing image
// goes to FastCGI (502 from the closed FastCGI port) unless try_files
// checks it (404); with merge_slashes off "//admin/" walks past "location
// /admin/ { deny all; }", with merge_slashes on it does not. The rules
// fire on exactly the servers that behave so.
func TestPHPAndMergeSlashesAgainstNginx(t *testing.T) {
	nginx := nginxtest.Require(t)
	ports := freePorts(t, 5)
	php, phpChecked, slashesOff, slashesOn, fastcgi := ports[0], ports[1], ports[2], ports[3], ports[4]
	dir := t.TempDir()
	// nginx's workers may run as another user: they must reach the files
	// (the temporary directories are private by default).
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	root := filepath.Join(dir, "www")
	if err := os.MkdirAll(filepath.Join(root, "uploads"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "uploads", "avatar.jpg"), []byte("<?php echo 'pwned'; ?>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dir, "nginx.conf")
	text := fmt.Sprintf(`events {}
http {
    access_log off;
    server {
        listen 127.0.0.1:%d;
        root %s;
        location ~ \.php$ {
            fastcgi_param SCRIPT_FILENAME $document_root$fastcgi_script_name;
            fastcgi_pass 127.0.0.1:%d;
        }
    }
    server {
        listen 127.0.0.1:%d;
        root %s;
        location ~ \.php$ {
            try_files $uri =404;
            fastcgi_param SCRIPT_FILENAME $document_root$fastcgi_script_name;
            fastcgi_pass 127.0.0.1:%d;
        }
    }
    server {
        listen 127.0.0.1:%d;
        merge_slashes off;
        location /admin/ {
            deny all;
        }
        location / {
            return 200 "open\n";
        }
    }
    server {
        listen 127.0.0.1:%d;
        location /admin/ {
            deny all;
        }
        location / {
            return 200 "open\n";
        }
    }
}
`, php, root, fastcgi, phpChecked, root, fastcgi, slashesOff, slashesOn)
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}

	analysistest.Registry = rules.All()
	lines := map[string]int{}
	for _, d := range analysistest.Lint(t, conf, rules.PHPScriptUnchecked, rules.MergeSlashesBypass) {
		lines[d.Name] = d.File.Position(int(d.Range.Start)).Line
	}
	// The unchecked fastcgi_pass is on line 9, the guarded location on 24.
	if lines["php-script-unchecked"] != 9 || lines["merge-slashes-bypass"] != 24 {
		t.Errorf("findings at %v, want php-script-unchecked on line 9 and merge-slashes-bypass on line 24", lines)
	}

	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	inst, err := nginxtest.Start(ctx, nginx, conf)
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Stop(context.Background())
	for _, c := range []struct {
		port       int
		path, want string
	}{
		{php, "/uploads/avatar.jpg/x.php", " 502 "},        // passed to FastCGI
		{phpChecked, "/uploads/avatar.jpg/x.php", " 404 "}, // checked first
		{phpChecked, "/uploads/avatar.jpg", " 200 "},       // the workers read the files
		{slashesOff, "/admin/", " 403 "},
		{slashesOff, "//admin/", "open"}, // the deny does not apply
		{slashesOn, "//admin/", " 403 "},
	} {
		addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(c.port))
		if got := request(t, addr, c.path); !strings.Contains(got, c.want) {
			t.Errorf("GET %s on :%d:\n%s\nwant %q", c.path, c.port, got, c.want)
		}
	}
}

// TestRawRewriteRegexAgainstNginx checks what the raw-URI rewrites of
// http-splitting and proxy-pass-normalized rest on: "rewrite ^
// $request_uri" makes $uri the raw path on every request, while
// "rewrite ^(.*)$ $request_uri" does not run for a path with a line feed
// ("." and "$" stop at it), which keeps the decoded LF in $uri. The rules
// report the second location and not the first.
func TestRawRewriteRegexAgainstNginx(t *testing.T) {
	nginx := nginxtest.Require(t)
	port := freePorts(t, 1)[0]
	dir := t.TempDir()
	conf := filepath.Join(dir, "nginx.conf")
	text := fmt.Sprintf(`events {}
http {
    access_log off;
    server {
        listen 127.0.0.1:%d;
        location /every/ {
            rewrite ^ $request_uri;
            add_header X-Uri $uri;
            return 200 "[$uri]";
        }
        location /some/ {
            rewrite ^(.*)$ $request_uri;
            add_header X-Uri $uri;
            return 200 "[$uri]";
        }
    }
}
`, port)
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	analysistest.Registry = rules.All()
	var lines []int
	for _, d := range analysistest.Lint(t, conf, rules.HTTPSplitting) {
		lines = append(lines, d.File.Position(int(d.Range.Start)).Line)
	}
	if len(lines) != 1 || lines[0] != 13 {
		t.Errorf("http-splitting on lines %v, want 13 (the add_header after ^(.*)$)", lines)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	inst, err := nginxtest.Start(ctx, nginx, conf)
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Stop(context.Background())
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	if got := request(t, addr, "/every/a%0Ab"); !strings.Contains(got, "[/every/a%0Ab]") {
		t.Errorf("rewrite ^ $request_uri: $uri is not the raw path:\n%s", got)
	}
	if got := request(t, addr, "/some/a%0Ab"); !strings.Contains(got, "[/some/a\nb]") {
		t.Errorf("rewrite ^(.*)$ $request_uri ran on a path with a line feed:\n%s", got)
	}
}

// TestAccessPhaseAgainstNginx starts nginx on loopback with the access
// shapes status-page-exposed judges and sends the request a client from
// 127.0.0.1 without credentials sends: under satisfy any a client no
// allow rule matches gets 401 (the access module declines, auth_basic
// refuses), auth_basic without a user file lets it in, a location with
// its own allow list drops the server's deny all, and auth_basic off in a
// location leaves the server's auth_request in force. The rule reports
// exactly the places that answer 200.
func TestAccessPhaseAgainstNginx(t *testing.T) {
	nginx := nginxtest.Require(t)
	ports := freePorts(t, 2)
	dir := t.TempDir()
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	page := filepath.Join(dir, "page.txt")
	htpasswd := filepath.Join(dir, "htpasswd")
	for f, text := range map[string]string{page: "status page\n", htpasswd: "u:{PLAIN}p\n"} {
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	conf := filepath.Join(dir, "nginx.conf")
	text := fmt.Sprintf(`events {}
http {
    access_log off;
    server {
        listen 127.0.0.1:%[1]d;
        location = /any-allow {
            satisfy any;
            allow 10.0.0.0/8;
            auth_basic "status";
            auth_basic_user_file %[3]s;
            alias %[4]s;
        }
        location = /any {
            satisfy any;
            auth_basic "status";
            auth_basic_user_file %[3]s;
            alias %[4]s;
        }
        location = /no-file {
            auth_basic "status";
            alias %[4]s;
        }
        location = /any-all {
            satisfy any;
            allow all;
            auth_basic "status";
            auth_basic_user_file %[3]s;
            alias %[4]s;
        }
    }
    server {
        listen 127.0.0.1:%[2]d;
        deny all;
        auth_request /auth;
        location = /own-list {
            allow 10.0.0.0/8;
            auth_request off;
            alias %[4]s;
        }
        location = /basic-off {
            allow all;
            auth_basic off;
            alias %[4]s;
        }
        location = /auth {
            internal;
            return 401;
        }
    }
}
`, ports[0], ports[1], htpasswd, page)
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	// The rule reads stub_status: the same configuration with the
	// pages as status pages.
	statusConf := filepath.Join(dir, "status.conf")
	if err := os.WriteFile(statusConf, []byte(strings.ReplaceAll(text, "alias "+page+";", "stub_status;")), 0o644); err != nil {
		t.Fatal(err)
	}
	analysistest.Registry = rules.All()
	reported := map[int]bool{}
	for _, d := range analysistest.Lint(t, statusConf, rules.StatusPageExposed) {
		reported[d.File.Position(int(d.Range.Start)).Line] = true
	}

	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	inst, err := nginxtest.Start(ctx, nginx, conf)
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Stop(context.Background())
	for _, c := range []struct {
		port       int
		path, want string
		line       int // of the page in status.conf
	}{
		{ports[0], "/any-allow", " 401 ", 11},
		{ports[0], "/any", " 401 ", 17},
		{ports[0], "/no-file", " 200 ", 21},
		{ports[0], "/any-all", " 200 ", 28},
		{ports[1], "/own-list", " 200 ", 38},
		{ports[1], "/basic-off", " 401 ", 43},
	} {
		addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(c.port))
		got := request(t, addr, c.path)
		if !strings.Contains(got, c.want) {
			t.Errorf("GET %s:\n%s\nwant %q", c.path, got, c.want)
		}
		// 127.0.0.1 is matched by no rule here, as every public client.
		if open := c.want == " 200 "; reported[c.line] != open {
			t.Errorf("%s answers %q, but status-page-exposed reported it: %v", c.path, strings.TrimSpace(c.want), reported[c.line])
		}
	}
}

//go:build unix

package editors_test

import (
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/internal/testfiles"
)

// The typing and several-files cases of issue 30, in the real clients with
// the shipped editor files unchanged (vscode/test/typing.test.js is the
// node client's, run by TestVSCode).

// typingFiles are the configurations the typing tests open, under a
// directory named nginx:
//   - typing/nginx.conf, typed into on line 7 (1-based) above the
//     location whose names are followed;
//   - main/nginx.conf, whose $from_snippet its open snippet
//     main/snippets/vars.conf comes to define;
//   - nginx.conf, whose upstream conf.d/app.conf names;
//   - disk/nginx.conf, whose $v disk/extra.conf defines until another
//     program rewrites it.
var typingFiles = map[string]string{
	"typing/nginx.conf": `events {}
http {
    upstream backend { server 127.0.0.1:9000; }
    server {
        listen 80;
        set $x 1;
        location / {
            proxy_pass http://backend;
            add_header X-A $x;
            error_page 404 = @fb;
        }
        location @fb { return 204; }
    }
}
`,
	"main/nginx.conf":         "events {}\nhttp {\n    server {\n        listen 80;\n        include snippets/vars.conf;\n        location / { return 200 $from_snippet; }\n    }\n}\n",
	"main/snippets/vars.conf": "# variables\n",
	"nginx.conf":              "events {}\nhttp {\n    upstream backend { server 127.0.0.1:9000; }\n    include conf.d/*.conf;\n}\n",
	"conf.d/app.conf":         "server {\n    listen 80;\n    location / { proxy_pass http://backend; }\n}\n",
	"disk/nginx.conf":         "events {}\nhttp {\n    include extra.conf;\n    server {\n        listen 80;\n        return 200 $v;\n    }\n}\n",
	"disk/extra.conf":         "map $uri $v { default a; }\n",
}

// TestNeovimTyping runs headless Neovim with the shipped nvim/nginx-lint.lua
// and nvim/test/typing_test.lua: each typing case of issue 30 typed above
// a location (definition, references, completion and the outline below
// it, and no finding below it), a set in an open snippet, an upstream
// moved in another open file, a file changed on disk.
func TestNeovimTyping(t *testing.T) {
	nvim := require(t, "nvim", "apt-get install neovim")
	bin := buildServer(t)
	script, err := filepath.Abs(filepath.Join("nvim", "test", "typing_test.lua"))
	if err != nil {
		t.Fatal(err)
	}
	plugin, err := filepath.Abs(filepath.Join("nvim", "nginx-lint.lua"))
	if err != nil {
		t.Fatal(err)
	}
	top := t.TempDir()
	root := filepath.Join(top, "etc", "nginx")
	testfiles.Write(t, root, typingFiles)
	logPath := filepath.Join(top, "steps.log")
	cmd := exec.Command(nvim, "--headless", "-n", "-i", "NONE", "-u", plugin, "-c", "luafile "+script)
	cmd.Dir = top
	cmd.Env = append(env(t, bin), "NGINX_LINT_TEST_ROOT="+root, "NGINX_LINT_TEST_LOG="+logPath)
	runNvim(t, 3*time.Minute, cmd, logPath)
}

// TestEmacsTyping drives batch Emacs with the shipped emacs/nginx-lint.el
// and eglot through emacs/test/eglot-typing-test.el: the same cases as
// TestNeovimTyping, eglot watching the files for the server.
func TestEmacsTyping(t *testing.T) {
	emacs := require(t, "emacs", "apt-get install --no-install-recommends emacs-nox elpa-eglot")
	if err := exec.Command(emacs, "--batch", "-q", "--eval", "(require 'eglot)").Run(); err != nil {
		missing(t, "Emacs has no eglot (apt-get install elpa-eglot): %v", err)
	}
	bin := buildServer(t)
	top := t.TempDir()
	root := filepath.Join(top, "etc", "nginx")
	testfiles.Write(t, root, typingFiles)
	runEmacs(t, 4*time.Minute, emacs, bin, top, root, "eglot-typing-test.el")
}

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/internal/testfiles"
)

// secretFiles are files a hostile configuration includes from outside
// its directory: words of a password hash, and a fragment with a syntax
// error whose fix ("insert ;") would carry its text.
var secretFiles = map[string]string{
	"shadow":    "root:$6$S3CRETsalt$HASHVALUE:19000:0:99999:7:::\n",
	"site.conf": "location /S3CRETLOC {\n    root /srv/S3CRETPATH\n}\nssl_session_timeout 5m;\n",
}

// outsideConf includes the secret files from dir, by absolute path.
func outsideConf(dir string) string {
	return "events {}\ninclude " + filepath.Join(dir, "shadow") + ";\nhttp {\n    server {\n        listen 80;\n        ssl_session_timeout 10m;\n        include " +
		filepath.Join(dir, "site.conf") + ";\n    }\n}\n"
}

// secretShown reports whether out holds a word of secretFiles.
func secretShown(out string) bool {
	return strings.Contains(out, "S3CRET") || strings.Contains(out, "HASHVALUE")
}

// TestOutsideTreeNotQuoted: the text of files included from outside the
// configuration's directory (and of a file reached through a symbolic
// link out of it) appears in no output format, nor in parse, while the
// findings keep their places, rules and severities, directive names stay
// quoted, and the exit codes are those of the same files inside. The
// same files inside the directory are quoted, so the test can fail.
func TestOutsideTreeNotQuoted(t *testing.T) {
	formats := []string{"text", "json", "sarif", "github", "gitlab", "checkstyle"}
	type result struct {
		codes  map[string]int
		places []string
	}
	results := map[bool]result{}
	for _, inside := range []bool{true, false} {
		top := t.TempDir()
		repo := filepath.Join(top, "repo")
		secrets := filepath.Join(top, "secret")
		if inside {
			secrets = filepath.Join(repo, "secret")
		}
		testfiles.Write(t, secrets, secretFiles)
		testfiles.Write(t, repo, map[string]string{"nginx.conf": outsideConf(secrets)})
		chdir(t, repo)
		r := result{codes: map[string]int{}}
		for _, f := range formats {
			code, out, errOut := runCLI(t, "", "--format", f, "nginx.conf")
			r.codes[f] = code
			if secretShown(out+errOut) != inside {
				t.Errorf("inside %v, --format %s: the secret shown %v:\n%s%s", inside, f, !inside, out, errOut)
			}
			if f == "text" && !strings.Contains(out, `"ssl_session_timeout" directive is duplicate`) {
				t.Errorf("inside %v: a directive name is not quoted:\n%s", inside, out)
			}
			if f == "json" {
				var rep struct {
					Diagnostics []struct {
						File         string
						Line, Column int
						Code         string
					}
				}
				if err := json.Unmarshal([]byte(out), &rep); err != nil {
					t.Fatal(err)
				}
				for _, d := range rep.Diagnostics {
					r.places = append(r.places, fmt.Sprintf("%s:%d:%d:%s", filepath.Base(d.File), d.Line, d.Column, d.Code))
				}
			}
		}
		code, out, errOut := runCLI(t, "", "parse", "nginx.conf")
		r.codes["parse"] = code
		if secretShown(out+errOut) != inside {
			t.Errorf("inside %v, parse: the secret shown %v:\n%s%s", inside, !inside, out, errOut)
		}
		if !inside {
			// --fix leaves the outside file as it is and says nothing of it.
			_, out, errOut := runCLI(t, "", "--fix", "nginx.conf")
			if secretShown(out + errOut) {
				t.Errorf("--fix shows the secret:\n%s%s", out, errOut)
			}
			if b, _ := os.ReadFile(filepath.Join(secrets, "site.conf")); string(b) != secretFiles["site.conf"] {
				t.Errorf("--fix rewrote a file outside the tree:\n%s", b)
			}
		}
		results[inside] = r
	}
	in, out := results[true], results[false]
	for k, c := range in.codes {
		if out.codes[k] != c {
			t.Errorf("%s: exit %d outside, %d inside", k, out.codes[k], c)
		}
	}
	if strings.Join(in.places, " ") != strings.Join(out.places, " ") || len(in.places) < 4 {
		t.Errorf("findings differ:\ninside  %v\noutside %v", in.places, out.places)
	}
}

// TestLinkOutOfTreeNotQuoted: a symbolic link committed in the
// configuration's directory to a file outside it is judged by the file
// it leads to, which nginx opens: its text is not shown.
func TestLinkOutOfTreeNotQuoted(t *testing.T) {
	top := t.TempDir()
	testfiles.Write(t, filepath.Join(top, "secret"), secretFiles)
	repo := filepath.Join(top, "repo")
	testfiles.Write(t, repo, map[string]string{"nginx.conf": "events {}\nhttp {\n    include conf.d/*.conf;\n}\n"})
	if err := os.Mkdir(filepath.Join(repo, "conf.d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(top, "secret", "shadow"), filepath.Join(repo, "conf.d", "x.conf")); err != nil {
		t.Skip(err)
	}
	chdir(t, repo)
	code, out, errOut := runCLI(t, "", "nginx.conf")
	if code != exitFindings || secretShown(out+errOut) || !strings.Contains(out, "conf.d/x.conf:1:1: error: unknown directive") {
		t.Errorf("exit %d:\n%s%s", code, out, errOut)
	}
}

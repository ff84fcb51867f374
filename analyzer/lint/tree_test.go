package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nginx-lint/nginx-lint/analyzer/config"

	"github.com/nginx-lint/nginx-lint/parser"
)

func TestRedactWords(t *testing.T) {
	src := "root:$6$salt$hash:19000:0:99999:7:::\naws_secret_access_key = wJalr/K7MDENG\nssl_session_cache shared:le_nginx_SSL:10m;\n"
	holds := WordSet(src)
	for _, c := range []struct{ in, want string }{
		{`unknown directive "root:$6$salt$hash:19000"`, `unknown directive "…"`},
		{`"ssl_session_cache" directive is duplicate`, `"ssl_session_cache" directive is duplicate`},
		{`unexpected end of file, expecting ";" or "}"`, `unexpected end of file, expecting ";" or "}"`},
		{`invalid value wJalr/K7MDENG in "x"`, `invalid value … in "…"`},
		{`missing ";" after "a \" b"`, `missing ";" after "…"`},
		{`unterminated "abc`, `unterminated "…"`},
		{`nginx accepts it once per block`, `nginx accepts it once per block`},
		{`unexpected "}" in /etc/x/shadow:3`, `unexpected "}" in /etc/x/shadow:3`},
	} {
		if got := RedactWords(c.in, holds, "/etc/x/shadow"); got != c.want {
			t.Errorf("RedactWords(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestBlankKeepsPositions: the stand-in of a file has the same lines,
// byte columns and UTF-16 columns at every offset, and none of its text.
func TestBlankKeepsPositions(t *testing.T) {
	src := "a\tb é€😀\xff z\r\nsecond line\n\nx"
	f := &parser.File{Src: src}
	b := &parser.File{Src: Blank(src)}
	if len(b.Src) != len(src) || strings.Contains(b.Src, "second") {
		t.Fatalf("Blank(%q) = %q", src, b.Src)
	}
	for off := 0; off <= len(src); off++ {
		if f.Position(off) != b.Position(off) {
			t.Errorf("offset %d: %v, stand-in %v", off, f.Position(off), b.Position(off))
		}
		if (off == len(src) || utf8.RuneStart(src[off])) && f.UTF16Column(off) != b.UTF16Column(off) {
			t.Errorf("offset %d: UTF-16 column %d, stand-in %d", off, f.UTF16Column(off), b.UTF16Column(off))
		}
	}
}

func TestTreeContains(t *testing.T) {
	top := t.TempDir()
	for _, d := range []string{"repo/conf.d", "secret"} {
		if err := os.MkdirAll(filepath.Join(top, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	secret := filepath.Join(top, "secret", "key")
	if err := os.WriteFile(secret, []byte("k"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(top, "repo", "conf.d", "k.conf")
	if err := os.Symlink(secret, link); err != nil {
		t.Skip(err)
	}
	tr := NewTree(filepath.Join(top, "repo"))
	for path, want := range map[string]bool{
		filepath.Join(top, "repo", "nginx.conf"): true,
		filepath.Join(top, "repo", "conf.d"):     true,
		link:                                     false,
		secret:                                   false,
		filepath.Join(top, "repository", "x"):    false,
		"/etc/shadow":                            false,
	} {
		if got := tr.Contains(path); got != want {
			t.Errorf("Contains(%s) = %v", path, got)
		}
	}
	if !(*Tree)(nil).Contains("/etc/shadow") {
		t.Error("a nil Tree contains nothing")
	}
}

// TestTreeOfTargets: the tree is the named file's directory, the
// directory named, -p, the workspace bound and standard input's working
// directory, never the settings file's prefix.
func TestTreeOfTargets(t *testing.T) {
	wd, _ := os.Getwd()
	w := &Workspace{}
	// A settings file in the repository says prefix: /etc; its
	// include-paths map /etc/nginx into the repository, and /x into /.
	settings := &config.File{Path: "/r/.nginx-lint.yaml", Prefix: "/etc", IncludePaths: []config.PathMap{{From: "/etc/nginx", To: "/r/etc/nginx"}, {From: "/x", To: "/"}}}
	for _, c := range []struct {
		name   string
		w      *Workspace
		t      Target
		main   string
		inside []string
		out    []string
	}{
		{"named", w, Target{Path: "/r/nginx.conf"}, "/r/nginx.conf", []string{"/r/a/b.conf", "/r/etc/nginx/x.conf"}, []string{"/etc/shadow", "/rr/x"}},
		{"dir", w, Target{Path: "/d/x/y.conf", FromDir: true, Root: "/d"}, "/d/x/y.conf", []string{"/d/z.conf"}, []string{"/e"}},
		{"-p", &Workspace{Prefix: "/p"}, Target{Path: "/r/nginx.conf"}, "/r/nginx.conf", []string{"/p/x.conf"}, []string{"/q"}},
		{"bound", &Workspace{Bound: "/ws"}, Target{Path: "/ws/a/n.conf"}, "/ws/a/n.conf", []string{"/ws/b.conf"}, []string{"/w"}},
		{"stdin", w, Target{Path: "-"}, filepath.Join(wd, "<stdin>"), []string{filepath.Join(wd, "x.conf")}, []string{"/etc/passwd"}},
	} {
		tr := c.w.tree(c.t, c.main, settings)
		for _, p := range c.inside {
			if !tr.Contains(p) {
				t.Errorf("%s: %s outside", c.name, p)
			}
		}
		for _, p := range c.out {
			if tr.Contains(p) {
				t.Errorf("%s: %s inside", c.name, p)
			}
		}
	}
}

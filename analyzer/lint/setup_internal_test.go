package lint

import (
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/config"
	"github.com/nginx-lint/nginx-lint/parser"
)

func TestIncludePathsAndLocalize(t *testing.T) {
	cfg, err := config.Parse("/repo/.nginx-lint.yaml", []byte("include-paths:\n  /etc/nginx/: ./conf/\n"))
	if err != nil {
		t.Fatal(err)
	}
	disk := &parser.Overlay{Files: map[string][]byte{
		"/repo/conf/nginx.conf":      []byte("events {}\nhttp { include /etc/nginx/snippets/x.conf; }\n"),
		"/repo/conf/snippets/x.conf": []byte("gzip on;\n"),
	}}
	if fs := FileSystem(disk, nil); fs != parser.FileSystem(disk) {
		t.Errorf("no settings: the file system is not the base")
	}
	l := &parser.Loader{FS: FileSystem(disk, cfg), Kinds: analyzer.Kinds}
	c, err := l.Load("/repo/conf/nginx.conf")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Diagnostics) != 0 || len(c.Files) != 2 || c.Files[1].Path != "/etc/nginx/snippets/x.conf" {
		t.Fatalf("load: %v %d", c.Diagnostics, len(c.Files))
	}
	localizePaths(c, cfg)
	if c.Files[1].Path != "/repo/conf/snippets/x.conf" {
		t.Errorf("localized %q", c.Files[1].Path)
	}
	// Again (a cached tree loaded twice): unchanged.
	localizePaths(c, cfg)
	if c.Files[1].Path != "/repo/conf/snippets/x.conf" {
		t.Errorf("localized twice %q", c.Files[1].Path)
	}
}

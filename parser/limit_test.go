package parser_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/nginx-lint/nginx-lint/parser"
)

// TestDefaultMaxFileSize: a 30 MiB generated configuration is read by
// default (it was refused at 16 MiB), and so is a 100 MiB one (refused at
// 64 MiB); a file over 128 MiB is not.
func TestDefaultMaxFileSize(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		size    int64
		refused bool
	}{{30 << 20, false}, {100 << 20, false}, {parser.DefaultMaxFileSize, false}, {parser.DefaultMaxFileSize + 1, true}} {
		p := filepath.Join(dir, "big.conf")
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(p, c.size); err != nil {
			t.Fatal(err)
		}
		_, err := (&parser.Loader{}).ReadFile(p)
		var tl *parser.TooLargeError
		if errors.As(err, &tl) != c.refused || !c.refused && err != nil {
			t.Errorf("%d bytes: err %v, refused want %v", c.size, err, c.refused)
		}
	}
}

package parser_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"github.com/nginx-lint/nginx-lint/parser"
)

// TestNodeSizes keeps the tree's node types at the sizes the memory
// budget counts on: a 100 MB configuration has four million directives
// and five million words, so eight bytes more on either costs 30-40 MB.
// A field added without thought shows up here; if it is worth its cost,
// change the figure and the README's memory figures with it.
func TestNodeSizes(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"Range", unsafe.Sizeof(parser.Range{}), 8},
		{"Word", unsafe.Sizeof(parser.Word{}), 24},
		{"Directive", unsafe.Sizeof(parser.Directive{}), 40},
		{"Block", unsafe.Sizeof(parser.Block{}), 32},
	} {
		if c.got != c.want {
			t.Errorf("unsafe.Sizeof(%s{}) = %d, want %d", c.name, c.got, c.want)
		}
	}
}

// TestMaxSourceSize checks that no limit lets in a file whose offsets
// would not fit the tree's 32-bit ranges: a sparse file just over
// parser.MaxSourceSize is refused from its size alone, even with the
// limit raised past it or turned off.
func TestMaxSourceSize(t *testing.T) {
	p := filepath.Join(t.TempDir(), "huge.conf")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(parser.MaxSourceSize + 1); err != nil { // sparse: no disk used
		f.Close()
		t.Skipf("cannot make a sparse file: %v", err)
	}
	f.Close()
	var tl *parser.TooLargeError
	if _, err := parser.ReadConfigFile(p, 4<<30); !errors.As(err, &tl) || tl.Limit != parser.MaxSourceSize {
		t.Errorf("ReadConfigFile with a 4 GiB limit: %v, want TooLargeError over %d", err, parser.MaxSourceSize)
	}
	for _, max := range []int64{-1, 4 << 30} {
		l := &parser.Loader{MaxFileSize: max}
		if _, err := l.ReadFile(p); !errors.As(err, &tl) || tl.Limit != parser.MaxSourceSize {
			t.Errorf("Loader{MaxFileSize: %d}.ReadFile: %v, want TooLargeError over %d", max, err, parser.MaxSourceSize)
		}
	}
}

// TestModelSizes does for the typed model what TestNodeSizes does for the
// tree: a big configuration has a Server for each server, a Listen for
// each listen, a ServerName for each name and a Location for each
// location. They hold a directive and the links between them, nothing
// that can be read again from the directive's arguments: a Location was
// 64 bytes with its parsed path, error and list of nested locations, a
// ServerName 72 with the classified name, a Server 88 with three slice
// headers; on a dense configuration the model went from 1.09 to 0.41
// bytes per byte of input.
func TestModelSizes(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"Server", unsafe.Sizeof(parser.Server{}), 48},
		{"Listen", unsafe.Sizeof(parser.Listen{}), 16},
		{"ServerName", unsafe.Sizeof(parser.ServerName{}), 16},
		{"Location", unsafe.Sizeof(parser.Location{}), 24},
	} {
		if c.got != c.want {
			t.Errorf("unsafe.Sizeof(%s{}) = %d, want %d", c.name, c.got, c.want)
		}
	}
}

package crossplane_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/corpustest"
	"github.com/nginx-lint/nginx-lint/parser/crossplane"
)

// encoded is what Write must write: Build's payload through
// encoding/json's Encoder.
func encoded(t *testing.T, c *parser.Config, opts crossplane.Options, indent string) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	if indent != "" {
		enc.SetIndent("", indent)
	}
	if err := enc.Encode(crossplane.Build(c, opts)); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestWriteAsEncoder: Write streams, byte for byte, what the Encoder
// writes of Build's payload, for every configuration of the corpus and
// the repository's testdata (quotes, escapes, non-ASCII and invalid
// UTF-8, HTML characters, comments, includes, errors), compact and
// indented, with comments and without, one file and all.
func TestWriteAsEncoder(t *testing.T) {
	var paths []string
	roots := []string{"../../testdata", "../../analyzer/rules/testdata"}
	if corpus, ok := corpustest.Find(); ok {
		roots = append(roots, corpus)
	}
	for _, root := range roots {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".conf") {
				paths = append(paths, p)
			}
			return nil
		})
	}
	paths = append(paths, "") // the hand-written text below
	hand := "events {}\nhttp {\n    # a comment \\\n    map $a $b { \"<x>\" '&y'; default \"\\\"q\\\"\"; }\n" +
		"    server { listen 80; server_name \xff\xfe.example é.example; if ($a) { return 200 \"a\\nb\"; } include none/*.conf; }\n" +
		"    unterminated_here\n}\n"
	n := 0
	for _, p := range paths {
		var c *parser.Config
		if p == "" {
			c = (&parser.Loader{FS: &parser.Overlay{}}).LoadSource("/t/nginx.conf", []byte(hand), nil)
		} else {
			var err error
			if c, err = (&parser.Loader{}).Load(p); err != nil {
				continue
			}
		}
		n++
		for _, opts := range []crossplane.Options{
			{Check: analyzer.ArgCountError, Kinds: analyzer.Kinds},
			{IncludeComments: true, Check: analyzer.ArgCountError, Kinds: analyzer.Kinds},
			{SingleFile: true},
		} {
			for _, indent := range []string{"", "  ", "\t"} {
				want := encoded(t, c, opts, indent)
				var got bytes.Buffer
				status, err := crossplane.Write(&got, c, opts, indent)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got.Bytes(), want) {
					t.Fatalf("%s (%+v, indent %q): Write differs from the Encoder\n got: %.300s\nwant: %.300s", p, opts, indent, got.Bytes(), want)
				}
				if wantStatus := crossplane.Build(c, opts).Status; status != wantStatus {
					t.Errorf("%s: status %s, want %s", p, status, wantStatus)
				}
			}
		}
	}
	if n < 50 {
		t.Errorf("only %d configurations compared", n)
	}
}

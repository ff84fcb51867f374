package crossplane_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/corpustest"
	"github.com/nginx-lint/nginx-lint/parser/crossplane"
)

// upstreamPath matches the paths crossplane's own test run wrote into the
// golden files ("testdata/configs/<case>/", "python/<case>/").
var upstreamPath = regexp.MustCompile(`(testdata/configs|python)/[^/ ]+/`)

func TestGoldenPayloads(t *testing.T) {
	root := corpustest.Root(t)
	goldens, _ := filepath.Glob(filepath.Join(root, "crossplane-go", "*", "*.json"))
	n := 0
	for _, g := range goldens {
		base := filepath.Base(g)
		if base == "xp.json" {
			continue
		}
		rel, _ := filepath.Rel(root, g)
		t.Run(rel, func(t *testing.T) {
			raw, err := os.ReadFile(g)
			if err != nil {
				t.Fatal(err)
			}
			var want crossplane.Payload
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatal(err)
			}
			if len(want.Config) == 0 {
				t.Fatal("golden has no config")
			}
			caseDir := filepath.Dir(g)
			main := filepath.Join(caseDir, filepath.Base(want.Config[0].File))
			c, err := (&parser.Loader{}).Load(main)
			if err != nil {
				t.Fatal(err)
			}
			got := crossplane.Build(c, crossplane.Options{IncludeComments: true, Check: analyzer.ArgCountError, Kinds: analyzer.Kinds})
			if proof, ok := staleGoldens[rel]; ok {
				// Not compared: the golden describes another version of the
				// file. The proof keeps this exception honest: once the
				// golden matches its file again, the test fails here.
				if !proof(t, string(raw), caseDir) {
					t.Fatalf("%s is listed as stale but its staleness proof no longer holds; compare it again", rel)
				}
				return
			}
			if fix, ok := crossplaneBugs[rel]; ok {
				fix(&want)
			}
			normalize(&want, func(s string) string { return upstreamPath.ReplaceAllString(s, "") })
			normalize(got, func(s string) string { return strings.ReplaceAll(s, caseDir+"/", "") })
			if diff := cmp.Diff(&want, got); diff != "" {
				t.Errorf("payload differs (-golden +ours):\n%s", diff)
			}
		})
		n++
	}
	if n < 20 {
		t.Fatalf("only %d golden payloads found", n)
	}
}

func normalize(p *crossplane.Payload, fix func(string) string) {
	for i := range p.Errors {
		p.Errors[i].File = fix(p.Errors[i].File)
		p.Errors[i].Error = fix(p.Errors[i].Error)
	}
	for i := range p.Config {
		p.Config[i].File = fix(p.Config[i].File)
		for j := range p.Config[i].Errors {
			p.Config[i].Errors[j].Error = fix(p.Config[i].Errors[j].Error)
		}
	}
}

// staleGoldens lists golden payloads written for an earlier version of their
// config (the upstream test suite no longer reads them), each with a check
// that proves the mismatch lies in the golden.
var staleGoldens = map[string]func(t *testing.T, golden, caseDir string) bool{
	// The golden lists a second server at line 14; the file has 14 lines
	// and line 14 is the closing brace of http.
	"crossplane-go/with-comments/nginx.json": func(t *testing.T, golden, caseDir string) bool {
		return strings.Contains(golden, `"line": 14`) && sourceLine(t, caseDir, "nginx.conf", 14) == "}"
	},
	// The golden's nginx.conf starts with "# empty events for now" and has
	// a map the file does not have.
	"crossplane-go/includes-regular/nginx.json": func(t *testing.T, golden, caseDir string) bool {
		return strings.Contains(golden, "empty events for now") && !strings.Contains(sourceLine(t, caseDir, "nginx.conf", 1), "#")
	},
	// The file gained a charset_map block (line 9) the golden never saw.
	"crossplane-go/directive-with-space/nginx.json": func(t *testing.T, golden, caseDir string) bool {
		return !strings.Contains(golden, "charset_map") && strings.Contains(sourceLine(t, caseDir, "nginx.conf", 9), "charset_map")
	},
}

// crossplaneBugs undoes, in the golden, known lexer bugs of crossplane-go
// that nginx does not share; nginx-lint follows nginx.
var crossplaneBugs = map[string]func(*crossplane.Payload){
	// crossplane-go glues "/abc/${uri} /abc/${uri}.html" into one argument
	// after a "${...}" variable; nginx reads two.
	"crossplane-go/messy/nginx.json": func(p *crossplane.Payload) {
		replaceArg(p.Config[0].Parsed, "/abc/${uri} /abc/${uri}.html", "/abc/${uri}", "/abc/${uri}.html")
	},
	// crossplane-go drops the first character of the line after a "--"
	// Lua comment inside a *_by_lua_block ("ocal data"); lua-nginx-module
	// keeps it.
	"crossplane-go/lua-block-larger/nginx.json": func(p *crossplane.Payload) {
		replaceInArgs(p.Config[0].Parsed, "\n                ocal data", "\n                local data")
	},
}

func sourceLine(t *testing.T, dir, file string, n int) string {
	b, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	if n > len(lines) {
		return ""
	}
	return strings.TrimSpace(lines[n-1])
}

func replaceArg(ds []crossplane.Directive, old string, repl ...string) {
	for i := range ds {
		var args []string
		for _, a := range ds[i].Args {
			if a == old {
				args = append(args, repl...)
			} else {
				args = append(args, a)
			}
		}
		if args != nil {
			ds[i].Args = args
		}
		if ds[i].Block != nil {
			replaceArg(*ds[i].Block, old, repl...)
		}
	}
}

func replaceInArgs(ds []crossplane.Directive, old, repl string) {
	for i := range ds {
		for j, a := range ds[i].Args {
			ds[i].Args[j] = strings.ReplaceAll(a, old, repl)
		}
		if ds[i].Block != nil {
			replaceInArgs(*ds[i].Block, old, repl)
		}
	}
}

package parser_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/corpustest"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// isSyntaxClass reports whether an nginx message comes from the tokenizer
// or the block structure rather than from a directive's handler.
func isSyntaxClass(text string) bool {
	for _, s := range []string{"unexpected", "unterminated", "end of file", "is not terminated by", "has no opening", "too long parameter"} {
		if strings.Contains(text, s) {
			return true
		}
	}
	return false
}

// mutate breaks src in one of the ways people do: a deleted ";" or "}", a
// stray quote or brace.
func mutate(r *rand.Rand, src string) (string, string) {
	pick := func(c byte) int {
		var at []int
		for i := 0; i < len(src); i++ {
			if src[i] == c {
				at = append(at, i)
			}
		}
		if len(at) == 0 {
			return -1
		}
		return at[r.IntN(len(at))]
	}
	switch r.IntN(5) {
	case 0:
		if i := pick(';'); i >= 0 {
			return src[:i] + src[i+1:], "delete ;"
		}
	case 1:
		if i := pick('}'); i >= 0 {
			return src[:i] + src[i+1:], "delete }"
		}
	case 2:
		if i := pick(' '); i >= 0 {
			return src[:i+1] + "\"" + src[i+1:], "stray quote"
		}
	case 3:
		if i := pick('\n'); i >= 0 {
			return src[:i] + " {" + src[i:], "stray {"
		}
	case 4:
		if i := pick('\n'); i >= 0 {
			return src[:i+1] + "}\n" + src[i+1:], "stray }"
		}
	}
	return src, "none"
}

// TestDifferentialSyntax mutates corpus configs that the local nginx
// accepts and runs both nginx -t and our parser on each mutant: where nginx
// reports a syntax-class error we must report one at the same line, where
// nginx accepts the file we must report none, and where nginx stops at
// another error first we must not claim a syntax error before it.
func TestDifferentialSyntax(t *testing.T) {
	if testing.Short() {
		t.Skip("runs nginx a few hundred times")
	}
	nginx := nginxtest.Require(t)
	root := corpustest.Root(t)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(1, 2))
	var bases []string
	for _, e := range corpustest.Manifest(t) {
		if e["kind"] == "main" && e["nginx_t"] == "ok" && strings.HasPrefix(e["path"], "nginx-tests/") {
			bases = append(bases, e["path"])
		}
	}
	r.Shuffle(len(bases), func(i, j int) { bases[i], bases[j] = bases[j], bases[i] })
	compared, syntaxSeen, usable := 0, 0, 0
	for _, rel := range bases {
		if usable >= 40 {
			break
		}
		src, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		// Only bases the local nginx accepts as they are: the corpus was
		// labelled with more modules than nginx-light has.
		res, err := nginxtest.TestData(ctx, nginx, src)
		if errors.Is(err, nginxtest.ErrNotLoopback) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if !res.OK {
			continue
		}
		usable++
		for k := 0; k < 5; k++ {
			mutant, how := mutate(r, string(src))
			res, err := nginxtest.TestData(ctx, nginx, []byte(mutant))
			if err != nil {
				continue // the mutant may no longer be loopback-only
			}
			f := parser.ParseString("nginx.conf", mutant, &parser.Options{Kinds: analyzer.Kinds})
			first := 0
			for _, d := range f.Diagnostics {
				if d.Name == parser.NameSyntax {
					first = d.Start().Line
					break
				}
			}
			compared++
			errs := res.Errors()
			switch {
			case res.OK:
				if first != 0 {
					t.Errorf("%s (%s): nginx accepts it, we report a syntax error at line %d", rel, how, first)
				}
			case len(errs) > 0 && isSyntaxClass(errs[0].Text):
				syntaxSeen++
				if first != errs[0].Line {
					t.Errorf("%s (%s): nginx: %s; our first syntax error is at line %d", rel, how, errs[0], first)
				}
			case len(errs) > 0 && errs[0].Line > 0:
				if first != 0 && first < errs[0].Line {
					t.Errorf("%s (%s): nginx stops at line %d (%s), but we report a syntax error earlier, at line %d", rel, how, errs[0].Line, errs[0], first)
				}
			}
		}
	}
	if compared < 100 || syntaxSeen < 30 {
		t.Fatalf("too few comparisons: %d mutants, %d with syntax errors", compared, syntaxSeen)
	}
	t.Logf("%d mutants of %d configs compared; nginx found a syntax error in %d", compared, usable, syntaxSeen)
}

package parser_test

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/corpustest"
)

// nginxAt pulls "in FILE:LINE" out of an nginx -t message.
var nginxAt = regexp.MustCompile(` in (\S+):(\d+)$`)

// TestCorpusAgainstNginx walks the corpus manifest: every main config that
// a real nginx -t accepted must parse without a syntax error, and every one
// it rejected with a tokenizer or block-structure error must get our
// syntax-error at the line nginx named.
func TestCorpusAgainstNginx(t *testing.T) {
	root := corpustest.Root(t)
	var okFiles, syntaxFiles int
	for _, e := range corpustest.Manifest(t) {
		if e["kind"] != "main" {
			continue
		}
		path := filepath.Join(root, e["path"])
		accepted := e["nginx_t"] == "ok" || e["nginx_t_head"] == "ok" || e["nginx_t_wrapped"] == "ok"
		syntax := e["fail_class"] == "syntax"
		if !accepted && !syntax {
			continue
		}
		t.Run(e["path"], func(t *testing.T) {
			c, err := (&parser.Loader{Kinds: analyzer.Kinds}).Load(path)
			if err != nil {
				t.Fatal(err)
			}
			var syn []*parser.Diagnostic
			for _, d := range c.AllDiagnostics() {
				if d.Name == parser.NameSyntax || d.Name == parser.NameMissingSemicolon {
					syn = append(syn, d)
				}
			}
			if accepted {
				for _, d := range syn {
					t.Errorf("nginx -t accepts this file, but: %v", d)
				}
				return
			}
			m := nginxAt.FindStringSubmatch(e["nginx_t_message"])
			if m == nil {
				t.Fatalf("no location in %q", e["nginx_t_message"])
			}
			wantFile := filepath.Join(root, m[1])
			wantLine, _ := strconv.Atoi(m[2])
			var first *parser.Diagnostic
			for _, d := range syn {
				if d.Name == parser.NameSyntax && d.FilePath() == wantFile {
					first = d
					break
				}
			}
			if first == nil {
				t.Fatalf("nginx: %s\nwe report no syntax error in that file (all: %v)", e["nginx_t_message"], syn)
			}
			if got := first.Start().Line; got != wantLine {
				t.Errorf("nginx: %s\nour first syntax error is at line %d: %v", e["nginx_t_message"], got, first)
			}
			if !strings.HasPrefix(first.Message, nginxMessageHead(e["nginx_t_message"])) {
				t.Logf("wording differs: nginx %q, ours %q", e["nginx_t_message"], first.Message)
			}
		})
		if accepted {
			okFiles++
		} else {
			syntaxFiles++
		}
	}
	if okFiles < 300 || syntaxFiles < 20 {
		t.Fatalf("corpus too small: %d accepted, %d syntax failures", okFiles, syntaxFiles)
	}
	t.Logf("%d accepted configs parse clean; %d syntax failures located", okFiles, syntaxFiles)
}

func nginxMessageHead(msg string) string {
	msg = strings.TrimPrefix(msg, "[emerg] ")
	if i := strings.Index(msg, " in "); i >= 0 {
		msg = msg[:i]
	}
	return msg
}

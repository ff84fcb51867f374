package lint_test

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/corpustest"
)

// update rewrites the golden files of TestFindingsGolden and
// TestCorpusFindings: go test ./analyzer/lint -run Findings -update.
var update = flag.Bool("update", false, "rewrite testdata/findings.golden and testdata/corpus-findings.sum")

// goldenDirs are the directories of the repository whose .conf files
// TestFindingsGolden lints (the txtar cases have their own test).
var goldenDirs = []string{"testdata", "cmd/nginx-lint/testdata", "lsp/testdata", "analyzer/rules/testdata"}

// TestFindingsGolden lints every .conf file of the repository's test data
// alone, as "nginx-lint --no-config FILE" does, and compares every finding
// (place, severity, code, message, detail, related places, fix) with
// testdata/findings.golden. A change that moves a finding shows here as a
// diff; when it is meant, go test ./analyzer/lint -run Findings -update
// rewrites the file, and the diff goes into the commit.
func TestFindingsGolden(t *testing.T) {
	root := repoRoot(t)
	var files []string
	for _, dir := range goldenDirs {
		files = append(files, confFiles(t, root, filepath.Join(root, dir))...)
	}
	if len(files) < 100 {
		t.Fatalf("only %d .conf files under %v", len(files), goldenDirs)
	}
	listings := lintEach(t, root, files)
	var got bytes.Buffer
	for _, f := range files {
		got.WriteString(listings[f])
	}
	golden := filepath.Join("testdata", "findings.golden")
	if *update {
		if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test ./analyzer/lint -run Findings -update writes it)", err)
	}
	if d := lineDiff(string(want), got.String()); d != "" {
		t.Errorf("findings differ from %s (- golden, + now; -update rewrites it when the change is meant):\n%s", golden, d)
	}
}

// TestCorpusFindings lints every .conf file of the shared corpus
// (../shared/corpus, which a user's clone lacks: the test then skips) and
// compares each file's findings with the digest testdata/corpus-findings.sum
// keeps for it: the corpus is not ours to copy, so the file holds a count
// and a SHA-256 of each listing rather than the findings. A file that
// differs is shown with its findings now; -update rewrites the digests.
func TestCorpusFindings(t *testing.T) {
	root := corpustest.Root(t)
	files := confFiles(t, root, root)
	listings := lintEach(t, root, files)
	var got bytes.Buffer
	for _, f := range files {
		l := listings[f]
		sum := sha256.Sum256([]byte(l))
		fmt.Fprintf(&got, "%s %d %s\n", f, strings.Count(l, "\n"), hex.EncodeToString(sum[:12]))
	}
	golden := filepath.Join("testdata", "corpus-findings.sum")
	if *update {
		if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test ./analyzer/lint -run Findings -update writes it)", err)
	}
	wantSum := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(want)), "\n") {
		if f, rest, ok := strings.Cut(line, " "); ok {
			wantSum[f] = rest
		}
	}
	gotFiles := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(got.String()), "\n") {
		f, rest, _ := strings.Cut(line, " ")
		gotFiles[f] = true
		if w, ok := wantSum[f]; !ok {
			t.Errorf("%s: not in %s (a file new to the corpus: -update)", f, golden)
		} else if w != rest {
			t.Errorf("%s: findings differ from %s (count and digest %s, now %s); now:\n%s", f, golden, w, rest, listings[f])
		}
	}
	for f := range wantSum {
		if !gotFiles[f] {
			t.Errorf("%s: in %s but not in the corpus", f, golden)
		}
	}
}

// lintEach lints each file (a path relative to root) alone and returns
// its listing: one line per finding, paths relative to root.
func lintEach(t *testing.T, root string, files []string) map[string]string {
	out := make(map[string]string, len(files))
	var mu sync.Mutex
	work := make(chan string)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range work {
				l := lintListing(t, root, f)
				mu.Lock()
				out[f] = l
				mu.Unlock()
			}
		}()
	}
	for _, f := range files {
		work <- f
	}
	close(work)
	wg.Wait()
	return out
}

// lintListing lints root/rel as the command line does with --no-config.
func lintListing(t *testing.T, root, rel string) string {
	w := &lint.Workspace{Registry: rules.All(), NoSettings: true, MaxTotalSize: 256 << 20}
	targets, err := lint.Targets([]string{filepath.Join(root, rel)})
	if err != nil {
		return rel + " | error " + err.Error() + "\n"
	}
	rep, err := w.Lint(targets)
	if err != nil {
		return rel + " | error " + err.Error() + "\n"
	}
	var b strings.Builder
	for _, d := range rep.Findings {
		b.WriteString(rel + " | " + finding(d) + "\n")
	}
	return strings.ReplaceAll(b.String(), root+string(filepath.Separator), "")
}

// finding writes d on one line: place, severity, code, message, detail,
// related places and the edits of its fix.
func finding(d *parser.Diagnostic) string {
	s, e := d.Start(), d.End()
	line := fmt.Sprintf("%s %d:%d-%d:%d %s %s %s | %s", d.FilePath(), s.Line, s.Column, e.Line, e.Column, d.Severity, d.Code, d.Message, d.Detail)
	line = strings.ReplaceAll(line, "\n", `\n`)
	for _, r := range d.Related {
		line += fmt.Sprintf(" | related %s %d-%d %q", pathOf(r.File), r.Range.Start, r.Range.End, r.Message)
	}
	for _, ed := range d.Edits {
		line += fmt.Sprintf(" | edit %s %d-%d %q", pathOf(ed.File), ed.Range.Start, ed.Range.End, ed.NewText)
	}
	if d.Target != "" {
		line += " | target " + d.Target
	}
	return line
}

func pathOf(f *parser.File) string {
	if f == nil {
		return "-"
	}
	return f.Path
}

// confFiles lists the .conf files under dir, relative to root, sorted.
func confFiles(t *testing.T, root, dir string) []string {
	var out []string
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !e.IsDir() && strings.HasSuffix(path, ".conf") {
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			out = append(out, rel)
		}
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// repoRoot is the repository's top directory (where go.mod is).
func repoRoot(t *testing.T) string {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			t.Fatal("no go.mod above " + wd)
		}
	}
}

// lineDiff lists the lines only in want (-) and only in got (+), in order;
// "" when the two are equal.
func lineDiff(want, got string) string {
	if want == got {
		return ""
	}
	count := map[string]int{}
	for _, l := range splitLines(got) {
		count[l]++
	}
	var b strings.Builder
	for _, l := range splitLines(want) {
		if count[l] > 0 {
			count[l]--
			continue
		}
		b.WriteString("- " + l + "\n")
	}
	wantCount := map[string]int{}
	for _, l := range splitLines(want) {
		wantCount[l]++
	}
	for _, l := range splitLines(got) {
		if wantCount[l] > 0 {
			wantCount[l]--
			continue
		}
		b.WriteString("+ " + l + "\n")
	}
	if b.Len() == 0 {
		return "(the same lines in another order)"
	}
	return b.String()
}

func splitLines(s string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(s))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

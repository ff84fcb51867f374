package lint_test

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/internal/testfiles"
	"github.com/nginx-lint/nginx-lint/parser"
)

// readCounter is the disk, counting the reads of each path.
type readCounter struct {
	mu    sync.Mutex
	reads map[string]int
}

func (r *readCounter) ReadFile(path string) ([]byte, error) { return r.ReadFileMax(path, 0) }

func (r *readCounter) ReadFileMax(path string, max int64) ([]byte, error) {
	r.mu.Lock()
	r.reads[path]++
	r.mu.Unlock()
	return parser.OSFS{}.ReadFileMax(path, max)
}

func (r *readCounter) Glob(pattern string) ([]string, error) { return parser.OSFS{}.Glob(pattern) }

// lintWithin lints targets with w and fails the test when that takes a
// minute: the inputs here ran for minutes or exhausted memory before
// each file was visited once, and take well under a second now, so the
// bound only catches a hang, not a slow machine.
func lintWithin(t *testing.T, w *lint.Workspace, targets ...lint.Target) *lint.Report {
	t.Helper()
	var rep *lint.Report
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		rep, err = w.Lint(targets)
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("lint ran for a minute")
	}
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func countByName(rep *lint.Report) map[string]int {
	n := map[string]int{}
	for _, d := range rep.Findings {
		n[d.Name]++
	}
	return n
}

// TestLintIncludeGraphs lints the configurations of the hostile include
// layouts with every rule: each file is read once, and the run ends with
// the include past the bound reported.
func TestLintIncludeGraphs(t *testing.T) {
	for name, files := range map[string]map[string]string{
		"fan-out": testfiles.IncludeFanOut(40),
		"chain":   testfiles.IncludeChain(8, 10),
		"nest":    testfiles.IncludeNest(1100),
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			testfiles.Write(t, dir, files)
			disk := &readCounter{reads: map[string]int{}}
			w := &lint.Workspace{FS: disk, NoSettings: true}
			rep := lintWithin(t, w, lint.Target{Path: filepath.Join(dir, "nginx.conf")})
			for p, n := range disk.reads {
				if n != 1 {
					t.Errorf("%s read %d times", p, n)
				}
			}
			if countByName(rep)[parser.NameIncludeLimit] == 0 {
				t.Errorf("no include-limit finding: %v", countByName(rep))
			}
		})
	}
}

// TestLintDirectoryOfIncludes: a directory whose files include each
// other (all of c/ in each file of c/) is read once per configuration
// loaded, not once per file: the files a configuration read before
// includes are not loaded again as configurations of their own.
func TestLintDirectoryOfIncludes(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, testfiles.IncludeFanOut(300))
	targets, err := lint.Targets([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	disk := &readCounter{reads: map[string]int{}}
	rep := lintWithin(t, &lint.Workspace{FS: disk, NoSettings: true}, targets...)
	for p, n := range disk.reads {
		// c/f001.conf, first in the directory, and nginx.conf each read
		// all of c/.
		if n > 2 {
			t.Errorf("%s read %d times", p, n)
		}
	}
	if len(rep.Units) != 1 || filepath.Base(rep.Units[0].Config.Main.Path) != "nginx.conf" {
		t.Errorf("%d configurations linted, want nginx.conf alone", len(rep.Units))
	}
}

// TestNamedFragmentsLoadTheirNginxConfOnce: fragments named together
// (nginx-lint conf.d/*.conf) are linted through the nginx.conf above
// them, loaded once for all of them (it was loaded again for each: 2,000
// fragments took 111 s, now a fifth of a second); each fragment's own
// finding is reported.
func TestNamedFragmentsLoadTheirNginxConfOnce(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"nginx.conf": "events {}\nhttp {\n    include conf.d/*.conf;\n}\n"}
	var targets []lint.Target
	const n = 300
	for i := range n {
		name := fmt.Sprintf("conf.d/s%03d.conf", i)
		files[name] = fmt.Sprintf("server {\n    listen 127.0.0.1:%d;\n    bogus_directive on;\n}\n", 10000+i)
		targets = append(targets, lint.Target{Path: filepath.Join(dir, name)})
	}
	testfiles.Write(t, dir, files)
	disk := &readCounter{reads: map[string]int{}}
	w := &lint.Workspace{FS: disk, NoSettings: true}
	rep := lintWithin(t, w, targets...)
	if got := disk.reads[filepath.Join(dir, "nginx.conf")]; got != 1 {
		t.Errorf("nginx.conf read %d times, want 1", got)
	}
	for p, k := range disk.reads {
		// A fragment is read as named, and once by the nginx.conf.
		if k > 2 {
			t.Errorf("%s read %d times", p, k)
		}
	}
	if got := countByName(rep)["unknown-directive"]; got != n {
		t.Errorf("%d unknown-directive findings, want %d", got, n)
	}
}

// benchmarkLintConfig lints the configuration files hold, written to a
// temporary directory, with every rule.
func benchmarkLintConfig(b *testing.B, files map[string]string) {
	dir := b.TempDir()
	testfiles.Write(b, dir, files)
	target := lint.Target{Path: filepath.Join(dir, "nginx.conf")}
	for b.Loop() {
		if _, err := (&lint.Workspace{NoSettings: true}).Lint([]lint.Target{target}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLintIncludeFanOut lints TestLintIncludeGraphs' forty files
// that each include all forty (before: 26 s and 4.8 GB, then out of
// memory).
func BenchmarkLintIncludeFanOut(b *testing.B) { benchmarkLintConfig(b, testfiles.IncludeFanOut(40)) }

// BenchmarkLintIncludeChain lints the chain of eight levels of ten
// (before: over 60 s and 4.5 GB).
func BenchmarkLintIncludeChain(b *testing.B) { benchmarkLintConfig(b, testfiles.IncludeChain(8, 10)) }

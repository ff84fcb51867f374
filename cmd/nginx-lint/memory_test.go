//go:build unix

package main

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// peakRSSChild, set in the environment, makes the test binary run the
// lint command on the file it names and exit: BenchmarkPeakRSS measures
// that process's peak resident memory, which in-process figures (heap
// statistics) understate.
const peakRSSChild = "NGINX_LINT_PEAK_RSS_CHILD"

func init() {
	if p := os.Getenv(peakRSSChild); p != "" {
		os.Exit(run([]string{"--no-config", "--max-file-size", "1GiB", "--max-total-size", "1GiB", p}, strings.NewReader(""), io.Discard, io.Discard))
	}
}

// BenchmarkPeakRSS lints generated configurations of about 100 MB (the
// size limits raised for them) in a child process and reports its peak
// RSS, in MB and per byte of input ("rss/byte"; the target is at most
// 6): "dense" is 300,000 servers of short directives, the shape whose
// tree is largest per byte; "typical" is 100,000 servers written as
// people write them (typicalConfig), and "fragment" the same servers
// alone in a file whose context is inferred (typicalFragment).
func BenchmarkPeakRSS(b *testing.B) {
	for _, c := range []struct {
		name string
		gen  func() []byte
	}{
		{"dense", func() []byte { return denseConfig(300000) }},
		{"typical", func() []byte { return typicalConfig(100000) }},
		{"fragment", func() []byte { return typicalFragment(100000) }},
	} {
		b.Run(c.name, func(b *testing.B) { peakRSS(b, c.gen()) })
	}
}

func peakRSS(b *testing.B, src []byte) {
	path := filepath.Join(b.TempDir(), "nginx.conf")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		b.Fatal(err)
	}
	var peak int64
	for b.Loop() {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), peakRSSChild+"="+path)
		if err := cmd.Run(); err != nil {
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() > exitFindings {
				b.Fatalf("lint: %v", err)
			}
		}
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			peak = max(peak, ru.Maxrss*1024) // kilobytes on Linux
		}
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-MB")
	b.ReportMetric(float64(peak)/float64(len(src)), "rss/byte")
	b.ReportMetric(float64(len(src))/(1<<20), "input-MB")
}

//go:build unix

package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// parsePeakChild, set in the environment, makes the test binary run
// "parse" on the file it names, its output discarded, and exit.
const parsePeakChild = "NGINX_LINT_PARSE_PEAK_CHILD"

func init() {
	if p := os.Getenv(parsePeakChild); p != "" {
		os.Exit(run([]string{"parse", "--max-file-size", "1GiB", "--max-total-size", "1GiB", p}, strings.NewReader(""), io.Discard, io.Discard))
	}
}

// parsePeakRSS runs parse on src in a child process and returns its peak
// resident memory in bytes.
func parsePeakRSS(t testing.TB, src []byte) int64 {
	path := filepath.Join(t.TempDir(), "nginx.conf")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), parsePeakChild+"="+path)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("parse: %v\n%s", err, out)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Skip("no resource usage on this system")
	}
	return ru.Maxrss * 1024 // kilobytes on Linux
}

// TestParseMemory: parse of a dense 14 MiB configuration stays within
// 300 MB (134 MB measured: the run's 64 MiB floor and 5 bytes per byte);
// building the payload and its JSON whole took over a gigabyte.
func TestParseMemory(t *testing.T) {
	src := denseConfig(38000)
	peak := parsePeakRSS(t, src)
	t.Logf("%d MiB in, peak RSS %d MiB (%.1fx)", len(src)>>20, peak>>20, float64(peak)/float64(len(src)))
	if peak > 300<<20 {
		t.Errorf("peak RSS %d MiB for %d MiB", peak>>20, len(src)>>20)
	}
}

// BenchmarkParsePeakRSS is BenchmarkPeakRSS for parse: the peak RSS of
// parse on the dense configuration of 118 MiB, in MB and per byte.
func BenchmarkParsePeakRSS(b *testing.B) {
	src := denseConfig(300000)
	var peak int64
	for b.Loop() {
		peak = max(peak, parsePeakRSS(b, src))
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-MB")
	b.ReportMetric(float64(peak)/float64(len(src)), "rss/byte")
	b.ReportMetric(float64(len(src))/(1<<20), "input-MB")
}

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/internal/testfiles"
	"github.com/nginx-lint/nginx-lint/parser"
)

// richLevel opens a location that sets a variable, sends it in a header,
// sets a header for the proxy and holds an exact and a regex location
// of its own besides the next level: what the rules that keep the
// enclosing blocks of a directive read.
func richLevel(i int) string {
	return fmt.Sprintf("location / {\nset $v%d x$request_id;\nadd_header X-V%d $v%d;\nproxy_set_header Host $host;\n"+
		"location = /e%d { return 204; }\nlocation ~ ^/r%d/ { return 204; }", i, i, i, i, i)
}

// setLevel opens a location that sets a variable and sends it in a
// header: little else to allocate, so a copy of the enclosing blocks
// per level shows.
func setLevel(i int) string {
	return fmt.Sprintf("location / {\nset $v%d x$request_id;\nadd_header X-V%d $v%d;", i, i, i)
}

// nestedConf writes n locations nested in one another (testfiles.
// NestedLocations, listening on 127.0.0.1:8080) to a temporary directory
// and returns its path.
func nestedConf(t testing.TB, n int, head func(int) string, inner string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "nginx.conf")
	src := testfiles.NestedLocations(n, "127.0.0.1:8080", head, inner)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestNestingEveryCommand: locations nested as deep as nginx reads them
// (parser.MaxDepth blocks with http and server) go through every command
// with nginx's verdict, no finding, and the innermost location answering;
// one level more is an error at that location's line and column; what
// nginx refuses inside the deepest location (a nested "if", a location in
// an "if") stays an error at nginx's line.
func TestNestingEveryCommand(t *testing.T) {
	deepest := parser.MaxDepth - 2
	path := nestedConf(t, deepest, testfiles.Location, "return 200 deep;")
	innermost := fmt.Sprintf("nginx.conf:%d", 4+deepest) // the line of the innermost location

	code, out, errOut := runCLI(t, "", "--format", "json", path)
	var res struct{ Diagnostics []struct{ Message string } }
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != exitClean || len(res.Diagnostics) != 0 {
		t.Errorf("lint --format json: exit %d, %v, %s %s", code, err, out[:min(len(out), 500)], errOut)
	}
	if code, out, errOut := runCLI(t, "", path); code != exitClean || strings.TrimSpace(out) != "" {
		t.Errorf("lint: exit %d, %q %s", code, out[:min(len(out), 500)], errOut)
	}
	code, out, errOut = runCLI(t, "", "fmt", path)
	if code != exitClean || strings.Count(out, "location / {") != deepest {
		t.Errorf("fmt: exit %d, %d locations, %s", code, strings.Count(out, "location / {"), errOut)
	}
	// Indented as deep as 64 blocks, the payload is linear in the file.
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runCLI(t, "", "parse", path); code != exitClean || !strings.HasPrefix(out, "{\n  \"status\": \"ok\"") || strings.Count(out, `"directive": "location"`) != deepest || len(out) > 300*int(fi.Size()) {
		t.Errorf("parse: exit %d, %d bytes, %q, %s", code, len(out), out[:min(len(out), 200)], errOut)
	}
	if code, out, errOut := runCLI(t, "", "cost", path); code != exitClean || !strings.Contains(out, "locations created and merged") {
		t.Errorf("cost: exit %d, %s %s", code, out, errOut)
	}
	if code, out, errOut := runCLI(t, "", "route", path, "http://127.0.0.1:8080/x"); code != exitClean || !strings.Contains(out, innermost) || !strings.Contains(out, `200 with the text "deep"`) {
		t.Errorf("route: exit %d, want the location at %s: %s %s", code, innermost, out, errOut)
	}
	shallow := nestedConf(t, 3, testfiles.Location, "return 200 shallow;")
	if code, out, errOut := runCLI(t, "", "diff", path, shallow); code != exitClean || !strings.Contains(out, innermost) {
		t.Errorf("diff: exit %d, want the location at %s: %s %s", code, innermost, out, errOut)
	}

	// One level more: an error where nginx would run out of stack.
	past := nestedConf(t, deepest+1, testfiles.Location, "return 200 deep;")
	want := fmt.Sprintf("nginx.conf:%d:1: error: blocks nested more than %d deep", 4+deepest+1, parser.MaxDepth)
	if code, out, _ := runCLI(t, "", past); code != exitFindings || !strings.Contains(out, want) {
		t.Errorf("lint one level past the bound: exit %d, want %q in %s", code, want, out[:min(len(out), 500)])
	}

	// What nginx refuses in the deepest location (nginx 1.22: '"if"
	// directive is not allowed here' at the inner if, '"location"
	// directive is not allowed here' at the location).
	for inner, msg := range map[string]string{
		"if ($arg_a) {\nif ($arg_b) { return 404; }\n}":      `"if" directive is not allowed here`,
		"if ($arg_a) {\nlocation /b { return 404; }\n}":      `"location" directive is not allowed here`,
		"limit_except GET {\nlocation /b { return 404; }\n}": `"location" directive is not allowed here`,
	} {
		p := nestedConf(t, deepest-1, testfiles.Location, inner)
		want := fmt.Sprintf("nginx.conf:%d:1: error: %s", 4+deepest-1+2, msg)
		if code, out, _ := runCLI(t, "", p); code != exitFindings || !strings.Contains(out, want) {
			t.Errorf("%q in the deepest location: exit %d, want %q in %s", inner, code, want, out[:min(len(out), 500)])
		}
	}
}

// TestNestingMemoryLinear: what every command allocates grows with the
// depth of nested locations, not its square. The bytes per level of a
// depth four times the middle one are compared with those of the middle
// one over a quarter of it: a cost of the depth per level makes them
// four times as many.
func TestNestingMemoryLinear(t *testing.T) {
	small := nestedConf(t, 1, testfiles.Location, "return 200;")
	for _, cmd := range []struct {
		name   string
		head   func(int) string
		depths [3]int
		args   func(path string) []string
	}{
		{"lint", setLevel, [3]int{500, 2000, 8000}, func(p string) []string { return []string{"--format", "json", p} }},
		{"lint of richLevel", richLevel, [3]int{100, 400, 1600}, func(p string) []string { return []string{"--format", "json", p} }},
		{"fmt", richLevel, [3]int{500, 2000, 8000}, func(p string) []string { return []string{"fmt", p} }},
		{"parse", richLevel, [3]int{500, 2000, 8000}, func(p string) []string { return []string{"parse", "--indent", "0", p} }},
		{"cost", testfiles.Location, [3]int{500, 2000, 8000}, func(p string) []string { return []string{"cost", p} }},
		{"route", testfiles.Location, [3]int{500, 2000, 8000}, func(p string) []string { return []string{"route", p, "http://127.0.0.1:8080/x"} }},
		{"diff", testfiles.Location, [3]int{500, 2000, 8000}, func(p string) []string { return []string{"diff", p, small} }},
	} {
		var alloc [3]float64
		for k, n := range cmd.depths {
			path := nestedConf(t, n, cmd.head, "return 200 deep;")
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			run(cmd.args(path), strings.NewReader(""), io.Discard, io.Discard)
			runtime.ReadMemStats(&after)
			alloc[k] = float64(after.TotalAlloc - before.TotalAlloc)
		}
		d := cmd.depths
		low := (alloc[1] - alloc[0]) / float64(d[1]-d[0])
		high := (alloc[2] - alloc[1]) / float64(d[2]-d[1])
		t.Logf("%s: %.0f bytes a level from %d to %d levels, %.0f from %d to %d (%.1f MB at %d)", cmd.name, low, d[0], d[1], high, d[1], d[2], alloc[2]/1e6, d[2])
		// (3 rather than 1: buffers that double make the bytes of a
		// level vary up to twice.)
		if high > 3*max(low, 1000) {
			t.Errorf("%s: %.0f bytes a level from %d to %d levels, %.0f from %d to %d: memory grows with the square of the depth", cmd.name, high, d[1], d[2], low, d[0], d[1])
		}
	}
}

// BenchmarkLintNested lints 10,000 nested locations that each set a
// variable and send it in a header (setLevel).
func BenchmarkLintNested(b *testing.B) {
	path := nestedConf(b, 10_000, setLevel, "return 200 deep;")
	b.ReportAllocs()
	for b.Loop() {
		if code := run([]string{"--format", "json", path}, strings.NewReader(""), io.Discard, io.Discard); code != exitClean {
			b.Fatalf("exit %d", code)
		}
	}
}

package tablegen

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestScanDirFixture(t *testing.T) {
	hs, err := ScanDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range hs {
		got = append(got, strings.Join([]string{h.Name, h.Module, h.Kind, strings.Join(h.Values, " "), h.Bounds, h.Post}, "|"))
	}
	want := []string{
		"widget_colors|ngx_http_widget_module|bitmask|red dark-blue||",
		"widget_custom|ngx_http_widget_module|custom|||",
		"widget_enabled|ngx_http_widget_module|flag|||",
		"widget_gap|ngx_http_widget_module|size|||widget_gap_check",
		"widget_level|ngx_http_widget_module|num||2:7|",
		// Both #if branches are kept, so the enum has all three values.
		"widget_mode|ngx_http_widget_module|enum|calm busy turbo||",
		"widget_old|ngx_http_widget_module|msec|||deprecated",
		"widget_size|ngx_http_widget_module|size|||widget_size_check",
		// Two branches with different handlers: nothing is sure.
		"widget_twice|ngx_http_widget_module|custom|||",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("scan:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestHandlersRoundTrip(t *testing.T) {
	hs, err := ScanDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	since := map[string]*Since{
		"widget_mode\tngx_http_widget_module":   {Kind: "1.9.0", Values: map[string]string{"turbo": "1.21.1"}},
		"widget_custom\tngx_http_widget_module": {Kind: "1.7.0", Older: &Handler{Kind: "size"}, OlderSince: "1.3.0"},
	}
	path := filepath.Join(t.TempDir(), HandlersFile)
	if err := os.WriteFile(path, WriteHandlers([]string{"fixture"}, hs, since), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, comments, err := readHandlers(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(comments) != 1 || comments[0] != "fixture" {
		t.Errorf("comments %q", comments)
	}
	mode := rows["widget_mode\tngx_http_widget_module"]
	if mode == nil || mode.kindSince != "1.9.0" || strings.Join(mode.valuesSince, ",") != ",,1.21.1" {
		t.Fatalf("widget_mode row %+v", mode)
	}
	for _, tt := range []struct{ name, want string }{
		{"widget_mode", `&ValueSpec{Kind: ValueEnum, Since: "1.9.0", Values: []string{"calm", "busy", "turbo"}, ValuesSince: []string{"", "", "1.21.1"}}`},
		{"widget_level", `&ValueSpec{Kind: ValueNum, Low: 2, High: 7, Bounded: true}`},
		{"widget_gap", `&ValueSpec{Kind: ValueSize, Post: "widget_gap_check"}`},
		// Custom now, a size before 1.7.0.
		{"widget_custom", `&ValueSpec{Since: "1.7.0", Older: &ValueSpec{Kind: ValueSize, Since: "1.3.0"}}`},
		{"widget_twice", ``},
	} {
		if got := valueExpr(rows, tt.name, []string{"ngx_http_widget_module"}); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
	// A row whose modules disagree gets no spec.
	rows["widget_level\tother_module"] = &handlerRow{kind: "size"}
	if got := valueExpr(rows, "widget_level", []string{"ngx_http_widget_module", "other_module"}); got != "" {
		t.Errorf("disagreeing modules: %s", got)
	}
}

func TestReadHandlersRejects(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"name\tmodule\n", "header is not"},
		{handlersHeader + "\na\tm\tweird\t\t\t\t\t\t\t\t\n", `unknown kind "weird"`},
		{handlersHeader + "\na\tm\tenum\t\t\t\t\t\t\t\t\n", "kind enum with 0 values"},
		{handlersHeader + "\na\tm\tnum\t\t\tx:1\t\t\t\t\t\n", "bounds"},
		{handlersHeader + "\na\tm\tnum\t\t\t\t\t\t\t\t\na\tm\tnum\t\t\t\t\t\t\t\t\n", "listed twice"},
		{handlersHeader + "\na\tm\tnum\t\t\t\t\n", "7 cells, want 11"},
		{handlersHeader + "\na\tm\tcustom\t1.2.0\t\t\t\tenum\t\t\t\n", "older handler: kind enum with 0 values"},
		{handlersHeader + "\na\tm\tcustom\t\t\t\t\tsize\t\t\t\n", "must be generic and precede a kind_since"},
		{handlersHeader + "\na\tm\tcustom\t1.2.0\t\t\t\tcustom\t\t\t\n", "must be generic and precede a kind_since"},
		{"# only a comment\n", "no header"},
	} {
		path := filepath.Join(t.TempDir(), HandlersFile)
		if err := os.WriteFile(path, []byte(tt.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, err := readHandlers(path); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want %q", tt.text, err, tt.want)
		}
	}
}

// TestHandlersMatchSource rescans the nginx source named by NGINX_SRC (a
// checkout of the commit handlers.tsv records) and compares every nginx
// row of the committed handlers file, history columns aside. The source
// is not part of the repository or of CI, so without NGINX_SRC the test
// skips.
func TestHandlersMatchSource(t *testing.T) {
	src := os.Getenv("NGINX_SRC")
	if src == "" {
		t.Skip("set NGINX_SRC to an nginx source checkout to compare handlers.tsv with it")
	}
	hs, err := ScanDir(src)
	if err != nil {
		t.Fatal(err)
	}
	rows, _, err := readHandlers(filepath.Join("..", "..", HandlersFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hs {
		r := rows[h.key()]
		if r == nil {
			t.Errorf("%s (%s): not in %s", h.Name, h.Module, HandlersFile)
			continue
		}
		if r.kind != h.Kind || strings.Join(r.values, " ") != strings.Join(h.Values, " ") || r.bounds != h.Bounds || r.post != h.Post {
			t.Errorf("%s (%s): %s has %s %q %s %s, the source %s %q %s %s", h.Name, h.Module, HandlersFile,
				r.kind, r.values, r.bounds, r.post, h.Kind, h.Values, h.Bounds, h.Post)
		}
	}
	if len(hs) < 700 {
		t.Errorf("only %d commands in %s", len(hs), src)
	}
}

// TestHistory builds a git repository whose release tags change a
// made-up module, and checks the versions History derives.
func TestHistory(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	module := func(modeHandler, modes string) string {
		rate := "ngx_conf_set_size_slot"
		if strings.Contains(modes, `"b"`) {
			rate = "m_set_rate"
		}
		return `static ngx_conf_enum_t m_modes[] = {` + modes + ` { ngx_null_string, 0 } };
static ngx_command_t m_commands[] = {
    { ngx_string("m_mode"), 0, ` + modeHandler + `, 0, 0, &m_modes },
    { ngx_string("m_rate"), 0, ` + rate + `, 0, 0, NULL },
    { ngx_string("m_size"), 0, ngx_conf_set_size_slot, 0, 0, NULL },
    ngx_null_command
};
ngx_module_t m_module = { NGX_MODULE_V1, &m_ctx, m_commands, 0 };
`
	}
	git("init", "-q")
	for _, step := range []struct{ tag, src string }{
		{"release-0.9.0", module("ngx_conf_set_flag_slot", "")},
		{"release-1.0.0", module("ngx_conf_set_flag_slot", "")},
		{"release-1.2.0", module("ngx_conf_set_enum_slot", `{ ngx_string("a"), 0 },`)},
		{"release-1.10.0", module("ngx_conf_set_enum_slot", `{ ngx_string("a"), 0 }, { ngx_string("b"), 1 },`)},
		{"release-1.10.1", module("ngx_conf_set_enum_slot", `{ ngx_string("a"), 0 }, { ngx_string("b"), 1 }, { ngx_string("c"), 2 },`)},
	} {
		if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "src", "m.c"), []byte(step.src), 0o644); err != nil {
			t.Fatal(err)
		}
		git("add", "-A")
		git("commit", "-q", "--allow-empty", "-m", step.tag)
		git("tag", step.tag)
	}
	cur, err := ScanFiles(map[string]string{"src/m.c": module("ngx_conf_set_enum_slot", `{ ngx_string("a"), 0 }, { ngx_string("b"), 1 }, { ngx_string("c"), 2 }, { ngx_string("d"), 3 },`)})
	if err != nil {
		t.Fatal(err)
	}
	since, err := History(filepath.Join(dir, ".git"), "1.0.0", cur)
	if err != nil {
		t.Fatal(err)
	}
	mode := since["m_mode\tm_module"]
	// 1.2.0 follows 1.0.0 in version order, 1.10.x come last; "d" is in
	// no release yet, so it gets no version.
	if mode == nil || mode.Kind != "1.2.0" || mode.Values["b"] != "1.10.0" || mode.Values["c"] != "1.10.1" || mode.Values["a"] != "" || mode.Values["d"] != "" {
		t.Errorf("m_mode history %+v", mode)
	}
	// m_rate: a size up to 1.2.0, its own handler from 1.10.0 on.
	if rate := since["m_rate\tm_module"]; rate == nil || rate.Kind != "1.10.0" || rate.Older == nil || rate.Older.Kind != "size" || rate.OlderSince != "" {
		t.Errorf("m_rate history %+v", rate)
	}
	// m_mode's older handler is the flag of 1.0.0.
	if mode != nil && (mode.Older == nil || mode.Older.Kind != "flag") {
		t.Errorf("m_mode older handler %+v", mode.Older)
	}
	if size := since["m_size\tm_module"]; size == nil || size.Kind != "" || size.Older != nil {
		t.Errorf("m_size is as old as the history, got %+v", size)
	}
	if _, err := History(filepath.Join(dir, ".git"), "2.0.0", cur); err == nil {
		t.Error("History from a missing tag succeeded")
	}
}

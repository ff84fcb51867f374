package tablegen

import (
	"os"
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
		"widget_mode\tngx_http_widget_module": {Kind: "1.9.0", Values: map[string]string{"turbo": "1.21.1"}},
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
		{"widget_custom", ``},
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
		{handlersHeader + "\na\tm\tweird\t\t\t\t\n", `unknown kind "weird"`},
		{handlersHeader + "\na\tm\tenum\t\t\t\t\n", "kind enum with 0 values"},
		{handlersHeader + "\na\tm\tnum\t\t\tx:1\t\n", "bounds"},
		{handlersHeader + "\na\tm\tnum\t\t\t\t\na\tm\tnum\t\t\t\t\n", "listed twice"},
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

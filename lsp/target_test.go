package lsp

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// TestNginxVersionSetting: the editor's nginxVersion is the target, as
// --nginx-version is on the command line: "http2 on;" is unknown to
// 1.22.1. A malformed version is refused and changes nothing.
func TestNginxVersionSetting(t *testing.T) {
	s, c, dir := setup(t, nil)
	uri := open(t, s, c, filepath.Join(dir, "nginx.conf"), "events {}\nhttp {\n    server { listen 127.0.0.1:80; http2 on; }\n}\n")
	codes := func() string {
		var out []string
		for _, d := range c.diags(uri) {
			out = append(out, fmt.Sprint(d.Code.Value))
		}
		return strings.Join(out, " ")
	}
	change := func(settings string) error {
		var v any
		if err := json.Unmarshal([]byte(settings), &v); err != nil {
			t.Fatal(err)
		}
		err := s.didChangeConfiguration(c.ctx(), &protocol.DidChangeConfigurationParams{Settings: v})
		s.Settle()
		return err
	}
	if got := codes(); got != "" {
		t.Fatalf("newest nginx: %q", got)
	}
	if err := change(`{"nginx-lint": {"nginxVersion": "1.22.1"}}`); err != nil {
		t.Fatal(err)
	}
	if got := codes(); got != "NL2001" {
		t.Errorf("nginxVersion 1.22.1: %q, want NL2001 (http2 is 1.25.1's)", got)
	}
	if err := change(`{"nginx-lint": {"nginx-version": "1.22"}}`); err == nil {
		t.Errorf("a malformed nginx-version was taken")
	}
	if got := codes(); got != "NL2001" {
		t.Errorf("after a refused setting: %q", got)
	}
}

// TestNginxVersionInitOptions: both spellings of the key, the empty
// default unset, and anything but a version refused.
func TestNginxVersionInitOptions(t *testing.T) {
	for _, tc := range []struct {
		opts map[string]any
		want string
		ok   bool
	}{
		{map[string]any{"nginxVersion": "1.22.1"}, "1.22.1", true},
		{map[string]any{"nginx-version": "1.25.1"}, "1.25.1", true},
		{map[string]any{"nginxVersion": ""}, "", true},
		{map[string]any{"nginxVersion": "v1.22.1"}, "", false},
		{map[string]any{"nginxVersion": 1.22}, "", false},
	} {
		o, err := parseInitOptions(tc.opts)
		if (err == nil) != tc.ok || err == nil && o.nginxVersion != tc.want {
			t.Errorf("%v: version %q, error %v; want %q (ok %v)", tc.opts, o.nginxVersion, err, tc.want, tc.ok)
		}
	}
}

package rules_test

import (
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
)

// TestCorrectnessRelatedAndSeverity checks what the txtar cases cannot:
// that findings point back at the first declaration, and that the one
// non-fatal case of duplicate-listen is downgraded to a warning.
func TestCorrectnessRelatedAndSeverity(t *testing.T) {
	src := "events {}\nhttp {\n" +
		"    server {\n        listen 443 ssl default_server;\n        listen 443;\n        root /a;\n        root /b;\n    }\n" + // 3-8
		"    server {\n        listen 8443 ssl;\n        server_name a.test;\n    }\n" + // 9-12
		"    server {\n        listen 8443;\n        server_name b.test;\n    }\n" + // 13-16
		"    server {\n        listen 8443 ssl;\n        server_name a.test;\n    }\n" + // 17-20
		"}\n"
	type want struct {
		rule     string
		line     int
		related  int // line of the first Related, 0 for none
		severity parser.Severity
	}
	wants := []want{
		{"duplicate-listen", 5, 4, parser.Error},            // a duplicate listen 0.0.0.0:443
		{"duplicate-directive", 7, 6, parser.Error},         // root twice
		{"duplicate-listen", 18, 10, parser.Warning},        // protocol options redefined
		{"conflicting-server-name", 19, 11, parser.Warning}, // a.test again
	}
	mine := map[string]bool{}
	for _, r := range []string{"duplicate-listen", "duplicate-directive", "conflicting-server-name", "duplicate-default-server"} {
		if rules.All().Lookup(r) == nil {
			t.Fatalf("rule %s not registered", r)
		}
		mine[r] = true
	}
	var got []want
	for _, d := range lintText(t, src) {
		if !mine[d.Name] {
			continue
		}
		w := want{d.Name, d.Start().Line, 0, d.Severity}
		if len(d.Related) > 0 {
			w.related = d.Related[0].File.Line(int(d.Related[0].Range.Start))
		}
		got = append(got, w)
	}
	if len(got) != len(wants) {
		t.Fatalf("got %v, want %v", got, wants)
	}
	for i := range wants {
		if got[i] != wants[i] {
			t.Errorf("finding %d: got %+v, want %+v", i, got[i], wants[i])
		}
	}
}

// TestStaleDNSSeverity: of stale-dns-cache's findings, the one nginx
// refuses to start with (resolve without a resolver) is an error, the
// others keep the rule's warning.
func TestStaleDNSSeverity(t *testing.T) {
	src := "events {}\nhttp {\n" +
		"    upstream a {\n        zone a 64k;\n        server a.example.com resolve;\n    }\n" + // 3-6
		"    upstream b {\n        server b.example.com;\n    }\n" + // 7-9
		"}\n"
	got := map[int]parser.Severity{}
	for _, d := range lintText(t, src) {
		if d.Name == "stale-dns-cache" {
			got[d.Start().Line] = d.Severity
		}
	}
	if len(got) != 2 || got[5] != parser.Error || got[8] != parser.Warning {
		t.Errorf("stale-dns-cache severities by line: %v, want 5: error, 8: warning", got)
	}
}

// TestUnknownCacheZoneReportedAt: nginx names the end of the http block
// for a proxy_cache zone nothing defines (it finds out while merging);
// the finding stays at the directive and points at nginx's line.
func TestUnknownCacheZoneReportedAt(t *testing.T) {
	src := "events {}\nhttp {\n" +
		"    server {\n        listen 80;\n        location / {\n            proxy_cache foo;\n            proxy_pass http://127.0.0.1:8081;\n        }\n    }\n" + // 3-9
		"\n}\n" // 11
	var n int
	for _, d := range lintText(t, src) {
		if d.Name != "unknown-zone" {
			continue
		}
		n++
		if d.Start().Line != 6 || len(d.Related) != 1 || d.Related[0].File.Line(int(d.Related[0].Range.Start)) != 11 {
			t.Errorf("got %v at line %d with related %v, want line 6 pointing at line 11", d, d.Start().Line, d.Related)
		}
	}
	if n != 1 {
		t.Errorf("got %d unknown-zone findings, want 1", n)
	}
}

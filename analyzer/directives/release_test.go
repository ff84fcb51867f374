package directives

import (
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer/directives/internal/tablegen"
)

func TestNewerThanKnown(t *testing.T) {
	if NginxVersion != "1.31.9" || SourceVersion != "1.31.5" {
		t.Fatalf("NginxVersion %s, SourceVersion %s: update the cases below with changes.xml", NginxVersion, SourceVersion)
	}
	for v, want := range map[string]bool{
		"1.31.9": false, "1.31.10": true, "1.32.0": true, "2.0.0": true,
		"1.30.7": false, "1.30.8": true, "1.30.0": false, "1.31.5": false,
		// A branch with no release after the source: only NginxVersion
		// bounds it.
		"1.28.9": false, "1.22.1": false,
	} {
		if got := NewerThanKnown(v); got != want {
			t.Errorf("NewerThanKnown(%s) = %v, want %v", v, got, want)
		}
	}
	if got := NewestKnown(); len(got) != 2 || got[0] != "1.31.9" || got[1] != "1.30.7" {
		t.Errorf("NewestKnown() = %v", got)
	}
}

// The release record says where each release was read and names the
// directive 1.31.5 added.
func TestChangesFile(t *testing.T) {
	rs, err := tablegen.ReadChanges(tablegen.ChangesFile)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != len(releaseTable) {
		t.Fatalf("changes.xml has %d releases, the tables %d: run go generate ./analyzer/directives", len(rs), len(releaseTable))
	}
	since := tablegen.SinceFromChanges(rs)
	if since["client_body_early_read"] != "1.31.5" {
		t.Errorf("client_body_early_read since %q, want 1.31.5", since["client_body_early_read"])
	}
	if d := Lookup("client_body_early_read"); len(d) == 0 || d[0].Since != "1.31.5" {
		t.Errorf("client_body_early_read rows %v", d)
	}
}

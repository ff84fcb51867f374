package plural

import "testing"

func TestCount(t *testing.T) {
	for _, tt := range []struct {
		n    int
		noun string
		want string
	}{
		{1, "server", "1 server"},
		{2, "server", "2 servers"},
		{0, "server", "0 servers"},
		{1, "address", "1 address"},
		{3, "address", "3 addresses"},
		{2, "listening socket", "2 listening sockets"},
		{2, "match", "2 matches"},
		{2, "info", "2 infos"}, // the severity, as the text summary has said it
		{-1, "file", "-1 files"},
	} {
		if got := Count(tt.n, tt.noun); got != tt.want {
			t.Errorf("Count(%d, %q) = %q, want %q", tt.n, tt.noun, got, tt.want)
		}
	}
	if got := Count(int64(1), "operation"); got != "1 operation" {
		t.Errorf("int64: %q", got)
	}
	if got := Noun(int64(910), "operation"); got != "operations" {
		t.Errorf("Noun: %q", got)
	}
}

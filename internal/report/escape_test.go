package report

import "testing"

func TestTerminalSafe(t *testing.T) {
	for in, want := range map[string]string{
		"plain text, tabs\tand é": "plain text, tabs\tand é",
		"\x1b[31mred\x1b[0m":      `\x1b[31mred\x1b[0m`,
		"a\rb\nc\x00\x7f":         `a\rb\nc\x00\x7f`,
		"c1 \u009b2J":             `c1 \u009b2J`,
		"bidi \u202eevil\u2066":   `bidi \u202eevil\u2066`,
		"bad \xff byte":           `bad \xff byte`,
	} {
		if got := TerminalSafe(in); got != want {
			t.Errorf("TerminalSafe(%q) = %q, want %q", in, got, want)
		}
	}
}

package report

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// TerminalSafe shows the characters of s that a terminal would act on
// instead of print as escapes: C0 controls but tab (so ESC [ ... cannot
// recolor, move the cursor or retitle the window, and a CR cannot hide
// what came before it on the line), DEL, C1 controls (U+0080–U+009F,
// which some terminals read as CSI and friends), the bidirectional
// overrides of "Trojan Source", and bytes that are not UTF-8. A
// configuration is untrusted input and its words reach messages and the
// echoed source line.
func TerminalSafe(s string) string {
	i := 0
	for i < len(s) {
		b := s[i]
		if b < utf8.RuneSelf {
			if b < 0x20 && b != '\t' || b == 0x7f {
				break
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unsafeRune(r, size) {
			break
		}
		i += size
	}
	if i == len(s) {
		return s // the common case: nothing to escape, no copy
	}
	var sb strings.Builder
	sb.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\n':
			sb.WriteString(`\n`)
		case r == '\r':
			sb.WriteString(`\r`)
		case r < 0x20 && r != '\t' || r == 0x7f:
			fmt.Fprintf(&sb, `\x%02x`, r)
		case unsafeRune(r, size):
			if r == utf8.RuneError && size == 1 {
				fmt.Fprintf(&sb, `\x%02x`, s[i])
			} else {
				fmt.Fprintf(&sb, `\u%04x`, r)
			}
		default:
			sb.WriteString(s[i : i+size])
		}
		i += size
	}
	return sb.String()
}

// unsafeRune reports a non-ASCII rune TerminalSafe escapes: invalid
// UTF-8, C1 controls and the bidirectional embeddings, overrides and
// isolates.
func unsafeRune(r rune, size int) bool {
	switch {
	case r == utf8.RuneError && size == 1:
		return true
	case r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

package directives

import (
	"fmt"
	"strings"
)

// ArgRule is the rule nginx applies to a directive's argument count (the
// NGX_CONF_NOARGS, NGX_CONF_TAKE*, NGX_CONF_FLAG, NGX_CONF_1MORE,
// NGX_CONF_2MORE and NGX_CONF_ANY bits of ngx_command_t.type). Counts
// never include the directive name.
//
// The zero value means the rule is unknown: the directive is documented
// but its source was not available (Directive.ArgsKnown is false).
//
// Whether a directive opens a block is not part of the rule; see
// Directive.Block.
type ArgRule uint16

// Argument rules. NoArgs and Take1 to Take7 may be combined; each allows
// exactly its count. The other rules stand alone in the data.
const (
	// NoArgs allows no arguments (NGX_CONF_NOARGS).
	NoArgs ArgRule = 1 << iota
	// Take1 allows exactly one argument (NGX_CONF_TAKE1).
	Take1
	// Take2 allows exactly two arguments (NGX_CONF_TAKE2).
	Take2
	// Take3 allows exactly three arguments (NGX_CONF_TAKE3).
	Take3
	// Take4 allows exactly four arguments (NGX_CONF_TAKE4).
	Take4
	// Take5 allows exactly five arguments (NGX_CONF_TAKE5).
	Take5
	// Take6 allows exactly six arguments (NGX_CONF_TAKE6).
	Take6
	// Take7 allows exactly seven arguments (NGX_CONF_TAKE7).
	Take7
	// Flag allows exactly one argument, which nginx then requires to be
	// "on" or "off" (NGX_CONF_FLAG).
	Flag
	// OneMore allows one or more arguments (NGX_CONF_1MORE).
	OneMore
	// TwoMore allows two or more arguments (NGX_CONF_2MORE).
	TwoMore
	// AnyArgs allows any number of arguments, zero included; nginx skips
	// the count check (NGX_CONF_ANY).
	AnyArgs
)

// The combined TAKE rules that nginx names (NGX_CONF_TAKE12 and so on).
const (
	// Take12 allows one or two arguments.
	Take12 = Take1 | Take2
	// Take13 allows one or three arguments.
	Take13 = Take1 | Take3
	// Take23 allows two or three arguments.
	Take23 = Take2 | Take3
	// Take123 allows one to three arguments.
	Take123 = Take1 | Take2 | Take3
	// Take1234 allows one to four arguments.
	Take1234 = Take1 | Take2 | Take3 | Take4
)

// countBits are the bits that allow one exact count: bit n allows n
// arguments, as in nginx's argument_number table.
const countBits = NoArgs | Take1 | Take2 | Take3 | Take4 | Take5 | Take6 | Take7

// maxTake is the largest count a TAKE bit can allow.
const maxTake = 7

// Accepts reports whether a directive with rule r may be given n
// arguments. It checks in nginx's order (ANY, FLAG, 1MORE, 2MORE, then the
// exact counts), so a rule holding several of those behaves as nginx
// would. An unknown rule accepts every count: with nothing to go on, a
// linter must not report an error. A negative n is never accepted.
func (r ArgRule) Accepts(n int) bool {
	switch {
	case n < 0:
		return false
	case r == 0 || r&AnyArgs != 0:
		return true
	case r&Flag != 0:
		return n == 1
	case r&OneMore != 0:
		return n >= 1
	case r&TwoMore != 0:
		return n >= 2
	case n > maxTake:
		return false
	default:
		return r&(1<<n) != 0
	}
}

// IsFlag reports whether r is nginx's on/off rule, so the single
// argument must be "on" or "off". Directives that take on/off among other
// values (server_tokens is TAKE1) are not flags.
func (r ArgRule) IsFlag() bool { return r&Flag != 0 }

// Known reports whether the rule came from the nginx source; the zero
// rule is unknown.
func (r ArgRule) Known() bool { return r != 0 }

// String returns the data's word for r, which is the suffix of nginx's
// mask names: "TAKE12", "NOARGS|TAKE1", "FLAG", "1MORE", "2MORE", "ANY",
// and "" for the unknown rule.
func (r ArgRule) String() string {
	var parts []string
	if r&AnyArgs != 0 {
		parts = append(parts, "ANY")
	}
	if r&Flag != 0 {
		parts = append(parts, "FLAG")
	}
	if r&OneMore != 0 {
		parts = append(parts, "1MORE")
	}
	if r&TwoMore != 0 {
		parts = append(parts, "2MORE")
	}
	if r&NoArgs != 0 {
		parts = append(parts, "NOARGS")
	}
	if r&(countBits&^NoArgs) != 0 {
		take := "TAKE"
		for n := 1; n <= maxTake; n++ {
			if r&(1<<n) != 0 {
				take += string(rune('0' + n))
			}
		}
		parts = append(parts, take)
	}
	if rest := r &^ (AnyArgs<<1 - 1); rest != 0 {
		parts = append(parts, fmt.Sprintf("%#x", uint16(rest)))
	}
	return strings.Join(parts, "|")
}

// ParseArgRule parses an args word as String writes it ("TAKE12",
// "NOARGS|TAKE1", "1MORE"). The BLOCK+ prefix of the data's args column
// is not part of the rule and is rejected. "" parses as the unknown rule.
func ParseArgRule(word string) (ArgRule, bool) {
	if word == "" {
		return 0, true
	}
	var r ArgRule
	for _, p := range strings.Split(word, "|") {
		var x ArgRule
		switch p {
		case "NOARGS":
			x = NoArgs
		case "FLAG":
			x = Flag
		case "1MORE":
			x = OneMore
		case "2MORE":
			x = TwoMore
		case "ANY":
			x = AnyArgs
		default:
			digits, ok := strings.CutPrefix(p, "TAKE")
			if !ok || digits == "" {
				return 0, false
			}
			for i := 0; i < len(digits); i++ {
				d := digits[i]
				if d < '1' || d > '0'+maxTake || (i > 0 && d <= digits[i-1]) {
					return 0, false
				}
				x |= 1 << (d - '0')
			}
		}
		if r&x != 0 {
			return 0, false
		}
		r |= x
	}
	return r, true
}

// This file checks the syntax of regular expressions as PCRE2 10.42
// compiles them for nginx (8-bit, not UTF, options only from the pattern
// and from "~*"), and reports PCRE2's own error text and offset, so the
// linter can say what nginx's "pcre2_compile() failed: ..." will say.
//
// It is a syntax checker, not a matcher: it walks the pattern once the
// way PCRE2's parse_regex does and checks what compiling checks after
// parsing (references to groups that do not exist, fixed-length
// lookbehinds). It was written from PCRE2's documentation (pcre2pattern)
// and tested against nginx on generated patterns; Go's regexp is not
// PCRE and rejects much that PCRE accepts (possessive quantifiers,
// lookaround, backreferences, \Q...\E), and accepts some that PCRE
// rejects.

package regex

import (
	"strings"
)

// Error is a compile error: PCRE2's message and the byte offset it
// reports (nginx prints the pattern from there on, unless the offset is
// the end of the pattern).
type Error struct {
	Msg    string
	Offset int
}

func (e *Error) Error() string { return e.Msg }

// Limits of PCRE2 10.42.
const (
	maxQuantifier = 65535
	maxNameLen    = 32
	maxGroups     = 65535
)

// Check returns the error PCRE2 reports for pattern, or nil.
func Check(pattern string) *Error {
	p := &compiler{s: pattern, names: map[string]int{}}
	if err := p.run(); err != nil {
		return err
	}
	return p.finish()
}

// Groups returns the number of capture groups of a pattern that Check
// accepts.
func Groups(pattern string) int {
	p := &compiler{s: pattern, names: map[string]int{}}
	if p.run() != nil {
		return 0
	}
	return p.groups
}

type compiler struct {
	s   string
	i   int
	ext bool // (?x) in force
	// groups counts capture groups so far; names maps names to numbers.
	groups int
	names  map[string]int
	// refs are the group references to resolve at the end.
	refs []ref
	// depth is the nesting of parentheses, lookaround that of
	// lookahead and lookbehind assertions (\K is not allowed there).
	depth, lookaround int
	// transparent is set by an item that matches nothing and lets a
	// quantifier apply to the item before it: (?#...), \E.
	transparent bool
	// deferred is an error PCRE2 finds only after it has resolved the
	// group references.
	deferred *Error
}

// ref is a back reference or subroutine call, by number or by name.
type ref struct {
	num    int
	name   string
	offset int
}

func (p *compiler) err(msg string, off int) *Error { return &Error{Msg: msg, Offset: off} }

// later keeps the first error of the compile phase, which PCRE2 reports
// only when parsing found none.
func (p *compiler) later(e *Error) {
	if p.deferred == nil {
		p.deferred = e
	}
}

func (p *compiler) finish() *Error {
	for _, r := range p.refs {
		if r.name != "" {
			if _, ok := p.names[r.name]; !ok {
				return p.err("reference to non-existent subpattern", r.offset)
			}
			continue
		}
		if r.num > p.groups {
			return p.err("reference to non-existent subpattern", r.offset)
		}
	}
	return p.deferred
}

// run parses the whole pattern.
func (p *compiler) run() *Error {
	// Start-of-pattern options such as (*UTF) or (*LIMIT_MATCH=n).
	for strings.HasPrefix(p.s[p.i:], "(*") {
		j := p.i + 2
		for j < len(p.s) && (p.s[j] >= 'A' && p.s[j] <= 'Z' || p.s[j] == '_' || p.s[j] >= '0' && p.s[j] <= '9' || p.s[j] == '=') {
			j++
		}
		name := p.s[p.i+2 : j]
		if j >= len(p.s) || p.s[j] != ')' || !startOption(name) {
			break
		}
		// (*UTF) and (*UCP) are allowed; the checker reads the rest as
		// bytes all the same.
		p.i = j + 1
	}
	_, err := p.alternation(false, false)
	if err != nil {
		return err
	}
	if p.i < len(p.s) {
		// alternation stops only at ")" at depth 0.
		return p.err("unmatched closing parenthesis", p.i)
	}
	return nil
}

func startOption(name string) bool {
	switch name {
	case "UTF", "UTF8", "UCP", "NO_AUTO_POSSESS", "NO_DOTSTAR_ANCHOR", "NO_JIT", "NO_START_OPT",
		"NOTEMPTY", "NOTEMPTY_ATSTART", "CR", "LF", "CRLF", "ANYCRLF", "ANY", "NUL", "BSR_ANYCRLF", "BSR_UNICODE":
		return true
	}
	for _, pre := range []string{"LIMIT_MATCH=", "LIMIT_DEPTH=", "LIMIT_RECURSION=", "LIMIT_HEAP="} {
		if strings.HasPrefix(name, pre) && len(name) > len(pre) && allDigits(name[len(pre):]) {
			return true
		}
	}
	return false
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// length is the match length of a parsed piece: fixed reports whether it
// always matches min bytes.
type length struct {
	min   int
	fixed bool
}

// alternation parses branches up to a ")" (consumed by the caller) or the
// end. inGroup says a ")" ends it; lookbehind asks for each branch to be
// of fixed length. It returns the length when all branches agree.
func (p *compiler) alternation(inGroup, lookbehind bool) (length, *Error) {
	saveExt := p.ext
	defer func() { p.ext = saveExt }()
	var all length
	first := true
	for {
		l, err := p.branch(lookbehind)
		if err != nil {
			return length{}, err
		}
		if first {
			all, first = l, false
		} else if !l.fixed || !all.fixed || l.min != all.min {
			all.fixed = false
		}
		if p.i < len(p.s) && p.s[p.i] == '|' {
			p.i++
			continue
		}
		if p.i >= len(p.s) {
			if inGroup {
				return length{}, p.err("missing closing parenthesis", len(p.s))
			}
			return all, nil
		}
		// p.s[p.i] == ')'
		if !inGroup {
			return length{}, p.err("unmatched closing parenthesis", p.i)
		}
		return all, nil
	}
}

// branch parses items up to "|", ")" or the end.
func (p *compiler) branch(lookbehind bool) (length, *Error) {
	total := length{fixed: true}
	lastRepeatable := false
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == '|' || c == ')' {
			break
		}
		start := p.i
		l, repeatable, err := p.atom()
		if err != nil {
			return length{}, err
		}
		if p.i == start {
			continue
		}
		if p.transparent {
			p.transparent = false
			repeatable = lastRepeatable
		}
		q, err := p.quantifier(repeatable)
		lastRepeatable = repeatable && !q.present
		if err != nil {
			return length{}, err
		}
		if q.present {
			if q.min != q.max || !l.fixed {
				l = length{min: l.min * q.min, fixed: false}
			} else {
				l = length{min: l.min * q.min, fixed: true}
			}
		}
		total.min += l.min
		total.fixed = total.fixed && l.fixed
	}
	return total, nil
}

type quant struct {
	present  bool
	min, max int // max -1 for unbounded
}

// quantifier parses an optional quantifier after an item.
func (p *compiler) quantifier(repeatable bool) (quant, *Error) {
	p.skipExtended()
	if p.i >= len(p.s) {
		return quant{}, nil
	}
	var q quant
	switch p.s[p.i] {
	case '*':
		q = quant{true, 0, -1}
		p.i++
	case '+':
		q = quant{true, 1, -1}
		p.i++
	case '?':
		q = quant{true, 0, 1}
		p.i++
	case '{':
		var ok bool
		var err *Error
		q, ok, err = p.braces()
		if err != nil {
			return quant{}, err
		}
		if !ok {
			return quant{}, nil
		}
	default:
		return quant{}, nil
	}
	if !repeatable {
		return quant{}, p.err("quantifier does not follow a repeatable item", p.i-1)
	}
	// A lazy or possessive mark.
	if p.i < len(p.s) && (p.s[p.i] == '?' || p.s[p.i] == '+') {
		p.i++
	}
	p.skipExtended()
	// Another quantifier straight after is an error.
	if p.i < len(p.s) {
		switch p.s[p.i] {
		case '*', '+', '?':
			return quant{}, p.err("quantifier does not follow a repeatable item", p.i)
		case '{':
			save := p.i
			if _, ok, _ := p.braces(); ok {
				return quant{}, p.err("quantifier does not follow a repeatable item", p.i-1)
			}
			p.i = save
		}
	}
	return q, nil
}

// braces reads "{n}", "{n,}" or "{n,m}" at p.i; ok is false (and p.i
// unchanged) when the brace is a literal.
func (p *compiler) braces() (quant, bool, *Error) {
	s, i := p.s, p.i+1
	readNum := func() (int, int, bool) {
		j, n := i, 0
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			if n <= maxQuantifier {
				n = n*10 + int(s[j]-'0')
			}
			j++
		}
		return n, j, j > i
	}
	min, j, ok := readNum()
	if !ok {
		return quant{}, false, nil
	}
	minEnd := j
	max := min
	i = j
	if i < len(s) && s[i] == ',' {
		i++
		var got bool
		max, j, got = readNum()
		if !got {
			max = -1
		}
		i = j
	}
	if i >= len(s) || s[i] != '}' {
		return quant{}, false, nil
	}
	if min > maxQuantifier {
		return quant{}, false, p.err("number too big in {} quantifier", minEnd)
	}
	if max > maxQuantifier {
		return quant{}, false, p.err("number too big in {} quantifier", i)
	}
	if max >= 0 && max < min {
		return quant{}, false, p.err("numbers out of order in {} quantifier", i)
	}
	p.i = i + 1
	return quant{true, min, max}, true, nil
}

// skipExtended skips white space and comments in extended mode.
func (p *compiler) skipExtended() {
	if !p.ext {
		return
	}
	for p.i < len(p.s) {
		switch c := p.s[p.i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			p.i++
		case c == '#':
			for p.i < len(p.s) && p.s[p.i] != '\n' {
				p.i++
			}
		default:
			return
		}
	}
}

// atom parses one item at p.i; repeatable says a quantifier may follow.
func (p *compiler) atom() (length, bool, *Error) {
	p.skipExtended()
	if p.i >= len(p.s) {
		return length{fixed: true}, false, nil
	}
	c := p.s[p.i]
	switch c {
	case '|', ')':
		return length{fixed: true}, false, nil
	case '^', '$':
		p.i++
		return length{fixed: true}, false, nil
	case '.':
		p.i++
		return length{1, true}, true, nil
	case '[':
		if p.i+1 < len(p.s) && (p.s[p.i+1] == ':' || p.s[p.i+1] == '.' || p.s[p.i+1] == '=') {
			if _, ok := posixEnd(p.s, p.i); ok {
				return length{}, false, p.err("POSIX named classes are supported only within a class", p.i)
			}
		}
		err := p.class()
		return length{1, true}, true, err
	case '\\':
		return p.escape()
	case '(':
		return p.group()
	case '*', '+', '?':
		return length{}, false, p.err("quantifier does not follow a repeatable item", p.i)
	case '{':
		if _, ok, err := p.braces(); err != nil || ok {
			if err != nil {
				return length{}, false, err
			}
			return length{}, false, p.err("quantifier does not follow a repeatable item", p.i-1)
		}
		p.i++
		return length{1, true}, true, nil
	}
	p.i++
	return length{1, true}, true, nil
}

// escape parses a backslash sequence outside a class.
func (p *compiler) escape() (length, bool, *Error) {
	s := p.s
	start := p.i
	p.i++
	if p.i >= len(s) {
		return length{}, false, p.err(`\ at end of pattern`, len(s))
	}
	c := s[p.i]
	p.i++
	switch c {
	case 'A', 'z', 'Z', 'G', 'b', 'B':
		return length{fixed: true}, false, nil
	case 'K':
		if p.lookaround > 0 {
			p.later(p.err(`\K is not allowed in lookarounds (but see PCRE2_EXTRA_ALLOW_LOOKAROUND_BSK)`, len(s)))
		}
		return length{fixed: true}, false, nil
	case 'd', 'D', 's', 'S', 'w', 'W', 'h', 'H', 'v', 'V', 'N', 'C':
		if c == 'N' && p.i < len(s) && s[p.i] == '{' {
			return p.escapeNBrace()
		}
		return length{1, true}, true, nil
	case 'R', 'X':
		return length{1, false}, true, nil
	case 'a', 'e', 'f', 'n', 'r', 't':
		return length{1, true}, true, nil
	case 'E':
		p.transparent = true
		return length{fixed: true}, false, nil
	case 'Q':
		end := strings.Index(s[p.i:], `\E`)
		n := 0
		if end < 0 {
			n = len(s) - p.i
			p.i = len(s)
		} else {
			n = end
			p.i += end + 2
		}
		return length{n, true}, n > 0, nil
	case 'c':
		if p.i >= len(s) {
			return length{}, false, p.err(`\c at end of pattern`, len(s))
		}
		if s[p.i] < 32 || s[p.i] > 126 {
			return length{}, false, p.err(`\c must be followed by a printable ASCII character`, p.i)
		}
		p.i++
		return length{1, true}, true, nil
	case 'x':
		return p.hexEscape()
	case 'o':
		return p.octalBrace()
	case 'p', 'P':
		return p.property()
	case 'g':
		return p.gEscape(start)
	case 'k':
		return p.kEscape()
	case 'F', 'L', 'l', 'U', 'u':
		return length{}, false, p.err(`PCRE2 does not support \F, \L, \l, \N{name}, \U, or \u`, p.i)
	case '0':
		// Up to two more octal digits.
		for k := 0; k < 2 && p.i < len(s) && s[p.i] >= '0' && s[p.i] <= '7'; k++ {
			p.i++
		}
		return length{1, true}, true, nil
	}
	if c >= '1' && c <= '9' {
		j := p.i
		n := int(c - '0')
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			if n < 100000 {
				n = n*10 + int(s[j]-'0')
			}
			j++
		}
		if n < 10 || c == '8' || c == '9' || n <= p.groups {
			p.i = j
			p.refs = append(p.refs, ref{num: n, offset: start + 1})
			return length{0, true}, true, nil
		}
		// An octal escape of up to three digits.
		if c >= '8' {
			return length{1, true}, true, nil
		}
		v := int(c - '0')
		for k := 0; k < 2 && p.i < len(s) && s[p.i] >= '0' && s[p.i] <= '7'; k++ {
			v = v*8 + int(s[p.i]-'0')
			p.i++
		}
		if v > 0377 {
			return length{}, false, p.err(`octal value is greater than \377 in 8-bit non-UTF-8 mode`, p.i)
		}
		return length{1, true}, true, nil
	}
	if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
		return length{}, false, p.err(`unrecognized character follows \`, p.i-1)
	}
	return length{1, true}, true, nil
}

func (p *compiler) escapeNBrace() (length, bool, *Error) {
	// \N{U+hh} needs UTF mode; \N{name} is unsupported; \N{3} is \N
	// repeated.
	s := p.s
	save := p.i
	if _, ok, err := p.braces(); ok || err != nil {
		if err != nil {
			return length{}, false, err
		}
		// \N followed by a quantifier: give the braces back to the caller.
		p.i = save
		return length{1, true}, true, nil
	}
	if strings.HasPrefix(s[p.i:], "{U+") {
		end := strings.IndexByte(s[p.i:], '}')
		if end >= 0 {
			p.i += end + 1
		}
		return length{}, false, p.err(`\N{U+dddd} is supported only in Unicode (UTF) mode`, p.i)
	}
	return length{}, false, p.err(`PCRE2 does not support \F, \L, \l, \N{name}, \U, or \u`, p.i)
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}

// hexEscape reads \xhh or \x{h...}.
func (p *compiler) hexEscape() (length, bool, *Error) {
	s := p.s
	if p.i < len(s) && s[p.i] == '{' {
		j := p.i + 1
		v := 0
		for j < len(s) && isHex(s[j]) {
			if v <= 0xff {
				v = v*16 + hexVal(s[j])
			}
			j++
		}
		if j == p.i+1 {
			if j < len(s) && s[j] == '}' {
				return length{}, false, p.err(`digits missing in \x{} or \o{} or \N{U+}`, j)
			}
			return length{}, false, p.err(`non-hex character in \x{} (closing brace missing?)`, j)
		}
		if j >= len(s) || s[j] != '}' {
			return length{}, false, p.err(`non-hex character in \x{} (closing brace missing?)`, j)
		}
		if v > 0xff {
			return length{}, false, p.err(`character code point value in \x{} or \o{} is too large`, j)
		}
		p.i = j + 1
		return length{1, true}, true, nil
	}
	for k := 0; k < 2 && p.i < len(s) && isHex(s[p.i]); k++ {
		p.i++
	}
	return length{1, true}, true, nil
}

// octalBrace reads \o{...}.
func (p *compiler) octalBrace() (length, bool, *Error) {
	s := p.s
	if p.i >= len(s) || s[p.i] != '{' {
		return length{}, false, p.err(`missing opening brace after \o`, p.i-1)
	}
	j := p.i + 1
	v := 0
	for j < len(s) && s[j] >= '0' && s[j] <= '7' {
		if v <= 0xff {
			v = v*8 + int(s[j]-'0')
		}
		j++
	}
	if j == p.i+1 && j < len(s) && s[j] == '}' {
		return length{}, false, p.err(`digits missing in \x{} or \o{} or \N{U+}`, j)
	}
	if j >= len(s) || s[j] != '}' {
		return length{}, false, p.err(`non-octal character in \o{} (closing brace missing?)`, j)
	}
	if v > 0xff {
		return length{}, false, p.err(`character code point value in \x{} or \o{} is too large`, j)
	}
	p.i = j + 1
	return length{1, true}, true, nil
}

// property reads the rest of \p or \P: one letter, or {name}.
func (p *compiler) property() (length, bool, *Error) {
	s := p.s
	if p.i >= len(s) {
		return length{}, false, p.err(`malformed \P or \p sequence`, p.i)
	}
	if s[p.i] == '{' {
		end := strings.IndexByte(s[p.i:], '}')
		if end < 0 {
			return length{}, false, p.err(`malformed \P or \p sequence`, len(s))
		}
		name := s[p.i+1 : p.i+end]
		p.i += end + 1
		if !knownProperty(name) {
			return length{}, false, p.err(`unknown property after \P or \p`, p.i)
		}
		return length{1, true}, true, nil
	}
	name := s[p.i : p.i+1]
	p.i++
	if !knownProperty(name) {
		return length{}, false, p.err(`unknown property after \P or \p`, p.i)
	}
	return length{1, true}, true, nil
}

// knownProperty accepts the general categories and the names PCRE2 takes
// loosely (case, spaces, hyphens and underscores ignored); scripts and
// binary properties are many, so any other name of letters is accepted.
func knownProperty(name string) bool {
	n := strings.TrimPrefix(name, "^")
	n = strings.NewReplacer(" ", "", "-", "", "_", "").Replace(strings.ToLower(n))
	if n == "" {
		return false
	}
	if i := strings.IndexAny(n, ":="); i >= 0 {
		switch n[:i] {
		case "sc", "script", "scx", "scriptextensions", "bc", "bidiclass":
			n = n[i+1:]
		default:
			return false
		}
	}
	if propertyNames[n] {
		return true
	}
	// Bidi classes are listed with their "bidi" prefix.
	return propertyNames["bidi"+n]
}

// nameRef reads a reference to a named group up to term (\k<name>,
// (?P=name), (?P>name), (?&name)); the names are checked once the whole
// pattern is read, when every group is known. A reference matches no
// text of its own for the length count.
func (p *compiler) nameRef(term byte) (length, bool, *Error) {
	name, err := p.readName(term)
	if err != nil {
		return length{}, false, err
	}
	p.refs = append(p.refs, ref{name: name, offset: p.i - len(name) - 1})
	return length{0, false}, true, nil
}

// readName reads a group name at p.i up to the terminator term.
func (p *compiler) readName(term byte) (string, *Error) {
	s := p.s
	start := p.i
	if p.i < len(s) && s[p.i] >= '0' && s[p.i] <= '9' {
		return "", p.err("subpattern name must start with a non-digit", p.i)
	}
	for p.i < len(s) && (s[p.i] == '_' || s[p.i] >= 'a' && s[p.i] <= 'z' || s[p.i] >= 'A' && s[p.i] <= 'Z' || s[p.i] >= '0' && s[p.i] <= '9') {
		p.i++
	}
	name := s[start:p.i]
	if p.i-start > maxNameLen {
		return "", p.err("subpattern name is too long (maximum 32 code units)", p.i)
	}
	if name == "" {
		return "", p.err("subpattern name expected", p.i)
	}
	if p.i >= len(s) || s[p.i] != term {
		return "", p.err("syntax error in subpattern name (missing terminator?)", p.i)
	}
	p.i++
	return name, nil
}

// gEscape reads \g forms: \gN, \g-N, \g{N}, \g{-N}, \g{name} (back
// references), \g<...> and \g'...' (subroutine calls).
func (p *compiler) gEscape(start int) (length, bool, *Error) {
	s := p.s
	bad := func() (length, bool, *Error) {
		return length{}, false, p.err(`\g is not followed by a braced, angle-bracketed, or quoted name/number or by a plain number`, p.i)
	}
	if p.i >= len(s) {
		return bad()
	}
	switch s[p.i] {
	case '<', '\'':
		term := byte('>')
		if s[p.i] == '\'' {
			term = '\''
		}
		p.i++
		return p.numberOrName(term, true, start+2)
	case '{':
		p.i++
		return p.numberOrName('}', false, start+2)
	}
	sign := 0
	if s[p.i] == '+' || s[p.i] == '-' {
		sign = 1
		if s[p.i] == '-' {
			sign = -1
		}
		p.i++
	}
	j := p.i
	n := 0
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		if n < 100000 {
			n = n*10 + int(s[j]-'0')
		}
		j++
	}
	if j == p.i || sign == 1 {
		return bad()
	}
	p.i = j
	return p.numberRef(n, sign, start+2)
}

func (p *compiler) numberRef(n, sign, off int) (length, bool, *Error) {
	if sign < 0 {
		if n == 0 {
			return length{}, false, p.err("a relative value of zero is not allowed", off)
		}
		if n > p.groups {
			return length{}, false, p.err("reference to non-existent subpattern", off)
		}
		return length{0, false}, true, nil
	}
	if n == 0 {
		// \g{0} and \g0 name group 0, which is not a group.
		return length{}, false, p.err("reference to non-existent subpattern", off)
	}
	p.refs = append(p.refs, ref{num: n, offset: off})
	return length{0, false}, true, nil
}

// numberOrName reads a number (with a sign) or a name up to term.
func (p *compiler) numberOrName(term byte, call bool, at int) (length, bool, *Error) {
	s := p.s
	sign := 0
	if p.i < len(s) && (s[p.i] == '+' || s[p.i] == '-') {
		sign = 1
		if s[p.i] == '-' {
			sign = -1
		}
		p.i++
	}
	if p.i < len(s) && s[p.i] >= '0' && s[p.i] <= '9' {
		j, n := p.i, 0
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			if n < 100000 {
				n = n*10 + int(s[j]-'0')
			}
			j++
		}
		if j >= len(s) || s[j] != term {
			return length{}, false, p.err(`\g is not followed by a braced, angle-bracketed, or quoted name/number or by a plain number`, j)
		}
		p.i = j + 1
		if call && sign == 0 && n == 0 {
			return length{0, false}, true, nil // \g<0> recurses the whole pattern
		}
		if sign == 1 {
			p.refs = append(p.refs, ref{num: p.groups + n, offset: at})
			return length{0, false}, true, nil
		}
		return p.numberRef(n, sign, at)
	}
	if sign != 0 {
		return length{}, false, p.err(`\g is not followed by a braced, angle-bracketed, or quoted name/number or by a plain number`, p.i)
	}
	name, err := p.readName(term)
	if err != nil {
		return length{}, false, err
	}
	p.refs = append(p.refs, ref{name: name, offset: at})
	return length{0, false}, true, nil
}

// kEscape reads \k<name>, \k'name' and \k{name}.
func (p *compiler) kEscape() (length, bool, *Error) {
	s := p.s
	if p.i >= len(s) || (s[p.i] != '<' && s[p.i] != '\'' && s[p.i] != '{') {
		return length{}, false, p.err(`\k is not followed by a braced, angle-bracketed, or quoted name`, p.i)
	}
	term := map[byte]byte{'<': '>', '\'': '\'', '{': '}'}[s[p.i]]
	p.i++
	return p.nameRef(term)
}

// posixClasses are the names PCRE2 accepts in [:name:].
var posixClasses = map[string]bool{"alpha": true, "lower": true, "upper": true, "alnum": true, "ascii": true,
	"blank": true, "cntrl": true, "digit": true, "graph": true, "print": true, "punct": true, "space": true,
	"word": true, "xdigit": true}

// class parses a character class starting at "[".
func (p *compiler) class() *Error {
	s := p.s
	p.i++
	if p.i < len(s) && s[p.i] == '^' {
		p.i++
	}
	// A "]" first is a literal.
	first := true
	for {
		if p.i >= len(s) {
			return p.err("missing terminating ] for character class", len(s))
		}
		c := s[p.i]
		if c == ']' && !first {
			p.i++
			return nil
		}
		first = false
		if c == '[' && p.i+1 < len(s) && (s[p.i+1] == ':' || s[p.i+1] == '.' || s[p.i+1] == '=') {
			if end, ok := posixEnd(s, p.i); ok {
				if s[p.i+1] != ':' {
					return p.err("POSIX collating elements are not supported", p.i)
				}
				name := strings.TrimPrefix(s[p.i+2:end], "^")
				if !posixClasses[name] {
					return p.err("unknown POSIX class name", p.i+2)
				}
				p.i = end + 2
				if p.i < len(s) && s[p.i] == '-' && p.i+1 < len(s) && s[p.i+1] != ']' {
					return p.err("invalid range in character class", p.i)
				}
				continue
			}
		}
		var v int
		var err *Error
		v, err = p.classChar()
		if err != nil {
			return err
		}
		// A range?
		if p.i+1 < len(s) && s[p.i] == '-' && s[p.i+1] != ']' {
			if v < 0 {
				// "[\d-z]"
				return p.err("invalid range in character class", p.i)
			}
			p.i++
			if s[p.i] == '[' && p.i+1 < len(s) && (s[p.i+1] == ':' || s[p.i+1] == '.' || s[p.i+1] == '=') {
				if _, ok := posixEnd(s, p.i); ok {
					return p.err("invalid range in character class", p.i+1)
				}
			}
			hi, err := p.classChar()
			if err != nil {
				return err
			}
			if hi < 0 {
				return p.err("invalid range in character class", p.i)
			}
			if hi < v {
				return p.err("range out of order in character class", p.i-1)
			}
			continue
		}
	}
}

// posixEnd finds the ":]" (or ".]", "=]") that closes a POSIX class
// starting at i, as PCRE2's check_posix_syntax does.
func posixEnd(s string, i int) (int, bool) {
	term := s[i+1]
	for j := i + 2; j+1 < len(s); j++ {
		if s[j] == '\\' && j+1 < len(s) && (s[j+1] == ']' || s[j+1] == '\\') {
			j++
			continue
		}
		if s[j] == '[' && j+1 < len(s) && (s[j+1] == ':' || s[j+1] == '.' || s[j+1] == '=') {
			return 0, false
		}
		if s[j] == term && s[j+1] == ']' {
			return j, true
		}
		if s[j] == ']' {
			return 0, false
		}
	}
	return 0, false
}

// classChar reads one character of a class (a literal or an escape) and
// returns its value, or -1 for an escape that stands for several
// characters (\d, \s, \p{..}).
func (p *compiler) classChar() (int, *Error) {
	s := p.s
	c := s[p.i]
	if c != '\\' {
		p.i++
		return int(c), nil
	}
	p.i++
	if p.i >= len(s) {
		return 0, p.err(`\ at end of pattern`, len(s))
	}
	c = s[p.i]
	p.i++
	switch c {
	case 'd', 'D', 's', 'S', 'w', 'W', 'h', 'H', 'v', 'V':
		return -1, nil
	case 'p', 'P':
		if _, _, err := p.property(); err != nil {
			return 0, err
		}
		return -1, nil
	case 'b':
		return 8, nil
	case 'a':
		return 7, nil
	case 'e':
		return 27, nil
	case 'f':
		return 12, nil
	case 'n':
		return 10, nil
	case 'r':
		return 13, nil
	case 't':
		return 9, nil
	case 'B', 'R', 'X':
		return 0, p.err("escape sequence is invalid in character class", p.i-1)
	case 'N':
		return 0, p.err(`\N is not supported in a class`, p.i)
	case 'Q':
		// \Q...\E inside a class: the quoted characters are literals.
		end := strings.Index(s[p.i:], `\E`)
		if end < 0 {
			p.i = len(s)
			return -1, nil
		}
		p.i += end + 2
		return -1, nil
	case 'E':
		return -1, nil
	case 'c':
		if p.i >= len(s) {
			return 0, p.err(`\c at end of pattern`, len(s))
		}
		if s[p.i] < 32 || s[p.i] > 126 {
			return 0, p.err(`\c must be followed by a printable ASCII character`, p.i)
		}
		v := int(s[p.i])
		if v >= 'a' && v <= 'z' {
			v -= 32
		}
		p.i++
		return v ^ 0x40, nil
	case 'x':
		return p.classHex()
	case 'o':
		save := p.i
		if _, _, err := p.octalBrace(); err != nil {
			return 0, err
		}
		return octalValue(s[save+1 : p.i-1]), nil
	case 'F', 'L', 'l', 'U', 'u':
		return 0, p.err(`PCRE2 does not support \F, \L, \l, \N{name}, \U, or \u`, p.i)
	}
	if c >= '0' && c <= '7' {
		v := int(c - '0')
		for k := 0; k < 2 && p.i < len(s) && s[p.i] >= '0' && s[p.i] <= '7'; k++ {
			v = v*8 + int(s[p.i]-'0')
			p.i++
		}
		if v > 0377 {
			return 0, p.err(`octal value is greater than \377 in 8-bit non-UTF-8 mode`, p.i)
		}
		return v, nil
	}
	if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '8' || c == '9' {
		if c == '8' || c == '9' {
			return int(c), nil
		}
		if c == 'g' {
			return int(c), nil
		}
		if c == 'k' || c == 'A' || c == 'z' || c == 'Z' || c == 'G' || c == 'K' || c == 'C' {
			return 0, p.err("escape sequence is invalid in character class", p.i-1)
		}
		return 0, p.err(`unrecognized character follows \`, p.i-1)
	}
	return int(c), nil
}

func octalValue(s string) int {
	v := 0
	for i := 0; i < len(s); i++ {
		v = v*8 + int(s[i]-'0')
	}
	return v
}

func (p *compiler) classHex() (int, *Error) {
	s := p.s
	if p.i < len(s) && s[p.i] == '{' {
		save := p.i
		if _, _, err := p.hexEscape(); err != nil {
			return 0, err
		}
		if p.i == save {
			return 0, nil
		}
		v := 0
		for _, c := range []byte(s[save+1 : p.i-1]) {
			v = v*16 + hexVal(c)
		}
		return v, nil
	}
	v := 0
	for k := 0; k < 2 && p.i < len(s) && isHex(s[p.i]); k++ {
		v = v*16 + hexVal(s[p.i])
		p.i++
	}
	return v, nil
}

// group parses a parenthesized item starting at "(".
func (p *compiler) group() (length, bool, *Error) {
	s := p.s
	open := p.i
	p.i++
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > 250 {
		return length{}, false, p.err("parentheses are too deeply nested", p.i)
	}
	if p.i < len(s) && s[p.i] == '*' {
		return p.verb(open)
	}
	if p.i >= len(s) || s[p.i] != '?' {
		p.groups++
		if p.groups > maxGroups {
			return length{}, false, p.err("too many capturing groups (maximum 65535)", p.i)
		}
		return p.groupBody(false)
	}
	p.i++ // past "?"
	if p.i >= len(s) {
		return length{}, false, p.err("missing closing parenthesis", len(s))
	}
	c := s[p.i]
	switch c {
	case '#':
		end := strings.IndexByte(s[p.i:], ')')
		if end < 0 {
			return length{}, false, p.err("missing ) after (?# comment", len(s))
		}
		p.i += end + 1
		p.transparent = true
		return length{fixed: true}, false, nil
	case ':', '|', '>':
		p.i++
		return p.groupBody(false)
	case '=', '!':
		p.i++
		p.lookaround++
		_, _, err := p.groupBody(false)
		p.lookaround--
		return length{fixed: true}, true, err
	case '<':
		if p.i+1 < len(s) && (s[p.i+1] == '=' || s[p.i+1] == '!') {
			p.i += 2
			p.lookaround++
			_, err := p.alternation(true, true)
			p.lookaround--
			if err != nil {
				return length{}, false, err
			}
			p.i++ // ")"
			if !p.lookbehindFixed(open) {
				// Found when compiling, after parsing and the group
				// references: other errors come first.
				p.later(p.err("lookbehind assertion is not fixed length", open))
			}
			return length{fixed: true}, true, nil
		}
		p.i++
		return p.namedGroup('>')
	case '\'':
		p.i++
		return p.namedGroup('\'')
	case 'P':
		p.i++
		if p.i >= len(s) {
			return length{}, false, p.err("missing closing parenthesis", len(s))
		}
		switch s[p.i] {
		case '<':
			p.i++
			return p.namedGroup('>')
		case '=':
			p.i++
			return p.nameRef(')')
		case '>':
			p.i++
			return p.nameRef(')')
		}
		return length{}, false, p.err("unrecognized character after (?P", p.i)
	case '&':
		p.i++
		return p.nameRef(')')
	case 'R':
		p.i++
		if p.i >= len(s) || s[p.i] != ')' {
			return length{}, false, p.err("(?R (recursive pattern call) must be followed by a closing parenthesis", p.i)
		}
		p.i++
		return length{0, false}, true, nil
	case '(':
		return p.conditional()
	case 'C':
		return p.callout()
	}
	if c == '+' || c == '-' && p.i+1 < len(s) && s[p.i+1] >= '0' && s[p.i+1] <= '9' || c >= '0' && c <= '9' {
		// (?n), (?+n), (?-n): subroutine calls.
		sign := 0
		if c == '+' || c == '-' {
			sign = 1
			if c == '-' {
				sign = -1
			}
			p.i++
		}
		j, n := p.i, 0
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			if n < 100000 {
				n = n*10 + int(s[j]-'0')
			}
			j++
		}
		if j == p.i {
			return length{}, false, p.err("digit expected after (?+ or (?-", p.i)
		}
		p.i = j
		if p.i >= len(s) || s[p.i] != ')' {
			return length{}, false, p.err("(?R (recursive pattern call) must be followed by a closing parenthesis", p.i)
		}
		p.i++
		switch {
		case sign == 0 && n == 0:
		case sign != 0 && n == 0:
			return length{}, false, p.err("a relative value of zero is not allowed", p.i-1)
		case sign < 0:
			if n > p.groups {
				return length{}, false, p.err("reference to non-existent subpattern", p.i-1)
			}
		case sign > 0:
			p.refs = append(p.refs, ref{num: p.groups + n, offset: p.i - 1})
		default:
			p.refs = append(p.refs, ref{num: n, offset: p.i - 1})
		}
		return length{0, false}, true, nil
	}
	return p.options(open)
}

// groupBody parses up to and including the ")".
func (p *compiler) groupBody(lookbehind bool) (length, bool, *Error) {
	l, err := p.alternation(true, lookbehind)
	if err != nil {
		return length{}, false, err
	}
	p.i++ // ")"
	return l, true, nil
}

func (p *compiler) namedGroup(term byte) (length, bool, *Error) {
	name, err := p.readName(term)
	if err != nil {
		return length{}, false, err
	}
	p.groups++
	if _, dup := p.names[name]; dup {
		return length{}, false, p.err("two named subpatterns have the same name (PCRE2_DUPNAMES not set)", p.i)
	}
	p.names[name] = p.groups
	return p.groupBody(false)
}

// options parses (?imnsx-imnsx) and (?imnsx-imnsx: ...).
func (p *compiler) options(open int) (length, bool, *Error) {
	s := p.s
	ext := p.ext
	neg := false
	if p.i < len(s) && s[p.i] == '^' {
		p.i++
		ext = false
	}
	for p.i < len(s) {
		c := s[p.i]
		switch c {
		case 'i', 'm', 'n', 's', 'J', 'U':
		case 'x':
			ext = !neg
			if p.i+1 < len(s) && s[p.i+1] == 'x' {
				p.i++
			}
		case '-':
			if neg {
				return length{}, false, p.err("invalid hyphen in option setting", p.i)
			}
			neg = true
		case ')':
			p.i++
			// Settings last to the end of the enclosing group.
			p.ext = ext
			return length{fixed: true}, false, nil
		case ':':
			p.i++
			save := p.ext
			p.ext = ext
			l, r, err := p.groupBody(false)
			p.ext = save
			return l, r, err
		default:
			return length{}, false, p.err("unrecognized character after (? or (?-", p.i)
		}
		p.i++
	}
	return length{}, false, p.err("missing closing parenthesis", len(s))
}

// verb parses (*VERB), (*VERB:NAME) and (*alpha_assertion: ...).
func (p *compiler) verb(open int) (length, bool, *Error) {
	s := p.s
	p.i++ // past "*"
	j := p.i
	for j < len(s) && (s[j] >= 'A' && s[j] <= 'Z' || s[j] >= 'a' && s[j] <= 'z' || s[j] == '_') {
		j++
	}
	name := s[p.i:j]
	if name == "" && p.i < len(s) && s[p.i] == ':' {
		// (*:NAME) is (*MARK:NAME).
		name = "MARK"
	} else if name == "" {
		if p.i >= len(s) || s[p.i] == ')' {
			// "(*)": the "*" is a quantifier of nothing.
			return length{}, false, p.err("quantifier does not follow a repeatable item", p.i-1)
		}
		return length{}, false, p.err("(*VERB) not recognized or malformed", p.i)
	}
	p.i = j
	if name[0] >= 'a' && name[0] <= 'z' {
		if p.i >= len(s) || s[p.i] != ':' || !alphaAssertion(name) {
			return length{}, false, p.err("(*alpha_assertion) not recognized", p.i)
		}
		p.i++
		switch name {
		case "plb", "positive_lookbehind", "nlb", "negative_lookbehind":
			p.lookaround++
			_, err := p.alternation(true, true)
			p.lookaround--
			if err != nil {
				return length{}, false, err
			}
			p.i++
			if !p.lookbehindFixed(open) {
				// Found when compiling, after parsing and the group
				// references: other errors come first.
				p.later(p.err("lookbehind assertion is not fixed length", open+2))
			}
			return length{fixed: true}, true, nil
		case "atomic", "sr", "script_run", "asr", "atomic_script_run":
			return p.groupBody(false)
		}
		p.lookaround++
		_, _, err := p.groupBody(false)
		p.lookaround--
		return length{fixed: true}, true, err
	}
	switch name {
	case "ACCEPT", "FAIL", "F", "COMMIT", "PRUNE", "SKIP", "THEN", "MARK", "":
	default:
		return length{}, false, p.err("(*VERB) not recognized or malformed", p.i)
	}
	if p.i < len(s) && s[p.i] == ':' {
		// A name after ":" runs to the ")".
		end := strings.IndexByte(s[p.i:], ')')
		if end < 0 {
			return length{}, false, p.err("(*VERB) not recognized or malformed", len(s))
		}
		p.i += end + 1
		return length{fixed: true}, false, nil
	}
	if name == "MARK" {
		return length{}, false, p.err("(*MARK) must have an argument", p.i)
	}
	if p.i >= len(s) || s[p.i] != ')' {
		return length{}, false, p.err("(*VERB) not recognized or malformed", p.i)
	}
	p.i++
	return length{fixed: true}, false, nil
}

func alphaAssertion(name string) bool {
	switch name {
	case "pla", "positive_lookahead", "nla", "negative_lookahead", "plb", "positive_lookbehind",
		"nlb", "negative_lookbehind", "napla", "non_atomic_positive_lookahead", "naplb",
		"non_atomic_positive_lookbehind", "atomic", "sr", "script_run", "asr", "atomic_script_run":
		return true
	}
	return false
}

// conditional parses (?(condition)yes|no).
func (p *compiler) conditional() (length, bool, *Error) {
	s := p.s
	p.i++ // past the second "("
	condStart := p.i
	if p.i >= len(s) {
		return length{}, false, p.err("missing closing parenthesis", len(s))
	}
	switch {
	case p.i < len(s) && s[p.i] == '?' && p.i+1 < len(s) && (s[p.i+1] == '=' || s[p.i+1] == '!' || s[p.i+1] == '<' || s[p.i+1] == 'C'):
		// An assertion condition: parse it as a group.
		p.i--
		if _, _, err := p.group(); err != nil {
			return length{}, false, err
		}
	case p.i < len(s) && s[p.i] == '*':
		p.i--
		if _, _, err := p.group(); err != nil {
			return length{}, false, err
		}
	default:
		end := strings.IndexByte(s[p.i:], ')')
		if end < 0 {
			return length{}, false, p.err("missing closing parenthesis for condition", len(s))
		}
		cond := s[p.i : p.i+end]
		switch {
		case allDigits(cond):
			n := 0
			for _, c := range []byte(cond) {
				if n < 100000 {
					n = n*10 + int(c-'0')
				}
			}
			if n == 0 {
				return length{}, false, p.err("assertion expected after (?( or (?(?C)", condStart)
			}
			p.refs = append(p.refs, ref{num: n, offset: condStart - 1})
		case cond != "" && (cond[0] == '+' || cond[0] == '-') && allDigits(cond[1:]):
		case cond == "R" || cond == "DEFINE" || strings.HasPrefix(cond, "VERSION"):
		case strings.HasPrefix(cond, "R&") || strings.HasPrefix(cond, "R") && allDigits(cond[1:]):
		case len(cond) > 2 && (cond[0] == '<' && cond[len(cond)-1] == '>' || cond[0] == '\'' && cond[len(cond)-1] == '\''):
			p.refs = append(p.refs, ref{name: cond[1 : len(cond)-1], offset: condStart + 1})
		case cond == "":
			return length{}, false, p.err("subpattern name expected", condStart)
		default:
			if cond[0] >= '0' && cond[0] <= '9' {
				return length{}, false, p.err("assertion expected after (?( or (?(?C)", condStart)
			}
			for i := 0; i < len(cond); i++ {
				if !(cond[i] == '_' || cond[i] >= 'a' && cond[i] <= 'z' || cond[i] >= 'A' && cond[i] <= 'Z' || cond[i] >= '0' && cond[i] <= '9') {
					return length{}, false, p.err("assertion expected after (?( or (?(?C)", condStart)
				}
			}
			p.refs = append(p.refs, ref{name: cond, offset: condStart})
		}
		p.i += end + 1
	}
	branches := 1
	// Count the top-level branches of the conditional.
	for {
		if _, err := p.branch(false); err != nil {
			return length{}, false, err
		}
		if p.i >= len(s) {
			return length{}, false, p.err("missing closing parenthesis", len(s))
		}
		if s[p.i] == '|' {
			branches++
			p.i++
			continue
		}
		break
	}
	if branches > 2 {
		p.later(p.err("conditional subpattern contains more than two branches", p.i))
	}
	p.i++ // ")"
	return length{0, false}, true, nil
}

// callout parses (?C), (?Cn) and (?C"text").
func (p *compiler) callout() (length, bool, *Error) {
	s := p.s
	p.i++ // past "C"
	if p.i < len(s) && s[p.i] >= '0' && s[p.i] <= '9' {
		n := 0
		for p.i < len(s) && s[p.i] >= '0' && s[p.i] <= '9' {
			if n < 1000 {
				n = n*10 + int(s[p.i]-'0')
			}
			p.i++
		}
		if n > 255 {
			return length{}, false, p.err("number after (?C is greater than 255", p.i)
		}
	} else if p.i < len(s) && strings.IndexByte("`'\"^%#${", s[p.i]) >= 0 {
		open := s[p.i]
		closeCh := open
		if open == '{' {
			closeCh = '}'
		}
		end := strings.IndexByte(s[p.i+1:], closeCh)
		if end < 0 {
			return length{}, false, p.err("missing terminating delimiter for callout with string argument", p.i)
		}
		p.i += end + 2
	}
	if p.i >= len(s) || s[p.i] != ')' {
		return length{}, false, p.err("closing parenthesis for (?C expected", p.i)
	}
	p.i++
	return length{fixed: true}, false, nil
}

// lookbehindFixed re-parses the lookbehind that starts at open and
// reports whether each of its branches has a fixed length.
func (p *compiler) lookbehindFixed(open int) bool {
	// The body starts after "(?<=" / "(?<!" or "(*plb:" and friends.
	body := p.s[open:p.i]
	var inner string
	switch {
	case strings.HasPrefix(body, "(?<"):
		inner = body[4 : len(body)-1]
	default:
		inner = body[strings.IndexByte(body, ':')+1 : len(body)-1]
	}
	q := &compiler{s: inner, names: map[string]int{}, groups: p.groups, ext: p.ext}
	for {
		l, err := q.branch(false)
		if err != nil || !l.fixed {
			return false
		}
		if q.i < len(q.s) && q.s[q.i] == '|' {
			q.i++
			continue
		}
		return true
	}
}

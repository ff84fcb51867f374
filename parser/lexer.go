package parser

import (
	"strings"
)

// terminator says what ended a statement read by the lexer, mirroring the
// return codes of nginx's ngx_conf_read_token.
type terminator uint8

const (
	termSemicolon terminator = iota // ";": NGX_OK
	termLBrace                      // "{": NGX_CONF_BLOCK_START
	termRBrace                      // "}": NGX_CONF_BLOCK_DONE
	termEOF                         // end of input: NGX_CONF_FILE_DONE
	// termLine ends a statement at the end of the line of a quote left
	// open (recovery only; nginx has no such end).
	termLine
)

// maxTokenLen is nginx's NGX_CONF_BUFFER: a single token that fills the
// whole read buffer is rejected with "too long parameter".
const maxTokenLen = 4096

// lexer splits nginx configuration text into statements the way
// ngx_conf_read_token in src/core/ngx_conf_file.c does: a statement is the
// list of words up to a ";", "{" or "}". Unlike nginx it does not stop at
// the first error: it reports and recovers, so one typo does not hide the
// rest of the file.
type lexer struct {
	src string
	pos int

	// Scratch for the words of the statement being read; the parser copies
	// them out, so one backing array serves the whole file.
	words []Word

	comments []*Comment
	errs     []*Diagnostic
	file     *File

	// strayQuotes are the starts of quoted tokens that ran past their
	// line into an error nginx reports: the text after the closing quote
	// is glued to it, or the input ended inside the quotes. Such a quote
	// was almost always left open by mistake (see recovery).
	strayQuotes []int
	// cut, in a recovery parse, holds the starts of the quoted tokens
	// that end at their line instead of at their closing quote.
	cut map[int]bool
	// dollarBrace is set when a "{" followed a "$" that starts no
	// variable name; brace, in a recovery parse, reads such a "{" as a
	// block's.
	dollarBrace, brace bool
}

func newLexer(f *File) *lexer {
	return &lexer{src: f.Src, file: f}
}

// isNameByte reports whether c may start a variable's name inside "${}".
func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// wordStop marks the bytes that need a decision inside an unquoted word;
// every other byte just extends it.
var wordStop = [256]bool{' ': true, '\t': true, '\r': true, '\n': true, ';': true, '{': true, '\\': true, '$': true}

// statement reads the words of the next statement and what ended it.
// termAt is the offset of the terminating character (len(src) at EOF).
func (lx *lexer) statement() (words []Word, term terminator, termAt int) {
	lx.words = lx.words[:0]
	src := lx.src
	for {
		// Between tokens: skip whitespace, take comments and punctuation.
		for lx.pos < len(src) {
			c := src[lx.pos]
			if !isSpace(c) {
				break
			}
			lx.pos++
		}
		if lx.pos >= len(src) {
			if len(lx.words) > 0 {
				lx.errorf(len(src), len(src), "unexpected end of file, expecting \";\" or \"}\"")
			}
			return lx.words, termEOF, len(src)
		}
		start := lx.pos
		switch src[start] {
		case ';', '{':
			lx.pos++
			if len(lx.words) == 0 {
				if src[start] == ';' {
					lx.errorf(start, start+1, "unexpected \";\"")
					continue
				}
				lx.errorf(start, start+1, "unexpected \"{\"")
				return lx.words, termLBrace, start
			}
			if src[start] == '{' {
				return lx.words, termLBrace, start
			}
			return lx.words, termSemicolon, start
		case '}':
			lx.pos++
			if len(lx.words) != 0 {
				lx.errorf(start, start+1, "unexpected \"}\"")
			}
			return lx.words, termRBrace, start
		case '#':
			lx.comment()
			continue
		}
		term, ended := lx.word()
		if ended && term == termLine {
			return lx.words, term, lx.pos
		}
		if ended {
			return lx.words, term, lx.pos - 1
		}
	}
}

// comment reads a comment from '#' to the end of the line.
func (lx *lexer) comment() {
	start := lx.pos
	end := strings.IndexByte(lx.src[start:], '\n')
	if end < 0 {
		end = len(lx.src)
	} else {
		end += start
	}
	text := lx.src[start+1 : end]
	text = strings.TrimSuffix(text, "\r")
	lx.comments = append(lx.comments, &Comment{Range: rng(start, end), Text: text})
	lx.pos = end
}

// word reads one token starting at lx.pos, which is not whitespace, '#',
// ';', '{' or '}'. It appends the token to lx.words. When the character that
// ended the token also ends the statement (";" or "{" right after an unquoted
// word, or after a closing quote), ended is true and term says which.
func (lx *lexer) word() (term terminator, ended bool) {
	src := lx.src
	start := lx.pos
	var quote byte
	i := start
	escaped := false // the word holds a backslash that needs unescaping
	switch src[i] {
	case '"', '\'':
		quote = src[i]
		i++
	}
	if quote != 0 && lx.cut[start] {
		// Recovery: the quote ends where its line does.
		end := strings.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start
		}
		for j := start + 1; j < end; j++ {
			if src[j] == '\\' {
				escaped = true
			}
		}
		lx.pos = end
		lx.addWord(start, end, quote, escaped)
		return termLine, true
	}
	if quote != 0 {
		for ; i < len(src); i++ {
			switch c := src[i]; c {
			case '\\':
				// The next character is taken literally, even a quote
				// or a newline (quoted tokens may span lines).
				escaped = true
				i++
			case quote:
				lx.pos = i + 1
				lx.addWord(start, i+1, quote, escaped)
				errs := len(lx.errs)
				term, ended := lx.afterQuote()
				if len(lx.errs) > errs && strings.IndexByte(src[start:i], '\n') >= 0 {
					lx.strayQuotes = append(lx.strayQuotes, start)
				}
				return term, ended
			}
		}
		if strings.IndexByte(src[start:], '\n') >= 0 {
			lx.strayQuotes = append(lx.strayQuotes, start)
		}
	} else {
		variable := false
		for ; i < len(src); i++ {
			c := src[i]
			if !wordStop[c] {
				variable = false
				continue
			}
			switch {
			case c == '\\':
				escaped = true
				i++
				variable = false
				continue
			case c == '$':
				variable = true
				continue
			case c == '{' && variable && (!lx.brace || i+1 < len(src) && isNameByte(src[i+1])):
				// "${name}": the brace belongs to the variable, not a
				// block; the flag stays set as in nginx.
				if i+1 >= len(src) || !isNameByte(src[i+1]) {
					lx.dollarBrace = true
				}
				continue
			case c == ';' || c == '{':
				lx.addWord(start, i, 0, escaped)
				lx.pos = i + 1
				if c == ';' {
					return termSemicolon, true
				}
				return termLBrace, true
			}
			// Whitespace ends the word and is left to the caller (a
			// newline is counted there).
			lx.addWord(start, i, 0, escaped)
			lx.pos = i
			return 0, false
		}
	}
	// End of input inside the token: nginx reports it once the statement
	// is cut short.
	if i > len(src) {
		i = len(src)
	}
	lx.pos = i
	// A quoted word cut short here is recognisable by its range alone (see
	// Word.Unterminated).
	lx.addWord(start, i, quote, escaped)
	return 0, false
}

// afterQuote checks the character that follows a closing quote. nginx
// requires whitespace, ";" or "{" there (or ")" for "if" conditions), and
// rejects anything else with `unexpected "X"`. We report the same error and
// then read the character as the start of a new token, which is also how
// crossplane splits `"a"b` into two arguments.
func (lx *lexer) afterQuote() (terminator, bool) {
	if lx.pos >= len(lx.src) {
		return 0, false
	}
	c := lx.src[lx.pos]
	switch {
	case isSpace(c):
		return 0, false
	case c == ';':
		lx.pos++
		return termSemicolon, true
	case c == '{':
		lx.pos++
		return termLBrace, true
	case c == ')':
		return 0, false
	case c == '}':
		// The statement reader reports it when it takes the "}".
		return 0, false
	}
	lx.errorf(lx.pos, lx.pos+1, "unexpected %q", charString(c))
	return 0, false
}

// charString renders one byte for a message the way nginx's "%c" would,
// but keeps invalid UTF-8 readable.
func charString(c byte) string {
	if c < 0x80 {
		return string(rune(c))
	}
	return "\\x" + string("0123456789abcdef"[c>>4]) + string("0123456789abcdef"[c&15])
}

// addWord records the token src[start:end], where end excludes the
// terminating character; for quoted words it includes the closing quote.
func (lx *lexer) addWord(start, end int, quote byte, escaped bool) {
	inner := lx.src[start:end]
	if quote != 0 {
		inner = inner[1:]
		if len(inner) > 0 && inner[len(inner)-1] == quote && end > start+1 {
			inner = inner[:len(inner)-1]
		}
	}
	val := inner
	if escaped {
		val = unescape(inner)
	}
	// nginx measures from after an opening quote up to and including a
	// closing one, and rejects a token that fills its whole read buffer.
	if n := end - start - boolInt(quote != 0); n >= maxTokenLen {
		if quote != 0 && (n > maxTokenLen || !strings.HasSuffix(lx.src[start+1:end], string(quote))) {
			lx.errorf(start, start+1, "too long parameter, probably missing terminating %s character", quoteName(quote))
		} else {
			lx.errorf(start, start+1, "too long parameter %q started", inner[:10]+"...")
		}
	}
	lx.words = append(lx.words, Word{Value: val, Range: rng(start, end)})
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func quoteName(q byte) string {
	switch q {
	case '"':
		return `"\""`
	case '\'':
		return `"'"`
	}
	return `";"`
}

// unescape applies the escapes nginx resolves in every token: \" \' \\
// become the character, \t \r \n become control characters, and any other
// backslash stays as written (so regexes keep "\d").
func unescape(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case '"', '\'', '\\':
				b.WriteByte(s[i+1])
				i++
				continue
			case 't':
				b.WriteByte('\t')
				i++
				continue
			case 'r':
				b.WriteByte('\r')
				i++
				continue
			case 'n':
				b.WriteByte('\n')
				i++
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// rawBlock reads the body of a "*_by_lua_block { ... }" directive after its
// "{" (at lbrace) the way lua-nginx-module's own reader does
// (ngx_http_lua_conf_read_lua_token, whose lexer finds the leftmost of
// "{", "}", a long bracket "[==[", a long comment "--[==[", a line comment
// and a one-line quoted string): Lua strings, long brackets and comments
// may contain braces, so only a "}" outside them, at nesting depth zero,
// ends the block. A quote with no closing quote on its line starts no
// string (the lexer's string tokens end at the line). It returns the body
// range and the offset of the closing "}" (-1 when the input ends first);
// reported is true when it reported why itself.
func (lx *lexer) rawBlock(lbrace int) (body Range, rbrace int, reported bool) {
	src := lx.src
	start := lx.pos
	depth := 0
	i := start
	for i < len(src) {
		c := src[i]
		switch {
		case c == '{':
			// The reader names the line of the last "{" it saw when
			// the input ends.
			lbrace = i
			depth++
			i++
		case c == '}':
			if depth == 0 {
				lx.pos = i + 1
				return rng(start, i), i, false
			}
			depth--
			i++
		case c == '"' || c == '\'':
			if end, ok := quotedLine(src, i); ok {
				i = end
			} else {
				i++ // no string: an ordinary character
			}
		case c == '-' && i+1 < len(src) && src[i+1] == '-':
			i += 2
			if lvl, ok := longBracket(src, i); ok {
				if i = lx.skipLong(i, lvl); i < 0 {
					lx.pos = len(src)
					return rng(start, len(src)), -1, true
				}
				continue
			}
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '[':
			if lvl, ok := longBracket(src, i); ok {
				if i = lx.skipLong(i, lvl); i < 0 {
					lx.pos = len(src)
					return rng(start, len(src)), -1, true
				}
				continue
			}
			i++
		default:
			i++
		}
	}
	lx.pos = len(src)
	// ngx_http_lua_conf_read_lua_token reports the end of the input at the
	// line of the last "{" it read.
	lx.errorf(lbrace, lbrace+1, "unexpected end of file, expecting terminating characters for lua code block")
	return rng(start, len(src)), -1, true
}

// quotedLine returns the offset after the Lua string that the quote at
// src[i] opens, when it closes on the same line: the reader's pattern is
// "(?:\\[^\n]|[^"\n\\])*" (and the same with single quotes).
func quotedLine(src string, i int) (int, bool) {
	q := src[i]
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case q:
			return j + 1, true
		case '\n':
			return 0, false
		case '\\':
			if j+1 >= len(src) || src[j+1] == '\n' {
				return 0, false
			}
			j++
		}
	}
	return 0, false
}

// longBracket reports whether src[i:] opens a Lua long bracket "[==[" and
// its level (the number of "=").
func longBracket(src string, i int) (int, bool) {
	if i >= len(src) || src[i] != '[' {
		return 0, false
	}
	j := i + 1
	for j < len(src) && src[j] == '=' {
		j++
	}
	if j < len(src) && src[j] == '[' {
		return j - i - 1, true
	}
	return 0, false
}

// skipLong skips a long bracket opened at src[i] with the given level and
// returns the offset after its close; an unclosed one is an error at the
// bracket, and -1 is returned.
func (lx *lexer) skipLong(i, level int) int {
	src := lx.src
	closing := "]" + strings.Repeat("=", level) + "]"
	open := i + level + 2
	k := strings.Index(src[open:], closing)
	if k < 0 {
		// lua-nginx-module's reader stops here, at the opening
		// bracket's line (ngx_http_lua_conf_read_lua_token).
		lx.errorf(i, open, "Lua code block missing the closing long bracket %q, the inlined Lua code may be too long", closing)
		return -1
	}
	return open + k + len(closing)
}

func (lx *lexer) errorf(start, end int, msg string, args ...any) {
	lx.errs = append(lx.errs, newSyntaxError(lx.file, rng(start, end), msg, args...))
}

package script

import (
	"fmt"
	"strings"
	"testing"
)

// show writes tokens as the table below spells them: "lit(...)",
// "var(name)", "cap(n)", "bad(text: message)", with their offsets.
func show(ts []Token) string {
	var out []string
	for _, t := range ts {
		var s string
		switch t.Kind {
		case Literal:
			s = fmt.Sprintf("lit(%s)", t.Text)
		case Variable:
			s = fmt.Sprintf("var(%s)", t.Name)
		case Capture:
			s = fmt.Sprintf("cap(%s)", t.Name)
		case Invalid:
			s = fmt.Sprintf("bad(%s: %s)", t.Text, t.Err)
		}
		out = append(out, fmt.Sprintf("%s@%d-%d", s, t.Start, t.End))
	}
	return strings.Join(out, " ")
}

// TestTokens is the scanner's table, from ngx_http_script_compile: the
// rules, the symbol table and the language server read words with it.
// Each case was checked against nginx -t (a variable name nginx does not
// know is "unknown variable", a refused one "invalid variable name").
func TestTokens(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", ""},
		{"plain", "lit(plain)@0-5"},
		{"$uri", "var(uri)@0-4"},
		{"${uri}x", "var(uri)@0-6 lit(x)@6-7"},
		// A digit from 1 to 9 after "$" is a capture; what follows is
		// text: "$1abc" is capture 1 and "abc", never a variable
		// "1abc" (nginx -t accepts it in a regex location).
		{"$1abc", "cap(1)@0-2 lit(abc)@2-5"},
		{"/u/$1/$2", "lit(/u/)@0-3 cap(1)@3-5 lit(/)@5-6 cap(2)@6-8"},
		{"$12", "cap(1)@0-2 lit(2)@2-3"},
		// "$0" is not a capture: nginx reads the variable "0" (and
		// refuses it as unknown).
		{"$0", "var(0)@0-2"},
		{"$0abc", "var(0abc)@0-5"},
		// In braces a digit is a name like any other.
		{"${1}", "var(1)@0-4"},
		{"$HTTP_Host:x", "var(HTTP_Host)@0-10 lit(:x)@10-12"},
		{"a$b_c-d", "lit(a)@0-1 var(b_c)@1-5 lit(-d)@5-7"},
		{"$a$b", "var(a)@0-2 var(b)@2-4"},
		// What nginx refuses: "$" at the end or before a character no
		// name has, "${" at the end, "${}", a "${name" never closed.
		{"end$", "lit(end)@0-3 bad($: invalid variable name)@3-4"},
		{"cost $ 5", "lit(cost )@0-5 bad($: invalid variable name)@5-6 lit( 5)@6-8"},
		{"$$x", "bad($: invalid variable name)@0-1 var(x)@1-3"},
		{"${", "bad(${: invalid variable name)@0-2"},
		{"${}", "bad(${}: invalid variable name)@0-3"},
		{"${broken", `bad(${broken: the closing bracket in "broken" variable is missing)@0-8`},
		{"${a b}", `bad(${a: the closing bracket in "a" variable is missing)@0-3 lit( b})@3-6`},
	}
	for _, c := range cases {
		var got []Token
		for tok := range Tokens(c.in) {
			got = append(got, tok)
			if tok.Text != c.in[tok.Start:tok.End] {
				t.Errorf("%q: token %+v: Text is not the script's bytes", c.in, tok)
			}
		}
		if s := show(got); s != c.want {
			t.Errorf("Tokens(%q)\n got %s\nwant %s", c.in, s, c.want)
		}
	}
}

// TestLogFormatTokens: log_format reads digits as names and calls a
// lone "$" an invalid parameter (ngx_http_log_compile_format).
func TestLogFormatTokens(t *testing.T) {
	cases := []struct{ in, want string }{
		{"$1abc", "var(1abc)@0-5"},
		{"$remote_addr - [$time_local]", "var(remote_addr)@0-12 lit( - [)@12-16 var(time_local)@16-27 lit(])@27-28"},
		{"a $ b", `lit(a )@0-2 bad($: invalid parameter "$ b")@2-3 lit( b)@3-5`},
		{"${x", `bad(${x: the closing bracket in "x" variable is missing)@0-3`},
	}
	for _, c := range cases {
		var got []Token
		for tok := range LogFormatTokens(c.in) {
			got = append(got, tok)
		}
		if s := show(got); s != c.want {
			t.Errorf("LogFormatTokens(%q)\n got %s\nwant %s", c.in, s, c.want)
		}
	}
}

// TestSplit: the rules' view, with refused "$" kept as text and names
// lower-cased.
func TestSplit(t *testing.T) {
	cases := []struct{ in, want string }{
		{"http://a$request_uri", "lit(http://a)@0-8 var(request_uri)@8-20"},
		{"${scheme}://$host$1x", "var(scheme)@0-9 lit(://)@9-12 var(host)@12-17 cap(1)@17-19 lit(x)@19-20"},
		{"cost $ 5", "lit(cost $ 5)@0-8"},
		{"end$", "lit(end$)@0-4"},
		{"${broken", "lit(${broken)@0-8"},
		{"a${}b$0$HTTP_Host", "lit(a${}b)@0-5 var(0)@5-7 var(http_host)@7-17"},
		{"$$x", "lit($)@0-1 var(x)@1-3"},
	}
	for _, c := range cases {
		if s := show(Split(c.in)); s != c.want {
			t.Errorf("Split(%q)\n got %s\nwant %s", c.in, s, c.want)
		}
		named := strings.Contains(c.want, "var(") || strings.Contains(c.want, "cap(")
		if got := HasVars(c.in); got != named {
			t.Errorf("HasVars(%q) = %v, want %v", c.in, got, named)
		}
	}
}

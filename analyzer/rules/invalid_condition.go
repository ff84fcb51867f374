package rules

import (
	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// InvalidCondition reports if conditions nginx cannot parse.
var InvalidCondition = &analyzer.Rule{
	Code: "NL2017", Name: "invalid-condition", Title: "if condition nginx cannot parse", Severity: parser.Error,
	Refuses: true,
	Run:     runInvalidCondition,
	Doc: analyzer.Doc{
		Text: "The condition of `if` is in parentheses and is one of:\n\n" +
			"- a variable alone, `($var)`: true unless empty or \"0\";\n" +
			"- a comparison `($var = value)`, `($var != value)`;\n" +
			"- a regex match `($var ~ regex)`, `~*` (caseless), `!~`, `!~*`;\n" +
			"- a file test `(-f path)`, `-d`, `-e`, `-x`, or negated: `!-f`, `!-d`, `!-e`, `!-x`.\n\n" +
			"Anything else makes nginx refuse to start: a missing parenthesis or a condition that does " +
			"not start with `$` (`invalid condition \"slow\"`), an unknown operator (`unexpected \"==\" in " +
			"condition`; nginx compares with one `=`), extra words, or an unknown file test. A regex that " +
			"contains `}` or `;` must be quoted.",
		Bad:  "events {}\nhttp {\n    server {\n        listen 127.0.0.1:8080;\n        if ($request_method == POST) {\n            return 405;\n        }\n    }\n}\n",
		Good: "events {}\nhttp {\n    server {\n        listen 127.0.0.1:8080;\n        if ($request_method = POST) {\n            return 405;\n        }\n    }\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_rewrite_module.html#if",
	},
}

func runInvalidCondition(p *analyzer.Pass) {
	p.WalkNamed(func(d *parser.Directive, ctx directives.Context, _ []*parser.Directive) {
		if directives.DataBlock(ctx) || len(d.Args()) == 0 || d.Block == nil {
			return
		}
		if arg, msg := ifConditionError(d.ArgValues()); msg != "" {
			p.Reportf(d.File, d.Args()[arg].Range, "%s", msg).Detail =
				"an if condition is ($var), ($var = value), ($var != value), ($var ~ regex) with ~, ~*, !~ or !~*, " +
					"or a file test (-f path) with -f, -d, -e, -x or !-f, !-d, !-e, !-x"
		}
	}, "if")
}

// ifConditionError follows ngx_http_rewrite_if_condition over args (the
// arguments of if, quotes removed) and returns nginx's message and the
// argument it is about, or "" when nginx accepts the condition. The regex
// and the variable name are other rules' business.
func ifConditionError(args []string) (int, string) {
	// v mirrors nginx's value[1..]: v[i] is args[i-1], trimmed in place
	// as nginx trims the parentheses.
	v := append([]string{""}, args...)
	last := len(v) - 1
	if v[1] == "" || v[1][0] != '(' {
		return 0, `invalid condition "` + v[1] + `"`
	}
	cur := 1
	if len(v[1]) == 1 {
		cur = 2
	} else {
		v[1] = v[1][1:]
	}
	if v[last] == "" || v[last][len(v[last])-1] != ')' {
		return last - 1, `invalid condition "` + v[last] + `"`
	}
	if len(v[last]) == 1 {
		last--
	} else {
		v[last] = v[last][:len(v[last])-1]
	}
	if cur >= len(v) {
		// "(" alone: nginx reads past its arguments; cur is then the
		// ")" that closed the condition.
		cur = len(v) - 1
	}
	s := v[cur]
	invalid := func() (int, string) { return cur - 1, `invalid condition "` + s + `"` }
	switch {
	case len(s) > 1 && s[0] == '$':
		if cur != last && cur+2 != last {
			return invalid()
		}
		if cur == last {
			return 0, ""
		}
		op := v[cur+1]
		switch op {
		case "=", "!=", "~", "~*", "!~", "!~*":
			return 0, ""
		}
		return cur, `unexpected "` + op + `" in condition`
	case len(s) == 2 && s[0] == '-' || len(s) == 3 && s[0] == '!' && s[1] == '-':
		if cur+1 != last {
			return invalid()
		}
		switch s[len(s)-1] {
		case 'f', 'd', 'e', 'x':
			return 0, ""
		}
		return invalid()
	}
	return invalid()
}

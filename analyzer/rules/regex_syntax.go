package rules

import (
	"fmt"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/regex"
	"github.com/nginx-lint/nginx-lint/analyzer/symbols"
	"github.com/nginx-lint/nginx-lint/parser"
)

// RegexSyntax reports a regex that PCRE2 does not compile, with the
// message nginx prints.
var RegexSyntax = &analyzer.Rule{
	Code: "NL2037", Name: "regex-syntax", Title: "regex that PCRE2 cannot compile", Severity: parser.Error,
	Refuses: true,
	Run:     runRegexSyntax,
	Doc: analyzer.Doc{
		Text: "nginx compiles every regex of the configuration with PCRE2 when it starts (`location ~`, " +
			"`server_name ~`, `map` keys with `~`, `if ($x ~ ...)`, `rewrite`, `valid_referers ~`, " +
			"`proxy_redirect ~`, `fastcgi_split_path_info`) and refuses to start on one that does not " +
			"compile: `pcre2_compile() failed: missing closing parenthesis in \"^/([a-z]\"`. nginx-lint " +
			"checks the syntax as PCRE2 10.42 does (Go's regexp reads a different language) and " +
			"prints nginx's message, with the rest of the pattern from where PCRE2 stopped. A common " +
			"cause is a `{` or `;` in an unquoted regex: nginx ends the word there, so " +
			"`location ~ ^/([a-z]{2})/ {` is read as the regex `^/([a-z]`; quote such regexes.",
		Bad:  "events {}\nhttp {\n    server {\n        listen 80;\n        location ~ ^/([a-z]{2})/ {\n        }\n    }\n}\n",
		Good: "events {}\nhttp {\n    server {\n        listen 80;\n        location ~ \"^/([a-z]{2})/\" {\n        }\n    }\n}\n",
		URL:  "https://www.pcre.org/current/doc/html/pcre2pattern.html",
	},
}

func runRegexSyntax(p *analyzer.Pass) {
	// PCRE2's verdict once per distinct pattern (regex.Memo).
	var checked regex.Memo[string, *regex.Error]
	for e, r := range symbols.Regexes(p.Index()) {
		if e.Context() == 0 {
			continue
		}
		err := checked.Get(r.Expr, regex.Check)
		d := e.Directive
		if err == nil {
			if d.Name().Value == "fastcgi_split_path_info" {
				splitPathCaptures(p, d, r)
			}
			continue
		}
		// nginx quotes the pattern as it is, without escaping.
		msg := fmt.Sprintf("pcre2_compile() failed: %s in \"%s\"", err.Msg, r.Expr)
		if err.Offset < len(r.Expr) {
			msg += fmt.Sprintf(" at \"%s\"", r.Expr[err.Offset:])
		}
		diag := p.Reportf(d.File, r.Range, "%s", msg)
		diag.Detail = "nginx refuses to start: PCRE2 cannot compile this regex"
		if hint := braceHint(d, r); hint != "" {
			diag.Detail += "; " + hint
		}
	}
}

// splitPathCaptures reports a fastcgi_split_path_info pattern without
// exactly two captures (the script name and the path info): nginx
// refuses it after compiling (ngx_http_fastcgi_split_path_info).
func splitPathCaptures(p *analyzer.Pass, d *parser.Directive, r symbols.Regex) {
	if n := regex.Groups(r.Expr); n != 2 {
		diag := p.Reportf(d.File, r.Range, "pattern \"%s\" must have 2 captures", r.Expr)
		diag.Detail = fmt.Sprintf("it has %d; nginx refuses to start: the first capture is $fastcgi_script_name, the second $fastcgi_path_info", n)
	}
}

// braceHint explains the usual cause of a cut regex: an unquoted "{"
// ended the word, and nginx opened a block there.
func braceHint(d *parser.Directive, r symbols.Regex) string {
	if r.Quote != 0 || d.Block == nil || d.LBrace() < 0 || len(d.Args()) == 0 || d.Args()[len(d.Args())-1].Range != r.Range {
		return ""
	}
	if d.LBrace() != r.Range.End {
		return ""
	}
	return "the \"{\" right after it ended the word and opened a block: quote a regex that contains \"{\""
}

package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// AddHeaderMultiline reports header values that span lines.
var AddHeaderMultiline = &analyzer.Rule{
	Code: "NL3007", Name: "add-header-multiline", Title: "header value contains a line break", Severity: parser.Warning,
	Run: runAddHeaderMultiline,
	Doc: analyzer.Doc{
		Text: "A quoted value that continues on the next line keeps the newline. nginx sends it as is, " +
			"which is obsolete header folding (RFC 7230 section 3.2.4): many clients and proxies reject " +
			"the response or drop the header, and some read the continuation as a new header. Write " +
			"the value on one line (long policies can be built with `map` or `set` pieces).",
		Bad:  "add_header Content-Security-Policy \"default-src 'self';\n    img-src *\";\n",
		Good: "add_header Content-Security-Policy \"default-src 'self'; img-src *\";\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_headers_module.html#add_header",
	},
}

func runAddHeaderMultiline(p *analyzer.Pass) {
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, _ []*parser.Directive) {
		var values []parser.Word
		switch d.Name().Value {
		case "add_header", "add_trailer":
			if len(d.Args()) >= 2 {
				values = d.Args()[1:2]
			}
		case "more_set_headers", "more_set_input_headers":
			values = moreHeadersValues(d.Args())
		default:
			return
		}
		for _, w := range values {
			if strings.ContainsAny(w.Value, "\r\n") {
				// On the name: the value's first line is inside quotes,
				// where no comment (suppression) can go.
				diag := p.ReportDirective(d, "%q value contains a line break", d.Name().Value)
				diag.Detail = "the line break is sent inside the header (obsolete folding); many clients reject " +
					"or misread it; put the value on one line"
				return
			}
		}
	}, "add_header", "add_trailer", "more_set_headers", "more_set_input_headers")
}

// moreHeadersValues returns the "Name: value" arguments of headers-more
// directives, skipping the -s and -t options and their operands.
func moreHeadersValues(args []parser.Word) []parser.Word {
	var out []parser.Word
	for i := 0; i < len(args); i++ {
		switch args[i].Value {
		case "-s", "-t":
			i++
		case "-r", "-a":
		default:
			out = append(out, args[i])
		}
	}
	return out
}

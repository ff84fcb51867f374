package rules

import (
	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
)

// reportedByParser is the Run of findings the parser and loader produce.
func reportedByParser(*analyzer.Pass) {}

// InternalError is reported when a rule crashes; the run goes on.
var InternalError = &analyzer.Rule{
	Code: "NL1000", Name: "internal-error", Title: "nginx-lint failed on this input", Severity: parser.Error,
	Run: reportedByParser,
	Doc: analyzer.Doc{
		Text: "A rule panicked. The other rules still ran. Please report the input that triggers it.",
		Bad:  "# no example: this finding means a bug in nginx-lint\nevents {}\n",
		Good: "events {}\n",
	},
}

// SyntaxError mirrors what nginx's tokenizer and block parser reject.
var SyntaxError = &analyzer.Rule{
	Code: parser.CodeSyntax, Name: parser.NameSyntax, Title: "nginx cannot parse this", Severity: parser.Error,
	Run: reportedByParser,
	Doc: analyzer.Doc{
		Text: "The configuration breaks nginx's syntax: an unbalanced brace, an unterminated quote or " +
			"directive, a character glued to a closing quote, a `{` inside `map` or `types`, a block " +
			"directive without `{` or a simple one with it. nginx -t stops at the first such error; " +
			"nginx-lint reports it with nginx's message at nginx's line and goes on, so the next ones " +
			"show too. Where the cause is a missing `;`, the detail says where it belongs.",
		Bad:  "events {}\nhttp {\n    server {\n        root /srv\n    }\n}\n",
		Good: "events {}\nhttp {\n    server {\n        root /srv;\n    }\n}\n",
	},
}

// MissingSemicolon finds a line's directive swallowed by the line above.
var MissingSemicolon = &analyzer.Rule{
	Code: parser.CodeMissingSemicolon, Name: parser.NameMissingSemicolon, Title: "a missing \";\" joins two directives", Severity: parser.Error,
	Run: reportedByParser,
	Doc: analyzer.Doc{
		Text: "Without a `;` at the end of a line, nginx reads the next line's directive as more " +
			"arguments of this one and then fails with a confusing argument error (`invalid parameter " +
			"\"server_name\"`). nginx-lint points at the end of the line that needs the `;`.",
		Bad:  "events {}\nhttp {\n    server {\n        listen 80\n        server_name example.com;\n    }\n}\n",
		Good: "events {}\nhttp {\n    server {\n        listen 80;\n        server_name example.com;\n    }\n}\n",
	},
}

// IncludeNotFound reports an include of a file that does not exist.
var IncludeNotFound = &analyzer.Rule{
	Code: parser.CodeIncludeNotFound, Name: parser.NameIncludeNotFound, Title: "an included file does not exist", Severity: parser.Error,
	Run: reportedByParser,
	Doc: analyzer.Doc{
		Text: "nginx refuses to start when a plain `include` names a missing file. A pattern with " +
			"wildcards that matches nothing is fine. Relative paths resolve against the configuration " +
			"prefix (the main file's directory, or `--prefix`).",
		Bad:  "events {}\nhttp {\n    include /nonexistent/nginx-lint-example.conf;\n}\n",
		Good: "events {}\nhttp {\n    include /nonexistent/nginx-lint-example/*.conf;\n}\n",
	},
}

// IncludeCycle reports an include that leads back to itself.
var IncludeCycle = &analyzer.Rule{
	Code: parser.CodeIncludeCycle, Name: parser.NameIncludeCycle, Title: "a file includes itself", Severity: parser.Error,
	Run: reportedByParser,
	Doc: analyzer.Doc{
		Text: "An include that leads back to a file being included makes nginx recurse until it runs " +
			"out of file descriptors. nginx-lint reports the include that closes the cycle and does not follow it.",
		Bad:  "# examples are linted as nginx.conf\nevents {}\ninclude nginx.conf;\n",
		Good: "events {}\n",
	},
}

// UnreadableFile reports a path on the command line that cannot be read.
var UnreadableFile = &analyzer.Rule{
	Code: parser.CodeUnreadable, Name: parser.NameUnreadable, Title: "a file cannot be read", Severity: parser.Error,
	Run: reportedByParser,
	Doc: analyzer.Doc{
		Text: "A path given to nginx-lint does not exist or cannot be read; the exit code is 2.",
		Bad:  "# lint a path that does not exist\n",
		Good: "events {}\n",
	},
}

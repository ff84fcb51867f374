package rules

import (
	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
)

// reportedByParser is the Run of findings the parser and loader produce.
func reportedByParser(*analyzer.Pass) {}

// InternalError is reported when a rule crashes; the run goes on.
var InternalError = &analyzer.Rule{
	Code: parser.CodeInternal, Name: parser.NameInternal, Title: "nginx-lint failed on this input", Severity: parser.Error,
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
	Fixable: true,
	Run:     reportedByParser,
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
	Fixable: true,
	Run:     reportedByParser,
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

// IncludeLimit reports an include that nests or repeats files past what
// the loader follows.
var IncludeLimit = &analyzer.Rule{
	Code: parser.CodeIncludeLimit, Name: parser.NameIncludeLimit, Title: "includes nest or repeat past what nginx can read", Severity: parser.Error,
	Run: reportedByParser,
	Doc: analyzer.Doc{
		Text: "nginx reads an included file again every time an `include` names it, and keeps each " +
			"including file open while it reads what that file includes. Includes nested more than " +
			"1000 files deep fail under the usual limit of 1024 open files (`Too many open files`; a " +
			"glob include silently matches nothing instead) and overflow nginx's stack past about ten " +
			"thousand. Files that include each other's directories many times over multiply: ten files " +
			"that each include the ten of the next level, eight levels down, have nginx read the last " +
			"level a hundred million times, for hours. nginx-lint reads and checks every file once, and " +
			"follows the includes as nginx would until the repeated files add more than a million " +
			"directives (or four times the files' own, if that is more); the include past that bound, " +
			"or past 1000 levels, is reported and not followed.",
		Bad:  "# ten files that each include the ten of the next level down, eight levels deep\n",
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

// NotRegularFile reports an include, or a path given to nginx-lint, that
// is a device, FIFO, socket or directory.
var NotRegularFile = &analyzer.Rule{
	Code: parser.CodeNotRegular, Name: parser.NameNotRegular, Title: "an included or linted path is not a regular file", Severity: parser.Error,
	Run: reportedByParser,
	Doc: analyzer.Doc{
		Text: "nginx reads as many bytes of a configuration file as its size says: nothing from " +
			"`/dev/zero` or `/proc/self/environ`, and it blocks on a FIFO until something writes to it. " +
			"A configuration that includes a device, a pipe, a socket or a directory is a mistake or an " +
			"attack on whatever reads it. nginx-lint does not open such a path for reading at all: it " +
			"reports it at the `include` (or, for a path given on the command line, on the path, with " +
			"exit code 2). Files of size 0 in `/proc` are regular and read as empty, as nginx reads them.",
		Bad:  "events {}\ninclude /dev/null;\n",
		Good: "events {}\n",
	},
}

// FileTooLarge reports a file over the per-file read limit.
var FileTooLarge = &analyzer.Rule{
	Code: parser.CodeTooLarge, Name: parser.NameTooLarge, Title: "a file is over the per-file size limit", Severity: parser.Error,
	Run: reportedByParser,
	Doc: analyzer.Doc{
		Text: "nginx-lint reads at most 128 MiB of any one file (`--max-file-size`, or `max-file-size` " +
			"in `.nginx-lint.yaml`), so a log, a dump or an image named like a configuration cannot " +
			"exhaust memory. A larger file is not read: the finding is at the `include` that names it, " +
			"or on the path given on the command line (exit code 2). Raise the limit to lint a generated " +
			"configuration that really is that large.",
		Bad:  "# a file larger than --max-file-size\n",
		Good: "events {}\n",
	},
}

// TotalSizeLimit reports a file not read because the run's total read
// limit was reached.
var TotalSizeLimit = &analyzer.Rule{
	Code: parser.CodeBudget, Name: parser.NameBudget, Title: "the files of one run are over the total size limit", Severity: parser.Error,
	Run: reportedByParser,
	Doc: analyzer.Doc{
		Text: "One run reads at most 256 MiB of files in all (`--max-total-size`), so a directory of " +
			"large files cannot exhaust memory. Files past the limit are not read and each is reported; " +
			"lint fewer files per run or raise the limit.",
		Bad:  "# more files than --max-total-size allows\n",
		Good: "events {}\n",
	},
}

// BinaryFile reports a file found in a directory that is not text.
var BinaryFile = &analyzer.Rule{
	Code: parser.CodeBinary, Name: parser.NameBinary, Title: "a file found in a directory is binary, not a configuration", Severity: parser.Info,
	Run: reportedByParser,
	Doc: analyzer.Doc{
		Text: "When nginx-lint walks a directory, a file whose name looks like a configuration " +
			"(`*.conf`, `sites-enabled/*`) but whose first 8000 bytes hold a NUL byte or are mostly " +
			"control characters (a compiled file, an archive, an editor's swap file) is skipped with this " +
			"note instead of being reported byte by byte as syntax errors. A file named on the command " +
			"line is always linted.",
		Bad:  "# a binary file in a linted directory\n",
		Good: "events {}\n",
	},
}

package config

// Key is one key of the settings file with what it does: the one place
// the top-level keys are declared, which Parse checks a file against and
// from which Schema and nginx-lint init write their words.
type Key struct {
	Name string
	// Doc says what the key does, in a sentence or two.
	Doc string
}

// Keys are the keys a settings file may have at its top level, in the
// order the documentation and nginx-lint init give them.
var Keys = []Key{
	{"prefix", "nginx's configuration prefix (nginx -p): relative include paths resolve against it. Relative to this file; default: the main file's directory."},
	{"include-paths", "Where absolute include paths are here: a mapping of a path as nginx sees it (/etc/nginx/) to where the files are checked out (./nginx/). The longest prefix wins."},
	{"custom-directives", "Directive names of third-party modules nginx-lint does not know, accepted by unknown-directive."},
	{"custom-variables", "Variable names (without $) that modules nginx-lint does not know define; a trailing * is a family (\"my_module_arg_*\")."},
	{"check-files", "Run the checks of this machine (certificates, keys, files nginx loads, host names it resolves), as --check-files does: for linting on the host itself."},
	{"max-file-size", "Read at most this much of any one file (128MiB by default); a larger file is a file-too-large finding."},
	{"nginx-build", "Lint for the nginx this saved \"nginx -V\" output describes (relative to this file): directives of modules it lacks, or newer than its version, are unknown."},
	{"nginx-version", "Lint for this nginx version (every module possible) when no nginx-build is named."},
	{"cost-profile", "The cost profile nginx-lint calibrate wrote (relative to this file), for nginx-lint cost, the cost rules and the editor (default: the shipped reference profile); cost --profile wins."},
	{"fmt", "How nginx-lint fmt and the editor's formatting lay files out."},
	{"host", "The machine nginx runs on, for the startup cost model (nginx-lint cost and the cost rules); cost's flags win."},
	{"rules", "Per-rule settings, keyed by rule name or code: off, on, a severity (error, warning, info), or a mapping of enabled, severity and options."},
}

// FmtKeys are the keys of the fmt: section.
var FmtKeys = []Key{
	{"indent", "Indentation of one block level: auto (as the file is indented; the default), tab, or 1 to 16 spaces."},
	{"spacing", "Whitespace between the words of a directive: keep (as written; the default) or single (one space)."},
	{"max-blank-lines", "Shorten runs of blank lines to at most this many (leave it out to keep every blank line)."},
}

// RuleKeys are the keys of a rule's mapping form.
var RuleKeys = []Key{
	{"enabled", "Whether the rule runs."},
	{"severity", "The severity of the rule's findings: error, warning or info."},
	{"options", "The rule's options (nginx-lint explain RULE lists them), each checked against its type."},
}

// names are the names of keys, in order.
func names(keys []Key) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k.Name
	}
	return out
}

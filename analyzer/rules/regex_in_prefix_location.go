package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// RegexInPrefixLocation reports a prefix or exact location written as if
// it were a regex.
var RegexInPrefixLocation = &analyzer.Rule{
	Code: "NL2055", Name: "regex-in-prefix-location", Title: "prefix or exact location written like a regex", Severity: parser.Warning,
	Run: runRegexInPrefixLocation,
	Doc: analyzer.Doc{
		Text: "Only `location ~` and `location ~*` take a regular expression. Without the modifier (or " +
			"with `=` or `^~`) nginx compares the URI with the text character by character, so " +
			"`location /api/.*\\.php$` matches only URIs that begin with the nine characters " +
			"`/api/.*\\.`, and `location /images/*.png` only ones with a literal `*`: the location " +
			"never serves what it was written for, and another one does. Reported when the text has " +
			"what only a regex would say: a leading `^`, a trailing `$`, `.*` or `.+`, a backslash " +
			"escape such as `\\.`, a character class `[...]`, a group `(...)`, or a `*` wildcard.",
		Bad:  "location /api/.*\\.php$ {\n    fastcgi_pass 127.0.0.1:9000;\n}\n",
		Good: "location ~ ^/api/.*\\.php$ {\n    fastcgi_pass 127.0.0.1:9000;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_core_module.html#location",
	},
}

func runRegexInPrefixLocation(p *analyzer.Pass) {
	ix := p.Index()
	for _, i := range ix.Named("location") {
		d := ix.Entries[i].Directive
		if len(d.Args()) == 0 {
			continue
		}
		l, err := parser.LocationSpec(d)
		if err != nil || l.IsRegex || l.Named {
			continue
		}
		why := regexLook(l.Path)
		if why == "" {
			continue
		}
		kind := "a prefix"
		if l.Modifier == grammar.ModExact {
			kind = "an exact"
		}
		w := d.Args()[len(d.Args())-1]
		diag := p.Reportf(d.File, w.Range, "location %q is %s match of that text, not a regex: %s", l.Path, kind, why)
		diag.Detail = "nginx compares the URI with these characters literally; for a regular expression write location ~ " + regexFor(l)
	}
}

// regexLook says what in path only a regex would mean, "" when nothing
// does. A URI is compared literally, so each of these matches only URIs
// that hold the character itself, which real URIs almost never do.
func regexLook(path string) string {
	switch {
	case strings.HasPrefix(path, "^"):
		return `it starts with "^", and a URI starts with "/"`
	case strings.HasSuffix(path, "$") && len(path) > 1:
		return `it ends with "$"`
	case strings.Contains(path, ".*"), strings.Contains(path, ".+"):
		return `".*" is three characters here, not "anything"`
	case regexEscape(path):
		return `a backslash is a character here, not an escape`
	case strings.Contains(path, "[") && strings.Contains(path, "]"):
		return `"[...]" is not a character class here`
	case strings.Contains(path, "(") && strings.Contains(path, ")") && strings.ContainsAny(path, "|?"):
		return `"(...)" is not a group here`
	case strings.Contains(path, "*"):
		return `"*" is not a wildcard in a location`
	}
	return ""
}

// regexEscape reports a backslash before a character a regex escapes
// (\. \d \w \s \b); a backslash before a character of the configuration
// syntax ("\;", "\{", "\ ") is the tokenizer's escape, not a regex's.
func regexEscape(path string) bool {
	for i := 0; i+1 < len(path); i++ {
		if path[i] == '\\' && strings.IndexByte(".dwsbDWS", path[i+1]) >= 0 {
			return true
		}
	}
	return false
}

// regexFor writes the regex location the text most likely meant.
func regexFor(l grammar.Location) string {
	re := l.Path
	if strings.Contains(re, "*") && !strings.ContainsAny(re, `\^$[(`) && !strings.Contains(re, ".*") {
		// A glob: "/images/*.png".
		re = strings.ReplaceAll(strings.ReplaceAll(re, ".", `\.`), "*", "[^/]*") + "$"
	}
	if !strings.HasPrefix(re, "^") {
		re = "^" + re
	}
	if l.Modifier == grammar.ModExact && !strings.HasSuffix(re, "$") {
		re += "$"
	}
	return re
}

package rules

import (
	"path"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/script"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// FilesystemRootExposure reports a root or alias that serves the whole
// file system or nginx's own configuration directory.
var FilesystemRootExposure = &analyzer.Rule{
	Code: "NL3024", Name: "filesystem-root-exposure", Title: "root or alias serves the file system root or the configuration directory", Severity: parser.Error,
	Run: runFilesystemRootExposure,
	Doc: analyzer.Doc{
		Text: "`root /` (or a spelling of it such as `//`, `/./` or `/usr/..`) makes every file " +
			"the worker can read reachable by URL: `/etc/passwd`, private keys, application " +
			"secrets. The same holds for an `alias` that lands on `/` once the rest of the URI is " +
			"appended, and for a root or alias that is the configuration directory (`/etc`, " +
			"`/etc/nginx`, or the directory of the main configuration file). Point root and alias at a directory that holds only what is meant to be " +
			"served. Paths with variables are not judged.",
		Bad:  "location / {\n    root /;\n}\n",
		Good: "location / {\n    root /var/www/html;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_core_module.html#root",
	},
}

func runFilesystemRootExposure(p *analyzer.Pass) {
	confDir := ""
	if p.Config.Main != nil && path.IsAbs(p.Config.Main.Path) {
		confDir = path.Dir(p.Config.Main.Path)
	}
	p.WalkNamed(func(d *parser.Directive, ctx directives.Context, stack []*parser.Directive) {
		if len(d.Args()) != 1 || script.HasVars(d.Args()[0].Value) || !strings.HasPrefix(d.Args()[0].Value, "/") {
			return // relative roots depend on the prefix; variables are unknown
		}
		if analyzer.Innermost(stack, "http") == nil && analyzer.Innermost(stack, "server") == nil && analyzer.Innermost(stack, "location") == nil {
			return
		}
		v := d.Args()[0].Value
		target := path.Clean(v)
		if d.Is("alias") {
			loc := analyzer.Innermost(stack, "location")
			if loc == nil {
				return
			}
			l, err := parser.LocationSpec(loc)
			// A regex or exact location's alias is the whole file name:
			// nothing of the URI is appended, so no directory is listed
			// or walked through it.
			if err != nil || l.Named || l.IsRegex || l.Modifier == grammar.ModExact {
				return
			}
			// The rest of the URI is appended as is: after a location that
			// ends in "/" it starts with no slash, so "/." + "a" is "/.a",
			// a file name, not the root.
			if strings.HasSuffix(l.Path, "/") && !strings.HasSuffix(v, "/") {
				return
			}
		}
		what := exposedDir(target, confDir)
		if what == "" {
			return
		}
		diag := p.Reportf(d.File, d.Args()[0].Range, "%q %q serves %s", d.Name().Value, v, what)
		diag.Detail = "every file the worker can read becomes reachable by URL; point " + d.Name().Value + " at a directory that holds only what is meant to be served"
	}, "root", "alias")
}

// configDirs are the directories that hold nginx's configuration in the
// common builds and packages; serving them publishes the configuration,
// keys included.
var configDirs = map[string]bool{
	"/etc": true, "/etc/nginx": true, "/usr/local/nginx/conf": true,
	"/usr/local/etc/nginx": true, "/opt/homebrew/etc/nginx": true,
}

// exposedDir names what the cleaned absolute path p exposes, "" when it
// is neither the file system root nor a configuration directory (one of
// configDirs, or confDir, the directory of the main configuration file).
func exposedDir(p, confDir string) string {
	switch {
	case p == "/":
		return "the whole file system"
	case configDirs[p] || p == confDir:
		return "the nginx configuration directory " + p
	}
	return ""
}

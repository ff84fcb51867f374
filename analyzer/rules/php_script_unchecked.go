package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/regex"
	"github.com/nginx-lint/nginx-lint/parser"
)

// PHPScriptUnchecked reports a PHP location that passes a script to
// FastCGI without checking that the script exists.
var PHPScriptUnchecked = &analyzer.Rule{
	Code: "NL3034", Name: "php-script-unchecked", Title: "a PHP location passes scripts to FastCGI without checking that they exist", Severity: parser.Warning,
	Run: runPHPScriptUnchecked,
	Doc: analyzer.Doc{
		Text: "`location ~ \\.php$` matches `/uploads/avatar.jpg/x.php` as well as a real script. " +
			"Without a check nginx passes that request to PHP-FPM with SCRIPT_FILENAME " +
			"`.../uploads/avatar.jpg/x.php`; with `cgi.fix_pathinfo=1` (PHP's default) PHP walks back " +
			"to the file that exists, `avatar.jpg`, and runs it as PHP: an uploaded image with PHP " +
			"code inside becomes code execution (unless `security.limit_extensions` still stops it). " +
			"Have nginx check the script first: `try_files $uri =404;` (or `try_files " +
			"$fastcgi_script_name =404;` after `fastcgi_split_path_info`), or " +
			"`if (!-f $request_filename) { return 404; }`. Locations whose regex cannot match such a " +
			"path (`location = /index.php`, `^/index\\.php$`) are not reported.",
		Bad:  "location ~ \\.php$ {\n    include fastcgi_params;\n    fastcgi_param SCRIPT_FILENAME $document_root$fastcgi_script_name;\n    fastcgi_pass unix:/run/php/php-fpm.sock;\n}\n",
		Good: "location ~ \\.php$ {\n    try_files $uri =404;\n    include fastcgi_params;\n    fastcgi_param SCRIPT_FILENAME $document_root$fastcgi_script_name;\n    fastcgi_pass unix:/run/php/php-fpm.sock;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_fastcgi_module.html#fastcgi_split_path_info",
	},
}

// phpProbe is the request the pitfall is about: a PHP name below a file
// that exists (an uploaded image).
const phpProbe = "/uploads/avatar.jpg/x.php"

func runPHPScriptUnchecked(p *analyzer.Pass) {
	if len(p.Index().Named("fastcgi_pass")) == 0 {
		return
	}
	// The same PHP location on every server: each regex is judged once.
	var matches regex.Memo[regex.Key, bool]
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, _ []*parser.Directive) {
		spec, err := parser.LocationSpec(d)
		if err != nil || !spec.IsRegex || d.Block == nil {
			return
		}
		if !matches.Get(regex.Key{Expr: spec.Path, Caseless: spec.CaseInsensitive}, matchesPHPProbe) {
			return
		}
		pass, checked := fastcgiChecked(p, d)
		if pass == nil || checked {
			return
		}
		// One constant message: a configuration may repeat the location
		// on each of thousands of servers.
		diag := p.ReportDirective(pass, phpMessage)
		diag.Detail = phpDetail
	}, "location")
}

const (
	phpMessage = `"fastcgi_pass" in a location that matches "` + phpProbe + `" passes it to PHP without checking that the script exists`
	phpDetail  = `with cgi.fix_pathinfo=1 PHP runs /uploads/avatar.jpg as a script; add "try_files $uri =404;" (or "try_files $fastcgi_script_name =404;" after fastcgi_split_path_info) to the location`
)

// matchesPHPProbe reports whether a location regex matches phpProbe, as
// nginx's PCRE does (analyzer/regex).
func matchesPHPProbe(k regex.Key) bool {
	_, ok, why := regex.Compile(k.Expr, k.Caseless).Match(phpProbe)
	return ok && why == ""
}

// fastcgiChecked returns the location's fastcgi_pass (also inside its if
// blocks; nil when it has none) and whether nginx checks that the script
// exists first: a try_files (nginx looks the file up and falls back to
// its last argument) or an if with a -f or -e test that ends the request.
func fastcgiChecked(p *analyzer.Pass, loc *parser.Directive) (pass *parser.Directive, checked bool) {
	for _, d := range p.Body(loc) {
		switch {
		case d.Is("fastcgi_pass") && pass == nil:
			pass = d
		case d.Is("try_files"):
			checked = true
		case d.Is("if") && d.Block != nil:
			cond := strings.Join(d.ArgValues(), " ")
			test := strings.Contains(cond, "!-f") || strings.Contains(cond, "!-e")
			for _, c := range p.Body(d) {
				switch {
				case c.Is("fastcgi_pass") && pass == nil:
					pass = c
				case test && (c.Is("return") || c.Is("rewrite")):
					checked = true
				}
			}
		}
	}
	return pass, checked
}

package rules

import (
	"fmt"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/script"
	"github.com/nginx-lint/nginx-lint/parser"
)

// NonExpandingVariable reports a variable written in an argument nginx
// takes literally.
var NonExpandingVariable = &analyzer.Rule{
	Code: "NL2053", Name: "non-expanding-variable", Title: "variable in an argument nginx does not expand", Severity: parser.Warning,
	Run: runNonExpandingVariable,
	Doc: analyzer.Doc{
		Text: "Many directives read their argument once, at startup, as plain text: `error_log`, `pid`, " +
			"the `*_temp_path` and `*_cache_path` directories, `ssl_trusted_certificate`, " +
			"`ssl_client_certificate`, `ssl_dhparam`, `ssl_crl`, `default_type`, the `userid_*` " +
			"settings and others. A `$name` there is not a variable: `error_log /var/log/nginx/$host.log` " +
			"writes one file literally named `$host.log` for every site, and nginx says nothing. " +
			"The directives that do expand variables (`access_log`, `root`, `alias`, " +
			"`auth_basic_user_file`, `ssl_certificate`, `proxy_ssl_certificate`, ...) are not reported. " +
			"The list is nginx's own: a test runs each directive through the real nginx with an " +
			"undefined variable and requires nginx to take it literally.",
		Bad:  "events {}\nhttp {\n    server {\n        listen 80;\n        server_name example.com;\n        error_log /var/log/nginx/$host.error.log;\n    }\n}\n",
		Good: "events {}\nhttp {\n    server {\n        listen 80;\n        server_name example.com;\n        error_log /var/log/nginx/example.com.error.log;\n        access_log /var/log/nginx/$host.access.log;\n    }\n}\n",
		URL:  "https://nginx.org/en/docs/ngx_core_module.html#error_log",
	},
}

// literalArgs are the directives whose arguments nginx reads as plain
// text, with what the text names; TestNonExpandingVariablesNginx has the
// real nginx confirm each (an undefined variable there is no error).
// Directives nginx-lint cannot place in a test configuration, and ones
// whose "$" would only be a typo (header names, MIME types lists), are
// left out.
var literalArgs = map[string]string{
	"error_log":         "file",
	"pid":               "file",
	"lock_file":         "file",
	"working_directory": "directory",

	"client_body_temp_path": "directory",
	"proxy_temp_path":       "directory",
	"fastcgi_temp_path":     "directory",
	"uwsgi_temp_path":       "directory",
	"scgi_temp_path":        "directory",
	"proxy_cache_path":      "directory",
	"fastcgi_cache_path":    "directory",
	"uwsgi_cache_path":      "directory",
	"scgi_cache_path":       "directory",

	"ssl_trusted_certificate":       "file",
	"ssl_client_certificate":        "file",
	"ssl_crl":                       "file",
	"ssl_dhparam":                   "file",
	"ssl_password_file":             "file",
	"ssl_session_ticket_key":        "file",
	"ssl_stapling_file":             "file",
	"ssl_stapling_responder":        "URL",
	"ssl_ocsp_responder":            "URL",
	"proxy_ssl_trusted_certificate": "file",
	"proxy_ssl_crl":                 "file",
	"proxy_ssl_password_file":       "file",
	"grpc_ssl_trusted_certificate":  "file",
	"grpc_ssl_crl":                  "file",
	"grpc_ssl_password_file":        "file",
	"uwsgi_ssl_trusted_certificate": "file",
	"uwsgi_ssl_crl":                 "file",
	"uwsgi_ssl_password_file":       "file",

	"add_before_body":    "URI",
	"add_after_body":     "URI",
	"post_action":        "URI",
	"default_type":       "MIME type",
	"fastcgi_index":      "file name",
	"secure_link_secret": "secret",
	"userid_domain":      "cookie domain",
	"userid_path":        "cookie path",
	"userid_name":        "cookie name",
}

func runNonExpandingVariable(p *analyzer.Pass) {
	ix := p.Index()
	for name, what := range literalArgs {
		for _, i := range ix.Named(name) {
			e := &ix.Entries[i]
			if e.Context() == 0 || e.Row() == nil {
				continue
			}
			d := e.Directive
			for _, w := range literalWords(d) {
				off, v := firstVariable(w.Value)
				if off < 0 {
					continue
				}
				diag := p.Reportf(d.File, w.SubRange(d.File, off, len(v)), "%q does not expand variables: %q is taken literally", d.Name().Value, v)
				diag.Detail = literalDetail(d, w, what)
			}
		}
	}
}

// literalWords are the arguments of d that nginx reads as plain text
// naming something: the path of a *_cache_path (its other parameters
// are keywords), the file of error_log (not its level).
func literalWords(d *parser.Directive) []parser.Word {
	switch {
	case len(d.Args()) == 0:
		return nil
	case d.Is("error_log"), d.Is("proxy_cache_path"), d.Is("fastcgi_cache_path"), d.Is("uwsgi_cache_path"), d.Is("scgi_cache_path"),
		d.Is("client_body_temp_path"), d.Is("proxy_temp_path"), d.Is("fastcgi_temp_path"), d.Is("uwsgi_temp_path"), d.Is("scgi_temp_path"):
		return d.Args()[:1]
	}
	return d.Args()
}

func literalDetail(d *parser.Directive, w parser.Word, what string) string {
	switch what {
	case "file", "directory":
		if d.Is("error_log") {
			return fmt.Sprintf("nginx logs to one file literally named %q, whatever the request; write the name out in each server, or log to syslog", w.Value)
		}
		return fmt.Sprintf("nginx opens the %s named %q, \"$\" and all, once at startup; write the path out", what, w.Value)
	}
	return fmt.Sprintf("nginx uses the %s %q as written, \"$\" and all; write the value out", what, w.Value)
}

// firstVariable returns the byte offset and text of the first variable
// or capture in s as nginx's script compiler reads one ("$name",
// "${name}", "$1"), -1 when there is none: a "$" followed by anything
// else is just a character to the reader too.
func firstVariable(s string) (int, string) {
	for t := range script.Tokens(s) {
		if t.Kind == script.Variable || t.Kind == script.Capture {
			return t.Start, t.Text
		}
	}
	return -1, ""
}

package rules

import (
	"os"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
)

// MissingFile reports, when asked to, the files nginx reads at startup
// that do not exist on this machine.
var MissingFile = &analyzer.Rule{
	Code: "NL2042", Name: "missing-file", Title: "file nginx loads at startup does not exist here", Severity: parser.Error,
	Run:     runMissingFile,
	Host:    true,
	Options: []analyzer.Option{analyzer.CheckFilesOption.Decl()},
	Doc: analyzer.Doc{
		Text: "Off unless nginx-lint runs with `--check-files` (or `check-files: true` in `.nginx-lint.yaml`): " +
			"in a repository checkout the certificates and keys are rightly elsewhere, but on the host " +
			"itself a missing one stops nginx (`cannot load certificate \"...\": BIO_new_file() failed`). " +
			"Checked as nginx loads them: the `ssl_certificate`, `ssl_certificate_key`, `ssl_dhparam`, " +
			"`ssl_trusted_certificate` and `ssl_crl` of every http server that has TLS (its own or " +
			"inherited from `http`), its `ssl_client_certificate` when `ssl_verify_client` is on, " +
			"every `ssl_password_file`, and lua-nginx-module's `lua_ssl_trusted_certificate` and `lua_ssl_crl`. Relative paths resolve against the configuration's prefix, and " +
			"paths with variables (loaded per request) are skipped. nginx does not open " +
			"`auth_basic_user_file` before a request needs it, so neither does this rule; missing " +
			"`include` files are `include-not-found`.",
		Bad:  "# with --check-files\nevents {}\nhttp {\n    server {\n        listen 443 ssl;\n        ssl_certificate /nonexistent/example.com.crt;\n        ssl_certificate_key /nonexistent/example.com.key;\n    }\n}\n",
		Good: "# with --check-files\nevents {}\nhttp {\n    server {\n        listen 80;\n    }\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_ssl_module.html#ssl_certificate",
	},
}

func runMissingFile(p *analyzer.Pass) {
	checked := map[*parser.Directive]bool{}
	check := func(d *parser.Directive, format string) {
		if d == nil || checked[d] || len(d.Args()) == 0 {
			return
		}
		checked[d] = true
		path, ok := p.Config.FilePath(d.Args()[0].Value)
		if !ok {
			return
		}
		if _, err := os.Stat(path); err == nil || !os.IsNotExist(err) {
			return
		}
		diag := p.Reportf(d.File, d.Args()[0].Range, format, path)
		diag.Detail = path + " does not exist on this machine; nginx refuses to start"
	}
	ix := p.Index()
	for _, i := range ix.Named("ssl_password_file") {
		check(ix.Entries[i].Directive, `open() "%s" failed (2: No such file or directory)`)
	}
	// lua-nginx-module loads its upstream TLS files wherever they are
	// set: it creates an SSL context for every location it merges.
	for _, i := range ix.Named("lua_ssl_trusted_certificate") {
		check(ix.Entries[i].Directive, `SSL_CTX_load_verify_locations("%s") failed (No such file or directory)`)
	}
	for _, i := range ix.Named("lua_ssl_crl") {
		check(ix.Entries[i].Directive, `X509_LOOKUP_load_file("%s") failed (No such file or directory)`)
	}
	t := sharedTLSFacts(p)
	for _, i := range t.servers {
		m := t.merged(ix.Entries[i].Directive)
		if !m.hasContext() {
			continue
		}
		for _, d := range m.certs {
			check(d, `cannot load certificate "%s": BIO_new_file() failed (No such file or directory)`)
		}
		for _, d := range m.keys {
			check(d, `cannot load certificate key "%s": BIO_new_file() failed (No such file or directory)`)
		}
		check(m.dhparam, `BIO_new_file("%s") failed (No such file or directory)`)
		check(m.trusted, `SSL_CTX_load_verify_locations("%s") failed (No such file or directory)`)
		check(m.crl, `X509_LOOKUP_load_file("%s") failed (No such file or directory)`)
		if m.verify != nil && len(m.verify.Args()) == 1 && m.verify.Args()[0].Value != "off" {
			check(m.client, `SSL_CTX_load_verify_locations("%s") failed (No such file or directory)`)
		}
	}
}

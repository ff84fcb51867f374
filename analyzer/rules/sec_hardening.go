package rules

import (
	"path"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
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

func runFilesystemRootExposure(p *analyzer.Pass) {
	confDir := ""
	if p.Config.Main != nil && path.IsAbs(p.Config.Main.Path) {
		confDir = path.Dir(p.Config.Main.Path)
	}
	p.WalkNamed(func(d *parser.Directive, ctx directives.Context, stack []*parser.Directive) {
		if len(d.Args) != 1 || hasVars(d.Args[0].Value) || !strings.HasPrefix(d.Args[0].Value, "/") {
			return // relative roots depend on the prefix; variables are unknown
		}
		if innermost(stack, "http") == nil && innermost(stack, "server") == nil && innermost(stack, "location") == nil {
			return
		}
		v := d.Args[0].Value
		target := path.Clean(v)
		if d.Is("alias") {
			loc := innermost(stack, "location")
			if loc == nil {
				return
			}
			l, err := grammar.ParseLocation(loc.ArgValues())
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
		diag := p.Reportf(d.File, d.Args[0].Range, "%q %q serves %s", d.Name.Value, v, what)
		diag.Detail = "every file the worker can read becomes reachable by URL; point " + d.Name.Value + " at a directory that holds only what is meant to be served"
	}, "root", "alias")
}

// SSLECDHCurvePQ reports post-quantum key-exchange groups in
// ssl_ecdh_curve without the "?" that lets OpenSSL skip unknown groups.
var SSLECDHCurvePQ = &analyzer.Rule{
	Code: "NL3025", Name: "ssl-ecdh-curve-pq", Title: "post-quantum group in ssl_ecdh_curve without the ? prefix", Severity: parser.Warning,
	Run: runSSLECDHCurvePQ,
	Doc: analyzer.Doc{
		Text: "Post-quantum hybrid groups (`X25519MLKEM768`, `SecP256r1MLKEM768`, the draft " +
			"`X25519Kyber768Draft00`) are known only to recent TLS libraries (OpenSSL 3.5+, " +
			"BoringSSL, OQS builds). An OpenSSL that does not know a listed group rejects the " +
			"whole list, and nginx fails to start or to reload (`SSL_CTX_set1_curves_list() " +
			"failed`) after a library downgrade or on another host. From OpenSSL 3.3 a leading " +
			"`?` marks a group as optional. The Kyber drafts are obsolete: clients moved to " +
			"ML-KEM, so list `?X25519MLKEM768` instead.",
		Bad:  "ssl_ecdh_curve X25519MLKEM768:X25519:prime256v1;\n",
		Good: "ssl_ecdh_curve ?X25519MLKEM768:X25519:prime256v1;\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_ssl_module.html#ssl_ecdh_curve",
	},
}

// pqGroup reports whether a group name of ssl_ecdh_curve is a post-quantum
// (hybrid) key exchange, which older TLS libraries do not know.
func pqGroup(g string) bool {
	u := strings.ToUpper(g)
	return strings.Contains(u, "MLKEM") || strings.Contains(u, "KYBER")
}

func runSSLECDHCurvePQ(p *analyzer.Pass) {
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, _ []*parser.Directive) {
		if len(d.Args) != 1 || hasVars(d.Args[0].Value) {
			return
		}
		var bare []string
		for _, g := range strings.Split(d.Args[0].Value, ":") {
			if pqGroup(g) && !strings.HasPrefix(g, "?") {
				bare = append(bare, g)
			}
		}
		if len(bare) == 0 {
			return
		}
		diag := p.Reportf(d.File, d.Args[0].Range, "%q lists %s without %q: a TLS library that does not know it rejects the whole list", "ssl_ecdh_curve", strings.Join(bare, ", "), "?")
		diag.Detail = "prefix post-quantum groups with \"?\" (OpenSSL 3.3+) so nginx still starts where they are unknown"
		for _, g := range bare {
			if strings.Contains(strings.ToUpper(g), "KYBER") {
				diag.Detail += "; " + g + " is an obsolete draft, use X25519MLKEM768"
				break
			}
		}
	}, "ssl_ecdh_curve")
}

// SSLStaplingIneffective reports ssl_stapling on where it cannot work: a
// Let's Encrypt certificate (Let's Encrypt ended OCSP) or no resolver to
// reach the responder.
var SSLStaplingIneffective = &analyzer.Rule{
	Code: "NL3026", Name: "ssl-stapling-ineffective", Title: "ssl_stapling on where it cannot staple", Severity: parser.Warning,
	Run: runSSLStaplingIneffective,
	Doc: analyzer.Doc{
		Text: "OCSP stapling needs an OCSP responder and a way to reach it. Let's Encrypt " +
			"ended its OCSP service in 2025: its certificates carry no responder URL, so with " +
			"`ssl_stapling on` nginx logs a warning for every such certificate and staples " +
			"nothing. Elsewhere nginx resolves the responder's host name with `resolver`; " +
			"without one (and without `ssl_stapling_responder` or `ssl_stapling_file`) stapling " +
			"fails at run time with \"no resolver defined\". Turn stapling off for Let's Encrypt " +
			"certificates, and define a resolver where stapling is meant to work.",
		Bad:  "server {\n    listen 443 ssl;\n    ssl_certificate     /etc/letsencrypt/live/example.com/fullchain.pem;\n    ssl_certificate_key /etc/letsencrypt/live/example.com/privkey.pem;\n    ssl_stapling on;\n}\n",
		Good: "server {\n    listen 443 ssl;\n    ssl_certificate     /etc/letsencrypt/live/example.com/fullchain.pem;\n    ssl_certificate_key /etc/letsencrypt/live/example.com/privkey.pem;\n    ssl_stapling off;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_ssl_module.html#ssl_stapling",
	},
}

// staplingScope is what one block sets of the directives stapling depends
// on (nil: not set there).
type staplingScope struct {
	stapling, responder, resolver, file *parser.Directive
	certs                               []*parser.Directive
}

func readStaplingScope(dirs []*parser.Directive) staplingScope {
	var s staplingScope
	for _, d := range dirs {
		switch {
		case d.Is("ssl_stapling"):
			s.stapling = d
		case d.Is("ssl_stapling_responder"):
			s.responder = d
		case d.Is("ssl_stapling_file"):
			s.file = d
		case d.Is("resolver"):
			s.resolver = d
		case d.Is("ssl_certificate"):
			s.certs = append(s.certs, d)
		}
	}
	return s
}

func letsEncryptCert(d *parser.Directive) bool {
	return len(d.Args) == 1 && strings.Contains(strings.ToLower(d.Args[0].Value), "letsencrypt")
}

func runSSLStaplingIneffective(p *analyzer.Pass) {
	if len(p.Index().Named("ssl_stapling")) == 0 {
		return
	}
	// The http level is read once per http block, not once per server.
	outer := map[*parser.Directive]staplingScope{}
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		if d.Block == nil || innermost(stack, "stream") != nil || innermost(stack, "mail") != nil {
			return
		}
		// A server of a snippet has no http block to inherit from.
		var hs staplingScope
		if h := innermost(stack, "http"); h != nil {
			var ok bool
			if hs, ok = outer[h]; !ok {
				hs = readStaplingScope(body(p.Config, h))
				outer[h] = hs
			}
		}
		s := readStaplingScope(body(p.Config, d))
		on := s.stapling
		if on == nil {
			on = hs.stapling
		}
		if on == nil || len(on.Args) != 1 || !strings.EqualFold(on.Args[0].Value, "on") {
			return
		}
		certs := s.certs
		if len(certs) == 0 {
			certs = hs.certs
		}
		if len(certs) == 0 {
			return // not a TLS server as far as can be seen
		}
		// Report where the server says "on", or at the server block when
		// it inherits the setting.
		at := on
		if on != s.stapling {
			at = d
		}
		for _, c := range certs {
			if letsEncryptCert(c) {
				diag := p.ReportDirective(at, "%q %q with the Let's Encrypt certificate %q: Let's Encrypt ended OCSP, there is nothing to staple", "ssl_stapling", "on", c.Args[0].Value)
				diag.Detail = "turn ssl_stapling off in this server; nginx logs a warning for the certificate on every start"
				return
			}
		}
		// A stapling file needs no responder; a responder URL may carry
		// an address (and one with a name still needs the resolver, but
		// that is for nginx to say).
		if s.resolver == nil && hs.resolver == nil && s.responder == nil && hs.responder == nil && s.file == nil && hs.file == nil {
			diag := p.ReportDirective(at, "%q %q without a %q: nginx cannot reach the OCSP responder", "ssl_stapling", "on", "resolver")
			diag.Detail = "define a resolver (or ssl_stapling_responder with an address) in this server or http"
		}
	}, "server")
}

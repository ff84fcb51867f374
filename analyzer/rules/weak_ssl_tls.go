package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/fix"
	"github.com/nginx-lint/nginx-lint/parser"
)

// WeakSSLTLS reports obsolete protocol versions and weak cipher suites.
var WeakSSLTLS = &analyzer.Rule{
	Code: "NL3010", Name: "weak-ssl-tls", Title: "obsolete TLS protocol or weak cipher enabled", Severity: parser.Warning,
	Fixable: true,
	Run:     runWeakSSLTLS,
	Doc: analyzer.Doc{
		Text: "SSLv2 and SSLv3 are broken (DROWN, POODLE); TLS 1.0 and 1.1 are deprecated (RFC 8996) " +
			"and refused by current browsers. RC4, DES and 3DES, MD5-based, export-grade, NULL and " +
			"anonymous (aNULL, ADH) cipher suites give no or weak protection. Enable " +
			"`ssl_protocols TLSv1.2 TLSv1.3;` and either keep nginx's default `ssl_ciphers` or use a " +
			"current recommendation such as Mozilla's intermediate list. Ciphers excluded with `!` " +
			"or `-` are not reported.",
		Bad:  "server {\n    listen 443 ssl;\n    ssl_protocols TLSv1 TLSv1.1 TLSv1.2;\n    ssl_ciphers RC4:HIGH;\n}\n",
		Good: "server {\n    listen 443 ssl;\n    ssl_protocols TLSv1.2 TLSv1.3;\n    ssl_ciphers HIGH:!aNULL:!MD5;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_ssl_module.html#ssl_protocols",
	},
}

var weakProtocols = map[string]bool{"sslv2": true, "sslv3": true, "tlsv1": true, "tlsv1.1": true}

func runWeakSSLTLS(p *analyzer.Pass) {
	// What each block says of its protocols, read once per block: an
	// http block's list is asked about by every server in it.
	protocols := map[blockProtocols]protocolList{}
	p.WalkNamed(func(d *parser.Directive, ctx directives.Context, stack []*parser.Directive) {
		switch d.Name().Value {
		case "ssl_protocols", "proxy_ssl_protocols", "grpc_ssl_protocols", "uwsgi_ssl_protocols":
			var weak, kept []string
			for _, a := range d.Args() {
				if weakProtocols[strings.ToLower(a.Value)] {
					weak = append(weak, a.Value)
				} else {
					kept = append(kept, d.File.Src[a.Range.Start:a.Range.End])
				}
			}
			if len(weak) > 0 {
				diag := p.ReportDirective(d, "%q enables obsolete %s", d.Name().Value, strings.Join(weak, ", "))
				diag.Detail = "SSLv2/SSLv3 are broken and TLS 1.0/1.1 deprecated (RFC 8996); use \"TLSv1.2 TLSv1.3\""
				// The fix keeps the strong versions listed; a list of
				// only weak ones becomes the modern pair, or TLSv1.2
				// alone for a target that predates the value TLSv1.3
				// (nginx 1.13.0), which it refuses.
				if len(kept) == 0 {
					kept = []string{"TLSv1.2", "TLSv1.3"}
					if since := protocolSince(d.Name().Value, ctx, "TLSv1.3"); p.Target.Lacks(since) {
						kept = kept[:1]
					}
					p.AssumeTarget(diag)
				}
				args := parser.Range{Start: d.Args()[0].Range.Start, End: d.Args()[len(d.Args())-1].Range.End}
				diag.Edits = []parser.Edit{{File: d.File, Range: args, NewText: strings.Join(kept, " ")}}
			}
		case "ssl_ciphers", "proxy_ssl_ciphers", "grpc_ssl_ciphers", "uwsgi_ssl_ciphers":
			if len(d.Args()) != 1 || tls13Only(p, protocols, d, stack) {
				// ssl_ciphers governs TLS 1.2 and older only: with TLS
				// 1.3 alone the list is never used.
				return
			}
			weak, kept, excl := judgeCiphers(d.Args()[0].Value)
			if len(weak) > 0 {
				diag := p.Reportf(d.File, d.Args()[0].Range, "%q enables weak ciphers: %s", d.Name().Value, strings.Join(weak, ", "))
				diag.Detail = "remove them, exclude them with \"!\", or use nginx's default cipher list"
				// The fix drops the weak suites named one by one, keeps the
				// rest as written and excludes what a keyword (ALL, HIGH,
				// ...) lets in; with nothing left, nginx's default.
				kept = append(kept, excl...)
				if !hasEnabling(kept) {
					kept = []string{"HIGH", "!aNULL", "!MD5"}
				}
				diag.Edits = []parser.Edit{fix.ReplaceArg(d.File, d.Args()[0], strings.Join(kept, ":"))}
			}
		}
	}, "ssl_protocols", "proxy_ssl_protocols", "grpc_ssl_protocols", "uwsgi_ssl_protocols", "ssl_ciphers", "proxy_ssl_ciphers", "grpc_ssl_ciphers", "uwsgi_ssl_ciphers")
}

// blockProtocols names a block (nil: the main context) and a protocols
// directive (ssl_protocols, proxy_ssl_protocols, ...).
type blockProtocols struct {
	block *parser.Directive
	name  string
}

// protocolList is what a block says of its protocols.
type protocolList uint8

const (
	protocolsUnset    protocolList = iota + 1 // the block does not set them
	protocolsTLS13                            // TLS 1.3 alone
	protocolsOlderToo                         // TLS 1.2 or older among them
)

// tls13Only reports whether the protocols in force where the cipher list
// d is (its own block's, else the nearest enclosing block's *_protocols)
// are TLS 1.3 alone.
func tls13Only(p *analyzer.Pass, seen map[blockProtocols]protocolList, d *parser.Directive, stack []*parser.Directive) bool {
	want := strings.Replace(d.Name().Value, "_ciphers", "_protocols", 1)
	for i := len(stack) - 1; i >= -1; i-- {
		var b *parser.Directive
		if i >= 0 {
			b = stack[i]
		}
		k := blockProtocols{b, want}
		l, ok := seen[k]
		if !ok {
			dirs := p.Config.Main.Directives
			if b != nil {
				dirs = p.Body(b)
			}
			l = readProtocols(dirs, want)
			seen[k] = l
		}
		if l != protocolsUnset {
			return l == protocolsTLS13
		}
	}
	return false
}

// readProtocols reads the protocols directive called name among dirs.
func readProtocols(dirs []*parser.Directive, name string) protocolList {
	for _, x := range dirs {
		if x.Name().Value != name || len(x.Args()) == 0 {
			continue
		}
		for _, a := range x.Args() {
			if !strings.EqualFold(a.Value, "TLSv1.3") {
				return protocolsOlderToo
			}
		}
		return protocolsTLS13
	}
	return protocolsUnset
}

// hasEnabling reports whether a cipher list enables anything (a token
// that is not an exclusion).
func hasEnabling(toks []string) bool {
	for _, t := range toks {
		if !strings.HasPrefix(t, "!") && !strings.HasPrefix(t, "-") {
			return true
		}
	}
	return false
}

// cipherKeywords are the OpenSSL cipher-string keywords that let in weak
// suites unless the list excludes them: ALL holds every suite the library
// has (anonymous, RC4, 3DES, ... in the builds that still carry them),
// HIGH and MEDIUM hold the anonymous (aNULL) suites. DEFAULT already
// excludes them.
var cipherKeywords = map[string][]string{
	"ALL":             {"aNULL", "RC4", "3DES", "DES", "MD5", "EXPORT", "LOW"},
	"COMPLEMENTOFALL": {"aNULL", "RC4", "3DES", "DES", "MD5", "EXPORT", "LOW"},
	"HIGH":            {"aNULL"},
	"MEDIUM":          {"aNULL", "RC4", "SEED", "IDEA"},
}

// cipherFamily maps a cipher-string token to the weak families it names
// (as an alias: "RC4", "aNULL", ...), nil when it names none.
func cipherFamily(tok string) []string {
	switch strings.ToUpper(tok) {
	case "RC4":
		return []string{"RC4"}
	case "DES":
		return []string{"DES"}
	case "3DES":
		return []string{"3DES"}
	case "MD5":
		return []string{"MD5"}
	case "NULL", "ENULL":
		return []string{"eNULL"}
	case "ANULL", "ADH", "AECDH":
		return []string{"aNULL"}
	case "EXPORT", "EXP", "EXPORT40", "EXPORT56":
		return []string{"EXPORT"}
	case "LOW":
		return []string{"LOW"}
	case "SEED", "IDEA", "RC2":
		return []string{strings.ToUpper(tok)}
	}
	return nil
}

// suiteFamily names the weak family of one suite named in full
// ("DES-CBC3-SHA"), "" for a strong one.
func suiteFamily(tok string) string {
	t := strings.ToUpper(tok)
	for _, part := range strings.Split(t, "-") {
		switch part {
		case "RC4", "MD5", "RC2", "IDEA", "SEED":
			return part
		case "CBC3", "3DES":
			return "3DES"
		case "DES":
			if strings.Contains(t, "CBC3") || strings.Contains(t, "EDE") {
				return "3DES"
			}
			return "DES"
		case "NULL":
			return "eNULL"
		case "EXP", "EXPORT":
			return "EXPORT"
		case "ADH", "AECDH", "ANON":
			return "aNULL"
		}
	}
	return ""
}

// judgeCiphers reads an OpenSSL cipher string the way OpenSSL does for
// the weak families: keywords (ALL, HIGH, ...) let families in, "-X"
// takes out what came before, "!X" bans X for good wherever it stands.
// It returns the tokens that leave a weak family enabled (a keyword with
// the families in parentheses), the tokens to keep, and the exclusions a
// fix must add for the keywords.
func judgeCiphers(list string) (weak, kept, excl []string) {
	toks := strings.FieldsFunc(list, func(r rune) bool { return r == ':' || r == ',' || r == ' ' })
	banned := map[string]bool{}
	for _, tok := range toks {
		if strings.HasPrefix(tok, "!") {
			for _, f := range cipherFamily(tok[1:]) {
				banned[f] = true
			}
		}
	}
	// One entry per token, in order; exclusions carry no families.
	type entry struct {
		tok      string
		families []string
		keyword  bool
	}
	entries := make([]entry, 0, len(toks))
	for _, tok := range toks {
		switch {
		case strings.HasPrefix(tok, "!"):
			entries = append(entries, entry{tok: tok})
			continue
		case strings.HasPrefix(tok, "-"):
			// Removes the family from the suites enabled so far.
			rm := cipherFamily(tok[1:])
			for i := range entries {
				entries[i].families = without(entries[i].families, rm)
			}
			entries = append(entries, entry{tok: tok})
			continue
		}
		t := strings.TrimPrefix(tok, "+")
		e := entry{tok: tok}
		if k, ok := cipherKeywords[strings.ToUpper(t)]; ok {
			e.families, e.keyword = k, true
		} else if f := cipherFamily(t); f != nil {
			e.families = f
		} else if f := suiteFamily(t); f != "" {
			e.families = []string{f}
		}
		entries = append(entries, e)
	}
	seen := map[string]bool{}
	for _, e := range entries {
		var live []string
		for _, f := range e.families {
			if !banned[f] {
				live = append(live, f)
			}
		}
		switch {
		case len(live) == 0:
			kept = append(kept, e.tok)
		case e.keyword:
			weak = append(weak, e.tok+" ("+strings.Join(live, ", ")+")")
			kept = append(kept, e.tok)
			for _, f := range live {
				if !seen[f] {
					seen[f] = true
					excl = append(excl, "!"+f)
				}
			}
		default:
			weak = append(weak, e.tok)
		}
	}
	return weak, kept, excl
}

// without returns fams minus the families in rm.
func without(fams, rm []string) []string {
	if len(rm) == 0 {
		return fams
	}
	var out []string
	for _, f := range fams {
		keep := true
		for _, r := range rm {
			if f == r {
				keep = false
			}
		}
		if keep {
			out = append(out, f)
		}
	}
	return out
}

// protocolSince is the first nginx release whose directive name (in ctx)
// accepts the protocol value v, from the tables ("": every release).
func protocolSince(name string, ctx directives.Context, v string) string {
	if r := directives.InContext(name, ctx); r != nil && r.Value != nil {
		if since, ok := r.Value.ValueSince(v); ok {
			return since
		}
	}
	return ""
}

package rules

import (
	"fmt"
	"regexp/syntax"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/regex"
	"github.com/nginx-lint/nginx-lint/analyzer/symbols"
	"github.com/nginx-lint/nginx-lint/parser"
)

// The origins rule's options.
var (
	originDomains   = analyzer.StringListOption("domains", []string{}, "Trusted domains: an origin or referer check that accepts others is reported.")
	originHTTPSOnly = analyzer.BoolOption("https-only", false, "Also report checks that accept http:// origins.").Renamed("https_only")
)

// Origins reports regexes that validate Origin or Referer and let
// foreign sites through.
var Origins = &analyzer.Rule{
	Code: "NL3004", Name: "origins", Title: "Origin or Referer check accepts other sites", Severity: parser.Warning,
	Run:     runOrigins,
	Options: []analyzer.Option{originDomains.Decl(), originHTTPSOnly.Decl()},
	Doc: analyzer.Doc{
		Text: "A regex that decides whether `$http_origin` or `$http_referer` belongs to a trusted site " +
			"(for CORS headers, CSRF or clickjacking protection) must pin the whole host: anchored " +
			"with `^`, the scheme spelt out, dots escaped (`\\.`), and the host closed by `$` (Origin) " +
			"or `/` (Referer). Otherwise `https://example.com.evil.net`, `https://evil-example.com` or " +
			"`https://evil.net/?https://example.com` pass. Options: `domains` (trusted registrable " +
			"domains; others are reported) and `https_only` (report checks that accept `http://`). " +
			"Also reported: `$http_referrer`, a header browsers never send.",
		Bad:  "if ($http_origin ~ \"https://example.com\") {\n    add_header Access-Control-Allow-Origin $http_origin;\n}\n",
		Good: "if ($http_origin ~ \"^https://(www\\.)?example\\.com$\") {\n    add_header Access-Control-Allow-Origin $http_origin;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_rewrite_module.html#if",
	},
}

// originOptions are the origins rule's options.
type originOptions struct {
	domains   []string
	httpsOnly bool
}

func runOrigins(p *analyzer.Pass) {
	var opt originOptions
	for d := range stringSet(originDomains.Get(p)) {
		if d != "*" {
			opt.domains = append(opt.domains, strings.ToLower(d))
		}
	}
	opt.httpsOnly = originHTTPSOnly.Get(p)
	check := func(f *parser.File, w parser.Word, variable, expr string, caseless bool) {
		if variable == "http_referrer" {
			diag := p.Reportf(f, w.Range, "%q is the misspelt %q header, which browsers never send", "$http_referrer", "Referrer")
			diag.Detail = "the HTTP header is spelt Referer: use $http_referer"
			return
		}
		re := regex.Parse(expr, caseless)
		if re == nil {
			return
		}
		header := "Origin"
		if variable == "http_referer" {
			header = "Referer"
		}
		if why := originFlaw(re, header == "Origin", opt); why != "" {
			diag := p.Reportf(f, w.Range, "%q check %q %s", "$"+variable, expr, why)
			diag.Detail = "anchor the regex, escape the dots and close the host, e.g. ^https://(www\\.)?example\\.com$ " +
				"for Origin or ^https://example\\.com/ for Referer"
		}
	}
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, _ []*parser.Directive) {
		switch {
		case d.Is("if"):
			v, op, expr, ok := symbols.IfMatch(d)
			if ok && originVariable(v) {
				w := d.Args()[len(d.Args())-1]
				if w.Value == ")" && len(d.Args()) >= 2 {
					w = d.Args()[len(d.Args())-2] // point at the regex, not the parenthesis
				}
				check(d.File, w, v, expr, strings.HasSuffix(op, "*"))
			}
		case d.Is("map") && d.Block != nil && len(d.Args()) == 2:
			v := strings.ToLower(strings.TrimPrefix(d.Args()[0].Value, "$"))
			if !strings.HasPrefix(d.Args()[0].Value, "$") || !originVariable(v) {
				return
			}
			for _, e := range d.Block.Directives {
				key := e.Name().Value
				if !strings.HasPrefix(key, "~") {
					continue
				}
				caseless := strings.HasPrefix(key, "~*")
				check(e.File, e.Name(), v, strings.TrimPrefix(strings.TrimPrefix(key, "~"), "*"), caseless)
			}
		}
	}, "if", "map")
}

func originVariable(v string) bool {
	return v == "http_origin" || v == "http_referer" || v == "http_referrer"
}

// atom is one step of a flattened regex: a single literal character
// (lit != 0) or any other node.
type atom struct {
	lit  rune
	node *syntax.Regexp
}

// flatten turns re into the sequences of atoms it may match, one per
// combination of top-level alternatives (at most limit of them).
func flatten(re *syntax.Regexp, limit int) [][]atom {
	switch re.Op {
	case syntax.OpLiteral:
		seq := make([]atom, len(re.Rune))
		for i, r := range re.Rune {
			seq[i] = atom{lit: r}
			if re.Flags&syntax.FoldCase != 0 {
				seq[i].lit = []rune(strings.ToLower(string(r)))[0]
			}
		}
		return [][]atom{seq}
	case syntax.OpCapture:
		return flatten(re.Sub[0], limit)
	case syntax.OpConcat:
		out := [][]atom{nil}
		for _, sub := range re.Sub {
			alts := flatten(sub, limit)
			var next [][]atom
			for _, prefix := range out {
				for _, a := range alts {
					if len(next) >= limit {
						break
					}
					next = append(next, append(append([]atom(nil), prefix...), a...))
				}
			}
			out = next
		}
		return out
	case syntax.OpAlternate:
		var out [][]atom
		for _, sub := range re.Sub {
			for _, a := range flatten(sub, limit) {
				if len(out) < limit {
					out = append(out, a)
				}
			}
		}
		return out
	}
	return [][]atom{{{node: re}}}
}

// originFlaw explains how a regex meant to accept trusted origins also
// accepts others, or returns "".
func originFlaw(re *syntax.Regexp, origin bool, opt originOptions) string {
	for _, seq := range flatten(re, 64) {
		if why := sequenceFlaw(seq, origin, opt); why != "" {
			return why
		}
	}
	return ""
}

func isAnchor(a atom, ops ...syntax.Op) bool {
	if a.node == nil {
		return false
	}
	for _, op := range ops {
		if a.node.Op == op {
			return true
		}
	}
	return false
}

func hostChar(r rune) bool {
	return r == '.' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

// sequenceFlaw checks one alternative: ^ scheme :// host then $ or /.
func sequenceFlaw(seq []atom, origin bool, opt originOptions) string {
	if len(seq) == 0 || !isAnchor(seq[0], syntax.OpBeginText, syntax.OpBeginLine) {
		return "is not anchored with \"^\": \"https://evil.net/?https://trusted\" matches"
	}
	i := 1
	// The scheme: "http", an optional or required "s", "://".
	if i < len(seq) && seq[i].node != nil {
		return "lets anything precede the scheme"
	}
	if rest := seq[i:]; literalPrefix(rest, "http") {
		i += 4
		switch {
		case i < len(seq) && seq[i].lit == 's':
			i++
		case i < len(seq) && seq[i].node != nil && seq[i].node.Op == syntax.OpQuest:
			if opt.httpsOnly {
				return "also accepts plain http://"
			}
			i++
		default:
			if opt.httpsOnly {
				return "also accepts plain http://"
			}
		}
		if !literalPrefix(seq[i:], "://") {
			return ""
		}
		i += 3
	}
	hostStart := i
	// The host ends at the first "/", ":" (port), "?" or end anchor.
	end := len(seq)
	for j := i; j < len(seq); j++ {
		a := seq[j]
		if (a.node == nil && !hostChar(a.lit)) || isAnchor(a, syntax.OpEndText, syntax.OpEndLine) || portGroup(a) ||
			(a.node != nil && onlyStartsWithSlash(a.node)) {
			end = j
			break
		}
	}
	// The trusted part is the run of literal host characters before it.
	k := end
	for k > hostStart && seq[k-1].node == nil && hostChar(seq[k-1].lit) {
		k--
	}
	host := atomsText(seq[k:end])
	if end > hostStart && seq[end-1].node != nil {
		k := end - 1
		for k > hostStart && seq[k-1].node == nil && hostChar(seq[k-1].lit) {
			k--
		}
		fixed := atomsText(seq[k : end-1])
		return fmt.Sprintf("lets the host continue after %q (\"%s.evil.net\" matches)", fixed, fixed)
	}
	labels := strings.Split(strings.Trim(host, "."), ".")
	if len(labels) < 2 || host == "" {
		return fmt.Sprintf("does not pin the host: an unescaped \".\" or a wildcard leaves only %q fixed", host)
	}
	registrable := strings.Join(labels[len(labels)-2:], ".")
	switch {
	case k == hostStart:
	case strings.HasPrefix(host, ".") || strings.Contains(host, "."+registrable) && host != registrable:
	case optionalLabel(seq[k-1]):
	default:
		return fmt.Sprintf("accepts hosts that merely end in %q (\"evil%s\" matches)", host, host)
	}
	if len(opt.domains) > 0 && !trustedDomain(strings.ToLower(strings.Trim(host, ".")), opt.domains) {
		return fmt.Sprintf("accepts %q, which is not among the trusted domains", registrable)
	}
	if end == len(seq) {
		return fmt.Sprintf("does not close the host: \"%s.evil.net\" matches", strings.Trim(host, "."))
	}
	for end < len(seq) && portGroup(seq[end]) {
		end++
	}
	if end < len(seq) && seq[end].lit == ':' {
		return "" // an explicit port follows
	}
	next := seq[end]
	switch {
	case isAnchor(next, syntax.OpEndText, syntax.OpEndLine):
		return ""
	case next.lit == '/' && origin:
		return "expects a \"/\" after the host, which an Origin never has: the check always fails"
	case next.lit == '/' || next.lit == '?' || next.lit == '#':
		return ""
	}
	return fmt.Sprintf("does not close the host: %q may be followed by other characters", strings.Trim(host, "."))
}

// onlyStartsWithSlash reports whether a non-empty match of re always
// begins with "/" (an optional path such as "/?").
func onlyStartsWithSlash(re *syntax.Regexp) bool {
	slash, _ := regex.MayStart(re, regex.RuneSet{Rune: '/'})
	other, _ := regex.MayStart(re, regex.RuneSet{Rune: '/', Other: true})
	return slash && !other
}

// literalPrefix reports whether seq starts with the literal text s.
func literalPrefix(seq []atom, s string) bool {
	if len(seq) < len(s) {
		return false
	}
	for i, r := range s {
		if seq[i].node != nil || seq[i].lit != r {
			return false
		}
	}
	return true
}

func atomsText(seq []atom) string {
	var b strings.Builder
	for _, a := range seq {
		b.WriteRune(a.lit)
	}
	return b.String()
}

// portGroup reports whether an atom is an optional ":port" group.
func portGroup(a atom) bool {
	if a.node == nil || (a.node.Op != syntax.OpQuest && a.node.Op != syntax.OpStar && a.node.Op != syntax.OpRepeat) {
		return false
	}
	for _, seq := range flatten(a.node.Sub[0], 8) {
		if len(seq) == 0 || seq[0].lit != ':' {
			return false
		}
	}
	return true
}

// optionalLabel reports whether an atom is an optional subdomain group
// that always ends with a literal dot, like "([a-z0-9-]+\.)?".
func optionalLabel(a atom) bool {
	if a.node == nil || (a.node.Op != syntax.OpQuest && a.node.Op != syntax.OpStar) {
		return false
	}
	for _, seq := range flatten(a.node.Sub[0], 8) {
		if len(seq) == 0 || seq[len(seq)-1].lit != '.' {
			return false
		}
		for _, x := range seq {
			if x.node != nil && regex.MayContain(x.node, regex.RuneSet{Rune: '/'}) {
				return false
			}
		}
	}
	return true
}

// trustedDomain reports whether host is one of domains or a subdomain.
func trustedDomain(host string, domains []string) bool {
	for _, d := range domains {
		if host == d || strings.HasSuffix(host, "."+d) {
			return true
		}
	}
	return false
}

// stringSet is the set of a list option's strings.
func stringSet(list []string) map[string]bool {
	out := make(map[string]bool, len(list))
	for _, s := range list {
		out[s] = true
	}
	return out
}

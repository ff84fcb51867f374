package rules

import (
	"path"
	"slices"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/costpass"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/parser"
)

// AuthFileServed reports a password file that the server it protects
// serves as a static file.
var AuthFileServed = &analyzer.Rule{
	Code: "NL3035", Name: "auth-file-served", Title: "the auth_basic_user_file is inside a served root", Severity: parser.Warning,
	Run: runAuthFileServed,
	Doc: analyzer.Doc{
		Text: "`auth_basic_user_file` names the file of user names and password hashes. When it " +
			"lies under the `root` (or `alias`) of a location of the same server that serves static " +
			"files, a plain GET downloads it (`/.htpasswd`), and the hashes can be cracked offline. " +
			"Keep the file outside every served directory (`/etc/nginx/htpasswd`), or deny its " +
			"location (`location ~ /\\.ht { deny all; }`). nginx-lint follows the request for the " +
			"file's URI to the location nginx would choose, and stays quiet when that location denies " +
			"it, answers with `return`, hands the request to a backend, or maps it elsewhere; paths " +
			"relative to the prefix are not compared.",
		Bad:  "server {\n    listen 80;\n    root /var/www/site;\n    location /admin/ {\n        auth_basic \"admin\";\n        auth_basic_user_file /var/www/site/.htpasswd;\n    }\n}\n",
		Good: "server {\n    listen 80;\n    root /var/www/site;\n    location /admin/ {\n        auth_basic \"admin\";\n        auth_basic_user_file /etc/nginx/htpasswd;\n    }\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_auth_basic_module.html#auth_basic_user_file",
	},
}

func runAuthFileServed(p *analyzer.Pass) {
	if len(p.Index().Named("auth_basic_user_file")) == 0 {
		return
	}
	var list []*parser.Server
	servers := map[*parser.Directive]*parser.Server{}
	for _, s := range p.Model().Servers {
		if s.Protocol == parser.HTTP {
			servers[s.Directive] = s
			list = append(list, s)
		}
	}
	var rm *routing.Model
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		if len(d.Args()) != 1 || !strings.HasPrefix(d.Args()[0].Value, "/") || strings.Contains(d.Args()[0].Value, "$") {
			return
		}
		if rm == nil {
			rm = routing.New(p.Model(), costpass.Get(p), routing.Options{NoFiles: true})
		}
		file := path.Clean(d.Args()[0].Value)
		var srv *parser.Server
		var outer []*parser.Directive // http, server
		for _, b := range stack {
			if s, ok := servers[b]; ok {
				srv = s
				outer = append(analyzer.Levels(stack[:indexOf(stack, b)]), b)
			}
		}
		if srv == nil {
			// Set in http: every server inherits it.
			for _, s := range list {
				if h := analyzer.Innermost(stack, "http"); h != nil {
					if reportServed(p, rm, d, file, s, []*parser.Directive{h, s.Directive}) {
						return
					}
				}
			}
			return
		}
		reportServed(p, rm, d, file, srv, outer)
	}, "auth_basic_user_file")
}

func indexOf(stack []*parser.Directive, b *parser.Directive) int {
	for i, x := range stack {
		if x == b {
			return i
		}
	}
	return len(stack)
}

// reportServed reports d when a request for the file's URI in server s
// (whose enclosing blocks, outermost first, end with s) is answered from
// the file: it tries the URI below every root and alias of the server.
func reportServed(p *analyzer.Pass, rm *routing.Model, d *parser.Directive, file string, s *parser.Server, outer []*parser.Directive) bool {
	n := slices.Index(rm.Table.Servers, s)
	if n < 0 {
		return false
	}
	for _, uri := range candidateURIs(p, file, s, outer) {
		// The location nginx chooses for the URI (the routing model's
		// ngx_http_core_find_location); a regex it cannot run the way
		// PCRE does leaves the answer open.
		loc, _, unsure := rm.Locations(n).Find(uri)
		if unsure != "" {
			continue
		}
		blocks := append(append([]*parser.Directive(nil), outer...), locationChain(loc)...)
		if servedPath(p, blocks, uri) != file || !servesStatic(p, blocks) {
			continue
		}
		diag := p.Reportf(d.File, d.Args()[0].Range, "%q %q is served: a GET for %q downloads the password hashes", "auth_basic_user_file", d.Args()[0].Value, uri)
		diag.Detail = "move the file outside every root and alias (for example to /etc/nginx/), or deny its location"
		if loc != nil && loc.Directive != nil {
			diag.Related = append(diag.Related, parser.Related{File: loc.Directive.File, Range: loc.Directive.Name().Range, Message: "the location that serves it"})
		}
		return true
	}
	return false
}

// candidateURIs are the URIs under which a root or alias of the server
// would find file.
func candidateURIs(p *analyzer.Pass, file string, s *parser.Server, outer []*parser.Directive) []string {
	var out []string
	add := func(u string) {
		for _, x := range out {
			if x == u {
				return
			}
		}
		out = append(out, u)
	}
	if r := p.InEffect(outer, "root"); r != nil && len(r.Args()) == 1 {
		if rel, ok := below(file, r.Args()[0].Value); ok {
			add(rel)
		}
	}
	var walk func(locs []parser.Location)
	walk = func(locs []parser.Location) {
		for i := range locs {
			l := &locs[i]
			for _, c := range p.Body(l.Directive) {
				if len(c.Args()) != 1 {
					continue
				}
				if c.Is("root") {
					if rel, ok := below(file, c.Args()[0].Value); ok {
						add(rel)
					}
				}
				if c.Is("alias") && !l.Spec().IsRegex {
					if rel, ok := below(file, c.Args()[0].Value); ok {
						add(strings.TrimSuffix(l.Spec().Path, "/") + rel)
					}
				}
			}
			walk(l.Locations())
		}
	}
	walk(s.Locations())
	return out
}

// below returns "/rel" when file lies under directory root.
func below(file, root string) (string, bool) {
	if strings.Contains(root, "$") || !strings.HasPrefix(root, "/") {
		return "", false
	}
	root = strings.TrimSuffix(path.Clean(root), "/")
	if !strings.HasPrefix(file, root+"/") {
		return "", false
	}
	return file[len(root):], true
}

// servedPath is the file a static request for uri reads with the
// settings of blocks (http, server, the locations down to the one that
// answers): root + uri, or the alias in place of the location's prefix.
func servedPath(p *analyzer.Pass, blocks []*parser.Directive, uri string) string {
	// root and alias are one setting, inherited together.
	for i := len(blocks) - 1; i >= 0; i-- {
		var r *parser.Directive
		for _, c := range p.Body(blocks[i]) {
			if c.Is("root") || c.Is("alias") {
				r = c
			}
		}
		if r == nil || len(r.Args()) != 1 {
			continue
		}
		dir := r.Args()[0].Value
		if strings.Contains(dir, "$") {
			return ""
		}
		if r.Is("root") {
			return path.Clean(dir + uri)
		}
		spec, err := parser.LocationSpec(blocks[i])
		if err != nil || spec.IsRegex || !strings.HasPrefix(uri, spec.Path) {
			return ""
		}
		return path.Clean(dir + strings.TrimPrefix(uri, spec.Path))
	}
	return ""
}

// servesStatic reports whether a location with these blocks answers a
// request from its files: no content handler, no return, no deny all, not
// internal.
func servesStatic(p *analyzer.Pass, blocks []*parser.Directive) bool {
	last := blocks[len(blocks)-1]
	for _, c := range p.Body(last) {
		switch {
		case c.Is("return") || c.Is("internal"):
			return false
		case strings.HasSuffix(c.Name().Value, "_pass") || c.Is("empty_gif") || c.Is("stub_status") || c.Is("perl") || strings.HasPrefix(c.Name().Value, "content_by_lua") || c.Is("js_content"):
			return false
		case c.Is("deny") && len(c.Args()) == 1 && c.Args()[0].Value == "all":
			return false
		}
	}
	// deny all further out applies too, unless the location allows.
	for _, b := range blocks[:len(blocks)-1] {
		for _, c := range p.Body(b) {
			if c.Is("deny") && len(c.Args()) == 1 && c.Args()[0].Value == "all" && p.InEffect(blocks[len(blocks)-1:], "allow") == nil {
				return false
			}
		}
	}
	return true
}

// locationChain returns the location directives from the server level
// down to loc (none for the server level itself).
func locationChain(loc *routing.Location) []*parser.Directive {
	var out []*parser.Directive
	for l := loc; l != nil && l.Directive != nil; l = l.Parent {
		out = append([]*parser.Directive{l.Directive}, out...)
	}
	return out
}

package routing

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/regex"
	"github.com/nginx-lint/nginx-lint/parser"
)

// Reader reads the locations of server blocks one at a time, as Model
// reads them, without the server selection: for the rules and the
// editor, which ask about one server's locations and would not pay for
// the address tables of every server. The servers it reads share their
// compiled regexes and values. A Reader is safe for use by several
// goroutines; the locations it returns are never changed.
type Reader struct {
	cfg     *parser.Config
	http    *level
	regexes regexCache
}

// NewReader returns a reader of the servers of m, below its http block.
func NewReader(m *parser.Model) *Reader {
	r := &Reader{cfg: m.Config, http: newLevel(nil, nil)}
	r.regexes.m, r.regexes.scripts = map[regexKey]*regex.Regex{}, map[regexKey]*Script{}
	if len(m.HTTP) > 0 && m.HTTP[0].Block != nil {
		b := &builder{c: m.Config, regexes: &r.regexes}
		r.http.block = m.HTTP[0]
		b.readLevel(r.http, m.HTTP[0].Block.Directives, nil, false)
	}
	return r
}

// Server returns the server level of a server block: Find on it
// selects a location for a URI, and its Server number is -1.
func (r *Reader) Server(block *parser.Directive) *Location {
	var dirs []*parser.Directive
	if block.Block != nil {
		dirs = block.Block.Directives
	}
	return r.read(block, dirs)
}

// Snippet returns the server level of directives read as a server's,
// such as the top level of a file of locations linted on its own.
func (r *Reader) Snippet(dirs []*parser.Directive) *Location { return r.read(nil, dirs) }

func (r *Reader) read(block *parser.Directive, dirs []*parser.Directive) *Location {
	b := &builder{c: r.cfg, server: -1, regexes: &r.regexes}
	return b.readServer(r.http, block, dirs).root
}

// Root returns the server level the location belongs to.
func (l *Location) Root() *Location {
	if l.srv == nil {
		return l
	}
	return l.srv.root
}

// NamedLocation returns the server's named location @name (name with
// its "@"), nil if it has none.
func (l *Location) NamedLocation(name string) *Location {
	if l.srv == nil {
		return nil
	}
	return l.srv.named[name]
}

// up returns the level whose search finds l: its enclosing location, or
// the server level.
func (l *Location) up() *Location {
	if l.Parent != nil {
		return l.Parent
	}
	if l.Directive == nil {
		return nil
	}
	return l.Root()
}

// Statics returns the exact and prefix locations nested in l, in the
// order of nginx's search tree (ngx_filename_cmp's).
func (l *Location) Statics() []*Location {
	var out []*Location
	var walk func(t *treeNode)
	walk = func(t *treeNode) {
		if t == nil {
			return
		}
		walk(t.left)
		if t.exact != nil {
			out = append(out, t.exact)
		}
		if t.inclusive != nil {
			out = append(out, t.inclusive)
		}
		walk(t.tree)
		walk(t.right)
	}
	walk(l.static)
	return out
}

// Regexes returns the regex locations nested in l, in the order nginx
// tries them (the order written).
func (l *Location) Regexes() []*Location { return l.regexes }

// HasNested says whether locations are nested in l.
func (l *Location) HasNested() bool { return l.static != nil || len(l.regexes) > 0 }

// AutoRedirect says that nginx answers a request for the location's
// path without its final slash with a 301 to the path (a prefix
// location ending in "/" with proxy_pass or another *_pass).
func (l *Location) AutoRedirect() bool { return l.conf.autoRedirect }

// Walk calls fn for l and every location nested in it, depth first,
// each level's exact and prefix locations before its regexes.
func (l *Location) Walk(fn func(*Location)) {
	fn(l)
	for _, x := range l.Statics() {
		x.Walk(fn)
	}
	for _, x := range l.regexes {
		x.Walk(fn)
	}
}

// RelativeURIs reports whether requests of the server (its block's
// directives, block nil: dirs) can reach the location search with a URI
// that does not start with "/": an internal rewrite whose replacement
// does not start with "/" (or starts with a variable), or a try_files
// whose last argument is such a URI (try_files $uri index.php).
func RelativeURIs(c *parser.Config, block *parser.Directive, dirs []*parser.Directive) bool {
	if block != nil && block.Block != nil {
		dirs = block.Block.Directives
	}
	return relativeIn(c, dirs)
}

func relativeIn(c *parser.Config, dirs []*parser.Directive) bool {
	for _, d := range dirs {
		switch d.Name().Value {
		case "include":
			if c != nil {
				for _, f := range c.Included(d) {
					if relativeIn(c, f.Directives) {
						return true
					}
				}
			}
		case "rewrite":
			if len(d.Args()) >= 2 && !(len(d.Args()) == 3 && (d.Args()[2].Value == "redirect" || d.Args()[2].Value == "permanent")) {
				r := d.Args()[1].Value
				redirect := strings.HasPrefix(r, "http://") || strings.HasPrefix(r, "https://") || strings.HasPrefix(r, "$scheme")
				if !redirect && !strings.HasPrefix(r, "/") {
					return true
				}
			}
		case "try_files":
			if len(d.Args()) >= 2 {
				last := d.Args()[len(d.Args())-1].Value
				if !strings.HasPrefix(last, "/") && !strings.HasPrefix(last, "@") && !strings.HasPrefix(last, "=") {
					return true
				}
			}
		}
		if d.Block != nil && relativeIn(c, d.Block.Directives) {
			return true
		}
	}
	return false
}

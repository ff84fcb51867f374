package routing

import (
	"io/fs"
	"os"
	"strings"
	"sync"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/regex"
	"github.com/nginx-lint/nginx-lint/parser"
)

// Model is what nginx does with http requests under one configuration:
// the server selection of Table, and for each server its locations as
// nginx arranges them, its rewrite programs, try_files, index and
// error_page, run for a request by Route.
//
// A server's locations are read the first time a request reaches it, so
// a model of a configuration with tens of thousands of servers is cheap
// to make when few of them are asked about. A Model is safe for use by
// several goroutines.
type Model struct {
	// Table is the server selection.
	Table *Table

	opts      Options
	cfg       *parser.Config
	http      *level
	maps      map[string]*mapDef
	setNames  map[string]bool
	upstreams map[string]*parser.Upstream

	servers []serverSlot
	regexes regexCache
	// slashesOff: some block says "merge_slashes off", so the request
	// set (Probes) also asks with doubled slashes.
	slashesOff bool
}

type serverSlot struct {
	once   sync.Once
	routes *serverRoutes
}

// serverRoutes is one server's request handling.
type serverRoutes struct {
	root  *Location
	named map[string]*Location
	// name is the server's first server_name ($server_name).
	name string
}

// Options are the facts about the machine nginx runs on that the model
// needs.
type Options struct {
	// Files is where try_files, index and the static handler look files
	// up (nil: this machine's disk). Only files under a root or alias
	// that names an existing directory are looked up; under any other,
	// every file is taken as missing and the answer says so.
	Files FileSystem
	// Roots maps a directory of the configuration (a root, an alias,
	// or any directory above them) to the directory on this machine that
	// holds its files, as "/var/www" → "./site/www".
	Roots map[string]string
	// Prefix is nginx's prefix, which a relative root or alias is
	// relative to (default "/usr/share/nginx/", Debian's).
	Prefix string
	// NoFiles takes every file as missing without looking.
	NoFiles bool
}

// FileSystem answers whether a path exists and what it is.
type FileSystem interface {
	Stat(path string) (fs.FileInfo, error)
}

type osFS struct{}

func (osFS) Stat(path string) (fs.FileInfo, error) { return os.Stat(path) }

// DefaultPrefix is the prefix of Debian's nginx, where a relative root
// such as nginx's default "html" resolves.
const DefaultPrefix = "/usr/share/nginx/"

// New makes the request model of the http servers of m, with the
// listens grouped as res (the cost model of m) groups them.
func New(m *parser.Model, res *costmodel.Result, o Options) *Model {
	return NewWithTable(m, Build(m, res), o)
}

// NewWithTable is New with the server selection already built.
func NewWithTable(m *parser.Model, t *Table, o Options) *Model {
	if o.Files == nil {
		o.Files = osFS{}
	}
	if o.Prefix == "" {
		o.Prefix = DefaultPrefix
	}
	if !strings.HasSuffix(o.Prefix, "/") {
		o.Prefix += "/"
	}
	md := &Model{Table: t, opts: o, cfg: m.Config, servers: make([]serverSlot, len(t.Servers)),
		maps: map[string]*mapDef{}, setNames: map[string]bool{}, upstreams: map[string]*parser.Upstream{}}
	md.regexes.m, md.regexes.scripts = map[regexKey]*regex.Regex{}, map[regexKey]*Script{}
	md.http = newLevel(nil, nil)
	b := &builder{c: m.Config, regexes: &md.regexes}
	if len(m.HTTP) > 0 && m.HTTP[0].Block != nil {
		h := m.HTTP[0]
		md.http.block = h
		b.readLevel(md.http, h.Block.Directives, nil, false)
		md.readHTTP(h.Block.Directives)
	}
	for _, u := range m.Upstreams {
		if u.Protocol == parser.HTTP {
			if _, dup := md.upstreams[strings.ToLower(u.Name)]; !dup {
				md.upstreams[strings.ToLower(u.Name)] = u
			}
		}
	}
	// The variables set and the regexes' named groups define: before
	// a set runs or a regex matches, such a variable is empty, not
	// unknown.
	if m.Config != nil {
		m.Config.Walk(func(d *parser.Directive, stack []*parser.Directive) bool {
			switch d.Name().Value {
			case "merge_slashes":
				if flag(d) == off {
					md.slashesOff = true
				}
			case "set":
				// $args is the query string, whoever sets it.
				if len(d.Args()) == 2 && strings.HasPrefix(d.Args()[0].Value, "$") && !strings.EqualFold(d.Args()[0].Value, "$args") {
					md.setNames[strings.ToLower(d.Args()[0].Value[1:])] = true
				}
			case "location", "rewrite", "if", "server_name", "map":
				for _, a := range d.Args() {
					if strings.Contains(a.Value, "(?") {
						regex.NamedGroups(a.Value, func(name string, _ int) { md.setNames[strings.ToLower(name)] = true })
					}
				}
			}
			if d.Name().Value == "map" && d.Block != nil {
				for _, e := range d.Block.Directives {
					if strings.HasPrefix(e.Name().Value, "~") {
						regex.NamedGroups(e.Name().Value, func(name string, _ int) { md.setNames[strings.ToLower(name)] = true })
					}
				}
				return false
			}
			switch d.Name().Value {
			case "http", "server", "location", "if", "include":
				return true
			}
			return false
		})
	}
	return md
}

// readHTTP reads the http block's maps.
func (m *Model) readHTTP(dirs []*parser.Directive) {
	eachDirective(m.cfg, dirs, func(d *parser.Directive) {
		if d.Name().Value == "map" && d.Block != nil && len(d.Args()) == 2 {
			if md := readMap(m.cfg, d); md != nil {
				if _, dup := m.maps[md.name]; !dup {
					m.maps[md.name] = md
				}
			}
		}
	})
}

// server returns server n's routes, read on first use.
func (m *Model) server(n int) *serverRoutes {
	s := &m.servers[n]
	s.once.Do(func() { s.routes = m.buildServer(n) })
	return s.routes
}

// Locations returns the server level of server n: Find on it selects a
// location for a URI.
func (m *Model) Locations(n int) *Location { return m.server(n).root }

// Named returns server n's named location @name (name with its "@"),
// nil if it has none.
func (m *Model) Named(n int, name string) *Location { return m.server(n).named[name] }

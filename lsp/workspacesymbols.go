package lsp

import (
	"context"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// This file holds workspace symbols: the servers (by each of their
// names), upstreams, named locations and maps of every configuration
// file in the workspace folders and of every open document. Each file is
// read on its own (a name is defined where it is written, whatever
// includes the file), and its symbols are kept until its text changes.

// Bounds of the walk of a workspace folder: a folder that is a home
// directory or a monorepo is not read whole for a query.
const (
	maxWorkspaceFiles = 5000  // configuration files read
	maxWorkspaceWalk  = 50000 // directory entries looked at
	// maxWorkspaceSymbols is the most symbols one answer holds.
	maxWorkspaceSymbols = 1000
)

// workspaceSymbolCache keeps the symbols of the files read, by path.
type workspaceSymbolCache struct {
	mu    sync.Mutex
	files map[string]*fileSymbols
}

// fileSymbols are the symbols of one text of a file.
type fileSymbols struct {
	src  string
	syms []protocol.SymbolInformation
}

// symbolsOf returns the symbols of the file at path with text src, from
// the cache when the text is the same.
func (c *workspaceSymbolCache) symbolsOf(path string, src []byte) []protocol.SymbolInformation {
	c.mu.Lock()
	if c.files == nil {
		c.files = map[string]*fileSymbols{}
	}
	if known := c.files[path]; known != nil && known.src == string(src) {
		c.mu.Unlock()
		return known.syms
	}
	c.mu.Unlock()
	f := parser.ParseFile(path, src, &parser.Options{Kinds: analyzer.Kinds})
	syms := fileSymbolList(f, pathToURI(path))
	c.mu.Lock()
	c.files[path] = &fileSymbols{src: f.Src, syms: syms}
	c.mu.Unlock()
	return syms
}

// fileSymbolList lists the symbols a file defines: each name of a
// server, each upstream, named location and map (by the variable it
// sets), with the block they are in as their container.
func fileSymbolList(f *parser.File, uri protocol.DocumentUri) []protocol.SymbolInformation {
	var out []protocol.SymbolInformation
	add := func(name string, kind protocol.SymbolKind, r parser.Range, container string) {
		out = append(out, protocol.SymbolInformation{Name: name, Kind: kind,
			Location: protocol.Location{URI: uri, Range: rangeOf(f, r)}, ContainerName: &container})
	}
	var walk func(dirs []*parser.Directive, container string)
	walk = func(dirs []*parser.Directive, container string) {
		for _, d := range dirs {
			if d.Block == nil {
				continue
			}
			inner := container
			switch name := d.Name().Value; {
			case name == "server" && len(d.Args()) == 0:
				var names []parser.Word
				listen := ""
				for _, c := range d.Block.Directives {
					switch {
					case c.Name().Value == "server_name":
						names = append(names, c.Args()...)
					case c.Name().Value == "listen" && len(c.Args()) > 0 && listen == "":
						listen = c.Args()[0].Value
					}
				}
				label := ""
				for _, n := range names {
					if n.Value != "" {
						add(n.Value, protocol.SymbolKindClass, n.Range, "server")
						label = cmpOr(label, n.Value)
					}
				}
				if label == "" && listen != "" {
					label = "listen " + listen
					add("server "+listen, protocol.SymbolKindClass, d.Name().Range, "server")
				}
				inner = "server " + label
			case name == "upstream" && len(d.Args()) == 1:
				add(d.Args()[0].Value, protocol.SymbolKindStruct, d.Args()[0].Range, "upstream")
				inner = "upstream " + d.Args()[0].Value
			case name == "location" && len(d.Args()) == 1 && strings.HasPrefix(d.Args()[0].Value, "@"):
				add(d.Args()[0].Value, protocol.SymbolKindMethod, d.Args()[0].Range, container)
			case name == "map" && len(d.Args()) == 2:
				add(d.Args()[1].Value, protocol.SymbolKindVariable, d.Args()[1].Range, "map "+d.Args()[0].Value)
				continue // its lines are data
			}
			if !directives.FreeFormBlock(d.Name().Value) {
				walk(d.Block.Directives, inner)
			}
		}
	}
	walk(f.Directives, "")
	return out
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// workspaceSymbol answers workspace/symbol: the symbols whose name
// matches the query (its characters in order, ignoring case), best
// matches first: the name itself, then a prefix, a part, the characters
// spread out.
func (s *Server) workspaceSymbol(ctx context.Context, p *protocol.WorkspaceSymbolParams) ([]protocol.SymbolInformation, error) {
	s.mu.Lock()
	roots := append([]string(nil), s.roots...)
	open := map[string][]byte{}
	for _, d := range s.docs {
		if src := d.srcLocked(); src != nil {
			open[d.path] = src
		}
	}
	s.mu.Unlock()
	paths := workspaceFiles(ctx, roots)
	for p := range open {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	q := strings.ToLower(p.Query)
	type hit struct {
		sym   protocol.SymbolInformation
		score int
	}
	var hits []hit
	seen := map[string]bool{}
	for _, path := range paths {
		if seen[path] {
			continue
		}
		seen[path] = true
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		src, ok := open[path]
		if !ok {
			b, err := s.base().ReadFile(path)
			if err != nil || len(b) > MaxDocumentSize {
				continue
			}
			src = b
		}
		for _, sym := range s.wsyms.symbolsOf(path, src) {
			if score, ok := matchScore(strings.ToLower(sym.Name), q); ok {
				hits = append(hits, hit{sym, score})
			}
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].score != hits[j].score {
			return hits[i].score < hits[j].score
		}
		return hits[i].sym.Name < hits[j].sym.Name
	})
	out := make([]protocol.SymbolInformation, 0, min(len(hits), maxWorkspaceSymbols))
	for _, h := range hits[:min(len(hits), maxWorkspaceSymbols)] {
		out = append(out, h.sym)
	}
	return out, nil
}

// matchScore says how well name (lower case) matches query (lower
// case): 0 equal, 1 a prefix, 2 a part, 3 the characters in order; ok is
// false for no match. An empty query matches everything.
func matchScore(name, query string) (int, bool) {
	switch {
	case name == query:
		return 0, true
	case strings.HasPrefix(name, query), strings.HasPrefix(strings.TrimLeft(name, "$@"), query):
		return 1, true
	case strings.Contains(name, query):
		return 2, true
	}
	i := 0
	for j := 0; j < len(name) && i < len(query); j++ {
		if name[j] == query[i] {
			i++
		}
	}
	return 3, i == len(query)
}

// workspaceFiles lists the configuration files under the roots as
// nginx-lint DIR finds them (*.conf, and every file of sites-enabled and
// sites-available; no dot files or directories), within the walk's
// bounds.
func workspaceFiles(ctx context.Context, roots []string) []string {
	var out []string
	walked := 0
	for _, root := range roots {
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			walked++
			switch {
			case walked > maxWorkspaceWalk || len(out) >= maxWorkspaceFiles || ctx.Err() != nil:
				return filepath.SkipAll
			case err != nil:
				return nil // unreadable: left out (WalkDir skips an unreadable directory)
			}
			name := d.Name()
			if path != root && (strings.HasPrefix(name, ".") || d.IsDir() && name == "node_modules") {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.IsDir() || !d.Type().IsRegular() {
				return nil
			}
			dir := filepath.Base(filepath.Dir(path))
			if strings.HasSuffix(name, ".conf") || dir == "sites-enabled" || dir == "sites-available" {
				out = append(out, path)
			}
			return nil
		})
	}
	return out
}

package analyzer

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// Kinds answers the parser's questions about directive names from the
// directive tables.
var Kinds parser.DirectiveKinds = tableKinds{}

type tableKinds struct{}

// Root implements parser.DirectiveKinds.
func (tableKinds) Root(ancestors []string) parser.BlockContext {
	ctx, ok := ContextOf(ancestors)
	if !ok {
		return 0
	}
	return parser.BlockContext(ctx)
}

// Child implements parser.DirectiveKinds.
func (tableKinds) Child(parent parser.BlockContext, name string) parser.BlockContext {
	ctx, ok := directives.ChildContext(name, directives.Context(parent))
	if !ok {
		return 0
	}
	return parser.BlockContext(ctx)
}

// BlockKind implements parser.DirectiveKinds. A name counts as known only
// when its row comes from nginx's source (docs-only rows describe NGINX
// Plus and modules a stock build lacks; nginx would call them unknown).
func (tableKinds) BlockKind(ctx parser.BlockContext, name string) (block, known bool) {
	return directives.BlockKind(name, directives.Context(ctx))
}

// ModuleBlockKind implements parser.ModuleKinds: BlockKind, also for the
// directives of the third-party modules the tables read from their
// sources.
func (tableKinds) ModuleBlockKind(ctx parser.BlockContext, name string) (block, known bool) {
	if block, known := directives.BlockKind(name, directives.Context(ctx)); known {
		return block, true
	}
	if d := directives.InContext(name, directives.Context(ctx)); d != nil && d.ArgsKnown && d.ThirdParty {
		return d.Block, true
	}
	return false, false
}

// Fits implements parser.DirectiveKinds.
func (tableKinds) Fits(ctx parser.BlockContext, name string, args []parser.Word) bool {
	d := directives.InContext(name, directives.Context(ctx))
	if d == nil || !d.ArgsKnown || !d.Args.Accepts(len(args)) {
		return false
	}
	if d.Args.IsFlag() && len(args) == 1 {
		v := strings.ToLower(args[0].Value)
		return v == "on" || v == "off"
	}
	return true
}

// ContextOf returns the context of a block reached through the named
// blocks, outermost first: ContextOf(["http", "server"]) is Server. ok is
// false inside a block whose body the tables do not describe.
func ContextOf(ancestors []string) (directives.Context, bool) {
	ctx := directives.Main
	for _, name := range ancestors {
		next, ok := directives.ChildContext(name, ctx)
		if !ok {
			return 0, false
		}
		ctx = next
	}
	return ctx, true
}

// fragmentContexts are the places a fragment may be included in, in the
// order inference prefers them.
var fragmentContexts = []struct {
	Name      string
	Ancestors []string
}{
	{"main", nil},
	{"http", []string{"http"}},
	{"server", []string{"http", "server"}},
	{"location", []string{"http", "server", "location"}},
	{"upstream", []string{"http", "upstream"}},
	{"stream", []string{"stream"}},
	{"stream-server", []string{"stream", "server"}},
	{"stream-upstream", []string{"stream", "upstream"}},
	{"mail", []string{"mail"}},
	{"mail-server", []string{"mail", "server"}},
	{"events", []string{"events"}},
}

// ContextNames lists the values the --context option accepts.
func ContextNames() []string {
	out := make([]string, len(fragmentContexts))
	for i, c := range fragmentContexts {
		out[i] = c.Name
	}
	return out
}

// ContextAncestors returns the enclosing block names for a --context value.
func ContextAncestors(name string) ([]string, bool) {
	for _, c := range fragmentContexts {
		if c.Name == name {
			return c.Ancestors, true
		}
	}
	return nil, false
}

// LoadInferred loads src like Loader.LoadSource, in the context inferred
// from its top-level directives (see InferContext). A main configuration is
// parsed once; only a fragment is parsed a second time, in its context.
func LoadInferred(l *parser.Loader, path string, src []byte) *parser.Config {
	f := l.Parse(path, src, nil)
	_, ancestors := InferContext(f)
	if len(ancestors) == 0 && includesOnly(f.Directives) {
		// include is allowed everywhere, so a file of includes alone
		// (h5bp's basic.conf) says nothing: the files it includes do.
		ancestors = inferThroughIncludes(l, path, f)
	}
	return l.LoadSource(path, src, ancestors)
}

// includesOnly reports whether dirs are include directives, one or more.
func includesOnly(dirs []*parser.Directive) bool {
	for _, d := range dirs {
		if !d.Is("include") {
			return false
		}
	}
	return len(dirs) > 0
}

// inferThroughIncludes infers the context of a file of includes from the
// top-level directives of the files they name (relative to the loader's
// prefix, else the file's directory; globs expanded), one level deep.
func inferThroughIncludes(l *parser.Loader, path string, f *parser.File) []string {
	prefix := l.Prefix
	if prefix == "" {
		prefix = filepath.Dir(path)
	}
	merged := &parser.File{Path: path}
	for _, d := range f.Directives {
		if len(d.Args()) != 1 {
			continue
		}
		name := d.Args()[0].Value
		if !filepath.IsAbs(name) {
			name = filepath.Join(prefix, name)
		}
		paths := []string{name}
		if strings.ContainsAny(name, "*?[") {
			fsys := l.FS
			if fsys == nil {
				fsys = parser.OSFS{}
			}
			paths, _ = fsys.Glob(name)
		}
		for _, p := range paths {
			if p == path {
				continue
			}
			if src, err := l.ReadFile(p); err == nil {
				merged.Directives = append(merged.Directives, l.Parse(p, src, nil).Directives...)
			}
		}
	}
	if includesOnly(merged.Directives) || len(merged.Directives) == 0 {
		return nil
	}
	_, ancestors := InferContext(merged)
	return ancestors
}

// InferContext guesses where a file is meant to be included from its
// top-level directives: the first context (main, http, server, location,
// ...) that allows all of them, or failing that the one that allows most.
// Names the tables do not know do not vote. It returns the context's name
// and the enclosing block names to parse the file in.
func InferContext(f *parser.File) (string, []string) {
	best, bestScore := 0, -1
	for i, c := range fragmentContexts {
		ctx, _ := ContextOf(c.Ancestors)
		score, total := 0, 0
		for _, d := range f.Directives {
			if len(directives.Lookup(d.Name().Value)) == 0 {
				continue
			}
			total++
			if row := directives.InContext(d.Name().Value, ctx); row != nil && (!row.Contexts.Has(directives.Any) || row.Contexts.Has(ctx)) {
				score++
			}
		}
		if score == total {
			return c.Name, c.Ancestors
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return fragmentContexts[best].Name, fragmentContexts[best].Ancestors
}

// ArgCountError returns nginx's "invalid number of arguments" message for d
// in a block of context ctx (as Kinds numbers it), or "" when the count is
// acceptable or the directive is unknown there.
func ArgCountError(d *parser.Directive, ctx parser.BlockContext) string {
	if ctx == 0 || d.RawBlock() {
		return ""
	}
	row := directives.InContext(d.Name().Value, directives.Context(ctx))
	if row == nil || !row.ArgsKnown || row.Args.Accepts(len(d.Args())) {
		return ""
	}
	return fmt.Sprintf("invalid number of arguments in %q directive", d.Name().Value)
}

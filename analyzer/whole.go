package analyzer

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/nginx-lint/nginx-lint/parser"
)

// WholeConfig reports whether the pass sees the whole configuration: a
// main file (not a fragment, whose includer may define what it uses)
// whose includes were all found. The rules that look for a definition
// anywhere in the configuration (a variable, a zone, a log format, a
// certificate) stay quiet otherwise, since the missing part may hold it.
// An include glob that matched nothing counts as missing when its
// directory does not exist either: a checkout of /etc/nginx/nginx.conf
// without its conf.d, say; so does a file only the deployment host has
// (Config.Elsewhere: Debian's modules-enabled links).
func (p *Pass) WholeConfig() bool { return wholeConfig.Get(p, struct{}{}) }

var wholeConfig = &Result[struct{}, bool]{
	Name:    "whole configuration",
	Compute: func(p *Pass, _ struct{}) bool { return isWholeConfig(p) },
}

func isWholeConfig(p *Pass) bool {
	c := p.Config
	if len(c.Context) > 0 || len(c.Elsewhere) > 0 {
		return false // a fragment, or files only the deployment host has
	}
	for _, d := range c.Diagnostics {
		if d.Name == parser.NameIncludeNotFound || d.Name == parser.NameUnreadable || d.Name == parser.NameIncludeCycle {
			return false
		}
	}
	ix := p.Index()
	for _, i := range ix.Named("include") {
		d := ix.Entries[i].Directive
		if len(d.Args()) != 1 || len(c.Included(d)) > 0 || !strings.ContainsAny(d.Args()[0].Value, "*?[") {
			continue
		}
		if !p.GlobDirExists(d.Args()[0].Value) {
			return false
		}
	}
	return true
}

// GlobDirExists reports whether the directory of an include glob exists
// as the loader sees it: through include-paths and a mirrored tree
// (Pass.Glob), not this machine's.
func (p *Pass) GlobDirExists(pattern string) bool {
	dir := filepath.Dir(pattern)
	if !filepath.IsAbs(dir) {
		prefix := p.Config.Prefix
		if prefix == "" && p.Config.Main != nil {
			prefix = filepath.Dir(p.Config.Main.Path)
		}
		dir = filepath.Join(prefix, dir)
	}
	if p.Glob != nil {
		m, err := p.Glob(dir)
		return err == nil && len(m) > 0
	}
	_, err := os.Stat(dir)
	return err == nil
}

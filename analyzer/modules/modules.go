package modules

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/buildinfo"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// Loaded is what a configuration's load_module lines load. With the
// target build, it decides which modules a configuration has: nginx knows
// a directive or a variable only when its module is compiled in, or is a
// shared object that a load_module loads.
type Loaded struct {
	// loaded holds the base names of the loaded objects, without ".so".
	loaded map[string]bool
	// Unknown are the load_module lines of objects no table knows: a
	// module nginx-lint does not know may define any unknown name.
	Unknown []*parser.Directive
	// Complete is whether every load_module is seen: a main
	// configuration whose main-context includes were all found
	// (modules-enabled/). An include in http, stream or deeper cannot
	// load a module: nginx takes load_module only in the main context.
	Complete bool
	// Open is the first main-context include that found no file here,
	// when the configuration is a main one: what may load a module this
	// machine does not show.
	Open *parser.Directive
}

var loadedResult = &analyzer.Result[struct{}, *Loaded]{
	Name:    "loaded modules",
	Compute: func(p *analyzer.Pass, _ struct{}) *Loaded { return collect(p) },
}

// Of returns what the configuration of the pass loads, read once per run.
func Of(p *analyzer.Pass) *Loaded { return loadedResult.Get(p, struct{}{}) }

func collect(p *analyzer.Pass) *Loaded {
	mf := &Loaded{loaded: map[string]bool{}}
	mf.Complete, mf.Open = mainIncludesFound(p)
	ix := p.Index()
	for _, i := range ix.Named("load_module") {
		d := ix.Entries[i].Directive
		if len(d.Args()) != 1 || ix.Entries[i].Context() != directives.Main {
			continue
		}
		name := strings.TrimSuffix(path.Base(d.Args()[0].Value), ".so")
		mf.loaded[name] = true
		if !directives.KnownModule(name) {
			mf.Unknown = append(mf.Unknown, d)
		}
	}
	return mf
}

// mainIncludesFound reports whether every include of the main context
// found its files, and otherwise the first that did not. A fragment (linted
// with a context) is never complete: its main configuration is not seen.
func mainIncludesFound(p *analyzer.Pass) (bool, *parser.Directive) {
	c := p.Config
	if len(c.Context) > 0 {
		return false, nil
	}
	ix := p.Index()
	for _, i := range ix.Named("include") {
		e := ix.Entries[i]
		d := e.Directive
		if e.Context() != directives.Main || len(d.Args()) != 1 || len(c.Included(d)) > 0 {
			continue
		}
		if strings.ContainsAny(d.Args()[0].Value, "*?[") && p.GlobDirExists(d.Args()[0].Value) {
			continue // a glob over a directory that is there and holds no match
		}
		return false, d
	}
	return true, nil
}

// IsLoaded reports whether a load_module loads module's object: the one
// the build puts it in when the build is named (njs's stream module is not
// in ngx_stream_module.so), else any of the names its object can have.
func (mf *Loaded) IsLoaded(t *analyzer.Target, module string, thirdParty bool) bool {
	if obj, ok := t.Dynamic[module]; ok && !thirdParty {
		for _, n := range buildinfo.ObjectNames(obj) {
			if mf.loaded[n] && (n == obj || !isGroupObject(n)) {
				return true
			}
		}
		return false
	}
	for _, n := range buildinfo.ObjectNames(module) {
		group := n != module && isGroupObject(n)
		if mf.loaded[n] && !(group && (thirdParty || t.Modules != nil)) {
			return true
		}
	}
	return false
}

// Absence says why a module is absent from the configuration linted for
// a target: lacking from the build, or a shared object nothing loads.
type Absence struct {
	NotLoaded bool   // the build may have it, but no load_module loads it
	Why       string // for the finding's detail
}

// Missing says why module is absent from the configuration linted for
// target, nil when it is (or may be) present. thirdParty marks a module
// outside nginx's source, which only an --add-module build or a
// load_module brings.
func (mf *Loaded) Missing(t *analyzer.Target, module string, thirdParty bool) *Absence {
	// The cheap cases first: this runs for every directive of a
	// configuration when a build is named.
	switch {
	case t == nil || t.Modules == nil:
		// No build named: any module may be compiled in (OpenResty
		// builds lua and friends in statically).
		return nil
	case thirdParty:
		if t.Modules[module] || !mf.Complete || mf.IsLoaded(t, module, true) {
			return nil
		}
		return &Absence{true, module + " is neither compiled into this nginx (nginx -V) nor loaded with load_module"}
	case !t.Modules[module]:
		return &Absence{false, module + " is not in this nginx build (nginx -V)"}
	case t.Dynamic[module] == "" || !mf.Complete || mf.IsLoaded(t, module, false):
		return nil
	}
	return &Absence{true, module + " is a shared object in this nginx build, and no load_module loads it"}
}

// StrictMissing is Missing as if every load_module were seen: why module
// is absent unless the main-context include that finds no file here
// loads it; nil when it is present regardless, or when the configuration
// is a fragment (its main configuration is not seen at all).
func (mf *Loaded) StrictMissing(t *analyzer.Target, module string, thirdParty bool) *Absence {
	if mf.Complete || mf.Open == nil {
		return nil
	}
	strict := *mf
	strict.Complete = true
	return strict.Missing(t, module, thirdParty)
}

// UnknownModuleSays returns, when a module nginx-lint does not know may be
// present, what says so: a load_module line, or the build's third-party
// modules; "" when none can be.
func (mf *Loaded) UnknownModuleSays(p *analyzer.Pass) string {
	if len(mf.Unknown) > 0 {
		d := mf.Unknown[0]
		return fmt.Sprintf("the module loaded at %s:%d (%s)", filepath.Base(d.File.Path), d.Line(), path.Base(d.Args()[0].Value))
	}
	if t := p.Target; t != nil && len(t.Unrecognized) > 0 {
		return "the third-party module " + t.Unrecognized[0] + " of this build"
	}
	return ""
}

// isGroupObject reports whether name is the object of a dynamic group of
// modules (ngx_stream_module.so holds the build's stream modules).
func isGroupObject(name string) bool { return name == "ngx_stream_module" || name == "ngx_mail_module" }

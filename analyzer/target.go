package analyzer

import (
	"fmt"

	"github.com/nginx-lint/nginx-lint/analyzer/buildinfo"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
)

// Target is the nginx build a run lints for: what "--nginx-build" or
// "--nginx" describe. Rules whose verdict depends on the version or on the
// modules compiled in read it from Pass.Target.
type Target struct {
	// Version is the open-source nginx version ("1.22.1"). Empty means no
	// build was named: the newest release the tables know
	// (directives.NginxVersion), and findings that depend on the version
	// say from which version they hold.
	Version string
	// Modules is the set of modules compiled in (ngx_http_ssl_module, ...);
	// nil means every module.
	Modules map[string]bool
	// Configure are the build's configure arguments ("--with-threads"),
	// for features that are no module; nil when unknown.
	Configure []string
	// Dynamic maps the modules of Modules built as shared objects to the
	// object that holds each (its base name without ".so"): a
	// configuration has them only where a load_module loads that object.
	// Nil when unknown.
	Dynamic map[string]string
	// Unrecognized are the build's third-party modules nginx-lint does
	// not know (their --add-module paths): they may define any name.
	Unrecognized []string
}

// Built reports whether the build was configured with flag
// ("--with-file-aio"); true when the configure arguments are unknown.
func (t *Target) Built(flag string) bool {
	if t == nil || t.Configure == nil {
		return true
	}
	for _, a := range t.Configure {
		if a == flag {
			return true
		}
	}
	return false
}

// Known reports whether a build was named (as opposed to the default
// newest nginx with every module).
func (t *Target) Known() bool { return t != nil && t.Version != "" }

// NginxVersion returns the targeted version, the newest known one when no
// build was named.
func (t *Target) NginxVersion() string {
	if t == nil || t.Version == "" {
		return directives.NginxVersion
	}
	return t.Version
}

// NamedVersion returns the version named, "" when none was: the form
// the engines below the rules take a release in (valuecheck,
// directives.ValueSpec.For: "" for the newest). A rule's own questions
// about the version are AtLeast and Lacks.
func (t *Target) NamedVersion() string {
	if t == nil {
		return ""
	}
	return t.Version
}

// Label names the nginx a run lints for, as a finding whose verdict or
// fix depends on the version records it (parser.Diagnostic.Target):
// "nginx 1.22.1", or with no target named "nginx 1.31.5 (newest; no
// target named)".
func (t *Target) Label() string {
	if t.Known() {
		return "nginx " + t.Version
	}
	return "nginx " + t.NginxVersion() + " (newest; no target named)"
}

// AtLeast reports whether the targeted version is v or later. With no
// build named it compares the newest nginx the tables know, the default
// target.
func (t *Target) AtLeast(v string) bool {
	return directives.CompareVersions(t.NginxVersion(), v) >= 0
}

// Lacks reports whether a named target predates since, the release that
// brought a feature: false with no target named (the newest nginx lacks
// nothing the tables know) and when since is "" (no record of when).
// Rules ask it of whatever has a "since" (a directive, a parameter, a
// variable, a context); AtLeast is for a version the rule itself names.
func (t *Target) Lacks(since string) bool {
	return t.Known() && since != "" && directives.CompareVersions(t.Version, since) < 0
}

// HasModule reports whether module is compiled in; true when the modules
// are unknown.
func (t *Target) HasModule(module string) bool {
	if t == nil || t.Modules == nil {
		return true
	}
	return t.Modules[module]
}

// BuildTarget is the target an "nginx -V" describes: its modules and
// configure arguments, and its version when it is open-source nginx (the
// version of openresty or freenginx says nothing about nginx's).
func BuildTarget(info *buildinfo.Info) *Target {
	t := &Target{Modules: info.Modules(), Configure: info.Args, Dynamic: info.DynamicModules(), Unrecognized: info.UnrecognizedThirdParty()}
	if t.Configure == nil {
		t.Configure = []string{}
	}
	if info.Variant == "nginx" {
		t.Version = info.Version
	}
	return t
}

// TargetChoice is what one place says about the nginx to lint for: the
// command line or an editor's settings (--nginx-build, --nginx,
// --nginx-version), or the settings file (nginx-build, nginx-version).
type TargetChoice struct {
	// Build is a build already read (--nginx asks the binary).
	Build *buildinfo.Info
	// BuildFile is saved "nginx -V" output, read when Build is nil.
	BuildFile string
	// Version is a version alone, every module possible.
	Version string
	// Where names the place in an error about BuildFile
	// ("nginx-build", ".nginx-lint.yaml: nginx-build").
	Where string
}

// ResolveTarget returns the nginx a run lints for, by the order
// docs/target-and-fixes.md gives: the first choice that names a build or
// a version wins (the command line's is given before the settings'), and
// within one choice a build wins over a version. nil, when none names
// one, is the newest nginx with every module. read reads a BuildFile;
// only the build chosen is read. A build that cannot be read is the
// error returned, and the order goes on past it (to the version beside
// it, then the next choice), so a front end that tolerates broken
// settings still gets the target the rest of them name.
func ResolveTarget(read func(path string) (*buildinfo.Info, error), choices ...TargetChoice) (*Target, error) {
	var first error
	for _, c := range choices {
		build := c.Build
		if build == nil && c.BuildFile != "" {
			b, err := read(c.BuildFile)
			if err != nil {
				if first == nil {
					first = fmt.Errorf("%s: %w", c.Where, err)
				}
			} else {
				build = b
			}
		}
		switch {
		case build != nil:
			return BuildTarget(build), first
		case c.Version != "":
			return &Target{Version: c.Version}, first
		}
	}
	return nil, first
}

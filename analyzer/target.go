package analyzer

import (
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
// build named it is true: the default target is the newest nginx.
func (t *Target) AtLeast(v string) bool {
	return CompareVersions(t.NginxVersion(), v) >= 0
}

// HasModule reports whether module is compiled in; true when the modules
// are unknown.
func (t *Target) HasModule(module string) bool {
	if t == nil || t.Modules == nil {
		return true
	}
	return t.Modules[module]
}

// CompareVersions compares dotted numeric versions ("1.25.1"), returning
// -1, 0 or 1.
func CompareVersions(a, b string) int { return directives.CompareVersions(a, b) }

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

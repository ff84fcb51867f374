package main

import (
	"regexp"
	"runtime/debug"
	"strings"
)

// versionInfo is what a binary knows about its own version: the module
// version the go command recorded (a release tag, a pseudo-version with
// the commit, or "(devel)"), and the VCS stamp of a build from a clone.
type versionInfo struct {
	Version  string // "v1.2.3", "v0.0.0-20261203081147-a7c2d0d3c9a5", "(devel)"
	Revision string // the commit, when the build was stamped
	Modified bool   // the work tree had uncommitted changes
}

// currentVersion reads this binary's build information; a version set at
// link time (-X main.version=...) wins over the module version.
func currentVersion() versionInfo {
	bi, _ := debug.ReadBuildInfo()
	return versionOf(bi, version)
}

func versionOf(bi *debug.BuildInfo, linked string) versionInfo {
	v := versionInfo{Version: "(devel)"}
	if bi != nil {
		if bi.Main.Version != "" {
			v.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				v.Revision = s.Value
			case "vcs.modified":
				v.Modified = s.Value == "true"
			}
		}
	}
	if linked != "" {
		v.Version = linked
	}
	return v
}

// String is the version alone, as the language server and SARIF's
// tool.driver.version report it.
func (v versionInfo) String() string { return v.Version }

// Line is what --version prints: "nginx-lint v1.2.3", with the revision
// when the build recorded one ("nginx-lint (devel) revision a7c2d0d...,
// modified" for a build from a clone).
func (v versionInfo) Line() string {
	s := "nginx-lint " + v.Version
	if v.Revision != "" {
		s += " revision " + v.Revision
		if v.Modified {
			s += ", modified"
		}
	}
	return s
}

// semverPattern is Semantic Versioning 2.0.0 (https://semver.org).
var semverPattern = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)` +
	`(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?` +
	`(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`)

// Semantic is the version as SemVer 2.0 for SARIF's semanticVersion: a
// Go module version without its "v"; a development build is
// 0.0.0-devel, with the revision as build metadata when known.
func (v versionInfo) Semantic() string {
	if s := strings.TrimPrefix(v.Version, "v"); semverPattern.MatchString(s) {
		return s
	}
	s := "0.0.0-devel"
	if v.Revision != "" {
		s += "+" + v.Revision
		if v.Modified {
			s += ".modified"
		}
	}
	return s
}

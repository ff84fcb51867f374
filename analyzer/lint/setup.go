package lint

import (
	"errors"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/buildinfo"
	"github.com/nginx-lint/nginx-lint/analyzer/config"
	"github.com/nginx-lint/nginx-lint/parser"
)

// This file holds the steps between "which settings apply" and "run the
// rules": the Workspace takes them for every front end (the command
// line, the language server), so an editor and CI never disagree on a
// file.

// SettingsOptions returns the analyzer options a settings file gives
// (cfg may be nil: every rule at its default). The maps are non-nil, so a
// caller can layer its own switches (flags) on top.
func SettingsOptions(reg *analyzer.Registry, cfg *config.File) (analyzer.Options, error) {
	opts := analyzer.Options{Disabled: map[string]bool{}, Severity: map[string]parser.Severity{}, RuleOptions: map[string]map[string]any{}}
	if cfg != nil {
		if err := cfg.Apply(&opts, reg.Lookup); err != nil {
			var ur *config.UnknownRuleError
			if errors.As(err, &ur) {
				ur.Suggestions = reg.Suggest(ur.Key)
			}
			return opts, err
		}
	}
	return opts, nil
}

// FileSystem returns the file system a configuration is read through:
// base, with the settings' include-paths map applied when there is one
// (absolute include paths under a mapped prefix are read from where the
// files are checked out). Rules read files through the same one.
func FileSystem(base parser.FileSystem, cfg *config.File) parser.FileSystem {
	if cfg == nil || len(cfg.IncludePaths) == 0 {
		return base
	}
	return config.FS{Base: base, File: cfg}
}

// localizePaths renames the files the loader read through include-paths
// to where they are here, so findings point at files the user can open.
// Files cut from an nginx -T dump have no local copy and keep their
// names. A file already renamed (a cached tree loaded again) is left
// alone, so trees shared between loads are not written twice.
func localizePaths(c *parser.Config, cfg *config.File) {
	if cfg == nil || len(cfg.IncludePaths) == 0 {
		return
	}
	for _, f := range c.Files {
		if f.FromDump != "" {
			continue
		}
		if local, ok := cfg.MapPath(f.Path); ok && local != f.Path {
			f.Path = local
		}
	}
}

// ReadBuild reads a saved "nginx -V" output (the settings file's
// nginx-build) through fsys (nil: parser.OSFS, the parser's own file
// reading, so a path that names a device or a pipe is refused as any
// configuration file would be).
func ReadBuild(fsys parser.FileSystem, path string) (*buildinfo.Info, error) {
	if fsys == nil {
		fsys = parser.OSFS{}
	}
	out, err := fsys.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return buildinfo.Parse(string(out))
}

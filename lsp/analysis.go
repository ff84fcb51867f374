package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime/debug"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/config"
	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
)

// This file is the analysis of a document: which settings apply, where
// the server may look (the workspace bounds), and the same lint pipeline
// as the command line (analyzer/lint: settings, include-paths, target
// build, suppression, dedupe).

func allRules() *analyzer.Registry { return rules.All() }

// initOptions are the client's initializationOptions. They are the
// editor's settings and win over the settings file, as the command
// line's flags do:
//
//	{"nginx-build": "/path/nginx-V.txt",      // or nginxBuild
//	 "nginx-version": "1.22.1",               // or nginxVersion
//	 "rules": {"version-disclosure": "off"},  // as in .nginx-lint.yaml
//	 "custom-directives": ["vts_status"],     // or customDirectives
//	 "custom-variables": ["vts_var"],         // or customVariables
//	 "cost-profile": "/path/profile.json",    // or costProfile
//	 "inlayHints": {"enabled": true, "minServers": 100}} // or inlay-hints
//
// Other keys are ignored (clients send their own).
type initOptions struct {
	settings   *config.File
	nginxBuild string
	// nginxVersion is the version to lint for when no build is named, as
	// --nginx-version is on the command line (it wins over the settings
	// file's nginx-version).
	nginxVersion string
	// inlay are the settings of the inlay hints (inlayhints.go).
	inlay inlayOptions
}

func parseInitOptions(v any) (initOptions, error) {
	var out initOptions
	m, ok := v.(map[string]any)
	if !ok {
		return out, nil
	}
	sub := map[string]any{}
	for k, val := range m {
		switch k {
		case "rules":
			sub["rules"] = val
		case "custom-directives", "customDirectives":
			sub["custom-directives"] = val
		case "custom-variables", "customVariables":
			sub["custom-variables"] = val
		case "nginx-version", "nginxVersion":
			// Checked as the settings file's nginx-version is; ""
			// (an editor's empty default) is unset.
			if val != "" {
				sub["nginx-version"] = val
			}
		case "inlayHints", "inlay-hints":
			o, err := parseInlayOptions(val)
			if err != nil {
				return out, err
			}
			out.inlay = o
		case "cost-profile", "costProfile":
			// As the settings file's key, made absolute as nginx-build
			// is: the server has no settings file to be relative to.
			p, ok := val.(string)
			if !ok {
				return out, fmt.Errorf("%s: want a path to a cost profile", k)
			}
			if p != "" {
				abs, err := filepath.Abs(p)
				if err != nil {
					return out, err
				}
				sub["cost-profile"] = abs
			}
		case "nginx-build", "nginxBuild":
			p, ok := val.(string)
			if !ok {
				return out, fmt.Errorf("%s: want a path to saved \"nginx -V\" output", k)
			}
			if p != "" {
				abs, err := filepath.Abs(p)
				if err != nil {
					return out, err
				}
				out.nginxBuild = abs
			}
		}
	}
	if len(sub) > 0 {
		b, err := json.Marshal(sub)
		if err != nil {
			return out, err
		}
		f, err := config.Parse("initializationOptions", b)
		if err != nil {
			return out, err
		}
		out.settings = f
		out.nginxVersion = f.NginxVersion
	}
	return out, nil
}

// boundLocked returns the directory above which the server looks for
// nothing on path's behalf (no including nginx.conf, no settings file):
// the innermost workspace folder holding path; for a file outside every
// folder, its repository's root (the nearest directory with a .git), else
// its own directory. A file outside the bound is read only when an
// include names it.
func (s *Server) boundLocked(path string) string {
	best := ""
	for _, r := range s.roots {
		if lint.Within(path, r) && len(r) > len(best) {
			best = r
		}
	}
	if best != "" {
		return best
	}
	return lint.BoundOf(path)
}

// workspace is the lint session of a snapshot: the open buffers over
// the disk, the document's bound, the editor's settings over the settings
// file, and the server's caches.
func (s *Server) workspace(snap *snapshot, l *parser.Loader, log *readLog) *lint.Workspace {
	return &lint.Workspace{
		Seen:      log.seen,
		Registry:  s.reg,
		FS:        s.base(),
		Overlay:   snap.files,
		Loader:    l,
		Cache:     &s.settings,
		Bound:     snap.bound,
		Extra:     snap.init.settings,
		BuildFile: snap.init.nginxBuild,
		Version:   snap.init.nginxVersion,
		// The command line refuses to run on broken settings; the editor
		// goes on with the defaults and says why once.
		Tolerate: func(err error) { s.problem(fmt.Sprintf("settings ignored: %v", err)) },
		Warn:     func(msg string) { s.problem(msg) },
	}
}

// problem logs a problem with the user's settings once.
func (s *Server) problem(msg string) {
	if !s.settings.Once(msg) {
		return
	}
	s.logf("%s", msg)
	s.mu.Lock()
	n := s.notify
	s.mu.Unlock()
	if n != nil {
		n("window/logMessage", map[string]any{"type": 2, "message": msg})
	}
}

// tooLarge is the finding for a document over MaxDocumentSize.
func tooLarge(snap *snapshot) *view {
	d := &parser.Diagnostic{Path: snap.path, Severity: parser.Error, Code: parser.CodeUnreadable, Name: parser.NameUnreadable,
		Message: fmt.Sprintf("document is too large to analyse (%d bytes; the limit is %d)", len(snap.text), MaxDocumentSize),
		Detail:  "nginx-lint analyses documents up to 16 MiB in the editor; lint larger files with the command line"}
	return &view{gen: snap.gen, uri: snap.uri, path: snap.path, version: snap.version, text: snap.text,
		diags: []*parser.Diagnostic{d}, linted: true}
}

// lint runs the same core as the command line on the document
// (lint.Workspace.LintFile): a main configuration with its includes, or a
// fragment in the context its top-level directives suggest; a file that a
// nearby nginx.conf includes is checked through that configuration, where
// nginx reads it.
//
// ctx cancels the lint: its rules stop and the view it returns is
// incomplete (the caller drops it).
func (s *Server) lint(ctx context.Context, snap *snapshot) (v *view) {
	s.lintsRun.Add(1)
	if snap.src == nil {
		return tooLarge(snap)
	}
	// A crash here must not take the server down (it runs on a goroutine
	// of its own): the document gets an internal-error finding instead.
	defer func() {
		if r := recover(); r != nil {
			s.logf("lint of %s panicked: %v", snap.path, r)
			v = &view{gen: snap.gen, uri: snap.uri, path: snap.path, version: snap.version, text: snap.text, linted: true,
				diags: []*parser.Diagnostic{{Path: snap.path, Severity: parser.Error, Code: parser.CodeInternal, Name: parser.NameInternal,
					Message: fmt.Sprintf("nginx-lint failed on this document: %v", r)}}}
		}
	}()
	s.lintMu.Lock()
	defer s.lintMu.Unlock()
	if ctx.Err() != nil {
		// Cancelled while another document's lint held the slot.
		return &view{gen: snap.gen, uri: snap.uri, path: snap.path, version: snap.version, text: snap.text}
	}
	log := s.readLog(snap)
	w := s.workspace(snap, s.lintLoader, log)
	w.Cancel = ctx.Done()
	rep, err := w.LintFile(snap.path)
	if err == nil && rep.Unit != nil && s.gcBatch.Load() {
		size := 0
		for _, f := range rep.Unit.Config.Files {
			size += len(f.Src)
		}
		if size > 32<<20 && s.gcBatch.CompareAndSwap(true, false) {
			debug.SetGCPercent(100)
		}
	}
	return s.makeView(snap, rep, err, true, log)
}

// readLog returns the log of what an analysis of snap reads.
func (s *Server) readLog(snap *snapshot) *readLog {
	if !snap.poll {
		return &readLog{}
	}
	return &readLog{stamp: s.stampOf, open: snap.files}
}

// load parses the document for editor features, without linting it.
// The caller holds viewMu.
func (s *Server) load(snap *snapshot) *view {
	log := s.readLog(snap)
	rep, err := s.workspace(snap, s.viewLoader, log).LoadFile(snap.path)
	return s.makeView(snap, rep, err, false, log)
}

// makeView makes the view of a lint or load of snap, which read what log
// holds.
func (s *Server) makeView(snap *snapshot, rep *lint.FileReport, err error, linted bool, log *readLog) *view {
	v := &view{gen: snap.gen, uri: snap.uri, path: snap.path, version: snap.version, text: snap.text, linted: linted,
		deps: log.paths, globs: log.globs, stamps: log.stamps}
	if err != nil {
		// Only a document that cannot be read as text gets here.
		code, name, msg := parser.ReadErrorFinding(err, false)
		v.diags = []*parser.Diagnostic{{Path: snap.path, Severity: parser.Error, Code: code, Name: name, Message: msg}}
		return v
	}
	v.config, v.file, v.diags, v.dumpLines = rep.Config, rep.File, rep.Findings, rep.DumpLines
	v.unit, v.unitFile = rep.Unit, rep.UnitFile
	return v
}

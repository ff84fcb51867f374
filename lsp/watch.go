package lsp

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/nginx-lint/nginx-lint/analyzer/config"
)

// This file keeps the open documents true to the disk: the server asks
// the client to watch the configuration files (every *.conf, the settings
// files, and each file or pattern an analysis read that those miss, such
// as mime.types or sites-enabled/*) and lints again what a change on disk
// makes stale (see touchLocked), deletions and renames included. A client
// that cannot watch files for the server (Neovim before 0.9) is covered by
// the server itself: it looks at what the analyses read every PollInterval.

// DefaultPollInterval is how often the server looks at the files the open
// documents read when the client cannot watch them for it.
const DefaultPollInterval = 2 * time.Second

// watchID is the id of the server's file-watching registrations.
const watchID = "nginx-lint/watch"

// baseWatchers are what every workspace watches: the configuration files
// and the settings files.
func baseWatchers() []protocol.FileSystemWatcher {
	out := []protocol.FileSystemWatcher{{GlobPattern: "**/*.conf"}}
	for _, name := range config.Names {
		out = append(out, protocol.FileSystemWatcher{GlobPattern: "**/" + name})
	}
	return out
}

// watchLocked starts watching: a registration the client keeps, or the
// server's own look at the disk. It runs once, after initialized.
func (s *Server) watchLocked() {
	if s.watching {
		return
	}
	s.watching = true
	if s.clientWatches && s.call != nil {
		s.registerLocked(baseWatchers())
		return
	}
	go s.poll(s.life)
}

// registerLocked asks the client to watch more files.
func (s *Server) registerLocked(watchers []protocol.FileSystemWatcher) {
	if len(watchers) == 0 || s.call == nil {
		return
	}
	s.watchSeq++
	id := watchID
	if s.watchSeq > 1 {
		id += "/" + itoa(s.watchSeq)
	}
	s.call("client/registerCapability", protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID: id, Method: "workspace/didChangeWatchedFiles",
		RegisterOptions: protocol.DidChangeWatchedFilesRegistrationOptions{Watchers: watchers},
	}}})
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}

// watchMoreLocked asks the client to watch what view v read that the
// registrations so far miss: included files not named *.conf (mime.types,
// sites-enabled/default) and include patterns.
func (s *Server) watchMoreLocked(v *view) {
	if !s.clientWatches || !s.watching {
		return
	}
	var more []protocol.FileSystemWatcher
	add := func(pattern string) {
		if s.watched[pattern] {
			return
		}
		if s.watched == nil {
			s.watched = map[string]bool{}
		}
		s.watched[pattern] = true
		more = append(more, protocol.FileSystemWatcher{GlobPattern: filepath.ToSlash(pattern)})
	}
	for p := range v.deps {
		if !strings.HasSuffix(p, ".conf") && filepath.IsAbs(p) {
			add(p)
		}
	}
	for g := range v.globs {
		if filepath.IsAbs(g) && !strings.HasSuffix(g, ".conf") {
			add(g)
		}
	}
	sort.Slice(more, func(i, j int) bool { return more[i].GlobPattern < more[j].GlobPattern })
	s.registerLocked(more)
}

// didChangeWatchedFiles lints again the documents that read a file the
// client says changed, was created or was deleted.
func (s *Server) didChangeWatchedFiles(n notifier, p *protocol.DidChangeWatchedFilesParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var changed, createdOrDeleted []string
	for _, e := range p.Changes {
		path := uriToPath(e.URI)
		if e.Type == protocol.FileChangeTypeChanged {
			changed = append(changed, path)
		} else {
			createdOrDeleted = append(createdOrDeleted, path)
		}
	}
	s.touchLocked(n, false, changed...)
	s.touchLocked(n, true, createdOrDeleted...)
	return nil
}

// renameFilesParams is workspace/didRenameFiles' (LSP 3.16).
type renameFilesParams struct {
	Files []struct {
		OldURI string `json:"oldUri"`
		NewURI string `json:"newUri"`
	} `json:"files"`
}

// didRenameFiles lints again the documents that read a renamed file (or
// one inside a renamed directory) or might read it under its new name.
func (s *Server) didRenameFiles(n notifier, p *renameFilesParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var paths []string
	for _, f := range p.Files {
		for _, uri := range []string{f.OldURI, f.NewURI} {
			path := uriToPath(protocol.DocumentUri(uri))
			paths = append(paths, path)
			// A directory: everything read under it.
			for _, d := range s.docs {
				if d.view == nil {
					continue
				}
				for dep := range d.view.deps {
					if strings.HasPrefix(dep, path+string(filepath.Separator)) {
						paths = append(paths, dep)
					}
				}
			}
		}
	}
	s.touchLocked(n, true, paths...)
	return nil
}

// stamp is what the server's own look at the disk compares: whether a
// file is there, its size and time; for a pattern, what it matches.
type stamp struct {
	exists bool
	size   int64
	mtime  time.Time
	match  string
}

// stampOf returns the stamp of a path (glob: of a pattern) now.
func (s *Server) stampOf(path string, glob bool) stamp {
	if glob {
		m, _ := s.base().Glob(path)
		return stamp{match: strings.Join(m, "\x00")}
	}
	if fi, err := os.Stat(path); err == nil {
		return stamp{exists: true, size: fi.Size(), mtime: fi.ModTime()}
	}
	return stamp{}
}

// poll looks, every PollInterval until ctx ends, at the files and
// patterns the open documents' analyses read, against what they were when
// read, and touches what changed.
func (s *Server) poll(ctx context.Context) {
	interval := s.PollInterval
	if interval <= 0 {
		interval = DefaultPollInterval
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		type read struct {
			d      *document
			stamps map[string]stamp
		}
		var views []read
		s.mu.Lock()
		for _, d := range s.docs {
			if v := d.view; v != nil && v.gen == d.gen && v.stamps != nil {
				views = append(views, read{d, v.stamps})
			}
		}
		s.mu.Unlock()
		now := map[string]stamp{}
		var stale []*document
		for _, r := range views {
			for key, was := range r.stamps {
				st, ok := now[key]
				if !ok {
					path, glob := strings.CutPrefix(key, "glob:")
					st = s.stampOf(path, glob)
					now[key] = st
				}
				if st != was {
					stale = append(stale, r.d)
					break
				}
			}
		}
		if len(stale) == 0 {
			continue
		}
		s.mu.Lock()
		for _, d := range stale {
			if !d.closed {
				d.gen++
				s.scheduleLocked(d, s.notify)
			}
		}
		s.mu.Unlock()
	}
}

package lint

import (
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer/buildinfo"
	"github.com/nginx-lint/nginx-lint/analyzer/config"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/parser"
)

// Cache keeps the settings files and nginx builds a Workspace reads, each
// read again only when its size or time changes: a language server lints
// at every pause in typing and must not parse YAML each time. It also
// remembers the messages already given, so a broken settings file is said
// once. The zero value is ready; it is safe for concurrent use.
type Cache struct {
	mu      sync.Mutex
	entries map[string]*cacheEntry
	said    map[string]bool
	// pipes holds what was read from each pipe named on the command line:
	// a pipe can be read once, and a Workspace may read its targets again
	// (a second Lint or Load of the same targets).
	pipes map[string]pipeRead
}

type pipeRead struct {
	src []byte
	err error
}

// pipe returns what read gave the first time it was called for path.
func (c *Cache) pipe(path string, read func() ([]byte, error)) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r, ok := c.pipes[path]; ok {
		return r.src, r.err
	}
	src, err := read()
	if c.pipes == nil {
		c.pipes = map[string]pipeRead{}
	}
	c.pipes[path] = pipeRead{src, err}
	return src, err
}

type cacheEntry struct {
	size    int64
	mtime   time.Time
	cfg     *config.File
	build   *buildinfo.Info
	profile *costmodel.Profile
	err     error
}

// get returns the entry for path, refreshed with read when the file
// changed.
func (c *Cache) get(path string, read func(*cacheEntry)) *cacheEntry {
	st, err := os.Stat(path)
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[path]
	if err == nil && e != nil && e.size == st.Size() && e.mtime.Equal(st.ModTime()) {
		return e
	}
	e = &cacheEntry{}
	if err != nil {
		// Reading says what is wrong in the words it uses for any file;
		// nothing is kept.
		read(e)
		return e
	}
	e.size, e.mtime = st.Size(), st.ModTime()
	read(e)
	if c.entries == nil {
		c.entries = map[string]*cacheEntry{}
	}
	c.entries[path] = e
	return e
}

// config returns the parsed settings file at path.
func (c *Cache) config(path string) (*config.File, error) {
	e := c.get(path, func(e *cacheEntry) { e.cfg, e.err = LoadSettings(path) })
	return e.cfg, e.err
}

// build returns the nginx build described by saved "nginx -V" output at
// path, read as configuration files are (never a device or a pipe).
func (c *Cache) build(path string) (*buildinfo.Info, error) {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	e := c.get(path, func(e *cacheEntry) { e.build, e.err = ReadBuild(parser.OSFS{}, path) })
	return e.build, e.err
}

// Once reports whether msg is new to the cache, so a front end says a
// problem once, not at every lint.
func (c *Cache) Once(msg string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.said[msg] {
		return false
	}
	if c.said == nil {
		c.said = map[string]bool{}
	}
	c.said[msg] = true
	return true
}

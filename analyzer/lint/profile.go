package lint

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/nginx-lint/nginx-lint/analyzer/config"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/parser"
)

// ReadProfile reads a cost profile nginx-lint calibrate wrote, as
// configuration files are read (never a device or a pipe): a file that
// cannot be read is an error, one that is no profile a UsageError.
func ReadProfile(path string) (*costmodel.Profile, error) {
	b, err := parser.ReadConfigFile(path, 0)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("cost profile %s: %w", path, pe.Err)
		}
		return nil, fmt.Errorf("cost profile %s: %w", path, err)
	}
	p, err := costmodel.ParseProfile(b)
	if err != nil {
		return nil, &UsageError{Msg: path + ": " + err.Error()}
	}
	return p, nil
}

// profile returns the cost profile at path, read again only when it
// changes.
func (c *Cache) profile(path string) (*costmodel.Profile, error) {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	e := c.get(path, func(e *cacheEntry) { e.profile, e.err = ReadProfile(path) })
	return e.profile, e.err
}

// costProfile is the profile the settings name (cost-profile: the
// editor's over the settings file's), nil when none does.
func (w *Workspace) costProfile(cfg *config.File) (*costmodel.Profile, error) {
	path := ""
	if cfg != nil {
		path = cfg.CostProfile
	}
	if w.Extra != nil && w.Extra.CostProfile != "" {
		path = w.Extra.CostProfile
	}
	if path == "" {
		return nil, nil
	}
	return w.cache().profile(path)
}

// Package baseline records the findings a project has accepted, so that a
// linter run can report only new ones.
//
// A finding is identified by a fingerprint that does not use line numbers,
// so lines inserted above it do not make it new: a hash of the rule code,
// the file path relative to the baseline file, the flagged line with its
// whitespace collapsed, and the finding's index among the findings with
// the same code, path and text (so two identical lines are two entries,
// and adding a third makes one new finding).
package baseline

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/nginx-lint/nginx-lint/parser"
)

// Version is the format version written to and accepted from files.
const Version = 1

// Baseline is the set of accepted findings.
type Baseline struct {
	// Dir is the directory file paths are relative to: the baseline
	// file's.
	Dir     string  `json:"-"`
	Version int     `json:"version"`
	Entries []Entry `json:"findings"`

	set map[string]bool
}

// Entry is one accepted finding. Only Fingerprint is compared; the other
// fields let a reviewer read the file.
type Entry struct {
	Fingerprint string `json:"fingerprint"`
	Code        string `json:"code"`
	Name        string `json:"name"`
	File        string `json:"file"`
	Text        string `json:"text"`
	Message     string `json:"message"`
}

// New builds a baseline for files in dir from the findings ds.
func New(dir string, ds []*parser.Diagnostic) *Baseline {
	b := &Baseline{Dir: dir, Version: Version, Entries: []Entry{}}
	for i, fp := range b.Fingerprints(ds) {
		d := ds[i]
		b.Entries = append(b.Entries, Entry{Fingerprint: fp, Code: d.Code, Name: d.Name,
			File: b.relPath(d.FilePath()), Text: flaggedText(d), Message: d.Message})
	}
	return b
}

// Read parses a baseline file; dir is what its paths are relative to.
func Read(r io.Reader, dir string) (*Baseline, error) {
	b := &Baseline{}
	if err := json.NewDecoder(r).Decode(b); err != nil {
		return nil, fmt.Errorf("not a baseline file: %w", err)
	}
	if b.Version != Version {
		return nil, fmt.Errorf("baseline version %d, this nginx-lint reads version %d", b.Version, Version)
	}
	b.Dir = dir
	return b, nil
}

// Load reads the baseline file at path.
func Load(path string) (*Baseline, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	b, err := Read(f, filepath.Dir(abs))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// Write encodes b as indented JSON.
func (b *Baseline) Write(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(b)
}

// Filter returns the findings of ds that are not in the baseline, in order.
func (b *Baseline) Filter(ds []*parser.Diagnostic) []*parser.Diagnostic {
	if b.set == nil {
		b.set = make(map[string]bool, len(b.Entries))
		for _, e := range b.Entries {
			b.set[e.Fingerprint] = true
		}
	}
	var out []*parser.Diagnostic
	for i, fp := range b.Fingerprints(ds) {
		if !b.set[fp] {
			out = append(out, ds[i])
		}
	}
	return out
}

// Fingerprints returns the fingerprint of each finding of ds. The
// occurrence index counts in the order of ds, which the analyzer keeps by
// position, so it is stable while the identical lines keep their order.
func (b *Baseline) Fingerprints(ds []*parser.Diagnostic) []string {
	out := make([]string, len(ds))
	seen := map[string]int{}
	for i, d := range ds {
		key := d.Code + "\x00" + b.relPath(d.FilePath()) + "\x00" + flaggedText(d)
		n := seen[key]
		seen[key] = n + 1
		sum := sha256.Sum256(fmt.Appendf(nil, "%s\x00%d", key, n))
		out[i] = hex.EncodeToString(sum[:16])
	}
	return out
}

// relPath makes p relative to the baseline's directory with forward
// slashes, so a baseline written on one machine or checkout matches on
// another.
func (b *Baseline) relPath(p string) string {
	if b.Dir != "" && filepath.IsAbs(p) {
		if r, err := filepath.Rel(b.Dir, p); err == nil {
			p = r
		}
	}
	return filepath.ToSlash(p)
}

// flaggedText is the text of the line the finding starts on, with runs of
// whitespace collapsed, so reindenting does not make a finding new.
func flaggedText(d *parser.Diagnostic) string {
	if d.File == nil {
		return ""
	}
	return strings.Join(strings.Fields(d.File.LineText(d.Start().Line)), " ")
}

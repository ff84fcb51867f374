// Package fix applies the suggested edits that findings carry, the engine
// behind "nginx-lint --fix" and "--diff".
//
// A finding's edits are applied all together or not at all. When two
// findings' edits overlap, the one whose rule comes first (by code, then by
// position) wins and the other is deferred: the next round lints the edited
// text again, so a deferred fix is reconsidered against what the first one
// left. Rounds repeat until no finding offers an edit that applies, at most
// MaxRounds times. A file whose edited text would have more syntax errors
// than it started with is never returned changed.
package fix

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/nginx-lint/nginx-lint/parser"
)

// MaxRounds bounds the lint-and-apply rounds of Run. Fixes that keep
// producing new fixes (which no rule should do) stop here.
const MaxRounds = 10

// Linter lints the configuration with the given file contents in place of
// the files on disk (keys are the paths findings report) and returns the
// findings that survive suppression and the baseline.
type Linter func(overlay map[string][]byte) ([]*parser.Diagnostic, error)

// Change is one applied finding.
type Change struct {
	Round   int
	Path    string
	Line    int
	Code    string
	Name    string
	Message string
	// Target is the nginx the fix assumed when its result depends on
	// the version (parser.Diagnostic.Target), else "".
	Target string
}

// Result is what Run did.
type Result struct {
	// Original and Fixed hold, for each changed file, its text before the
	// first round and after the last.
	Original, Fixed map[string][]byte
	// Changes lists the applied findings in the order they were applied.
	Changes []Change
	// Rounds is the number of rounds that applied at least one edit.
	Rounds int
	// Refused names the files whose fixed text would not parse as well as
	// the original; they are left unchanged and absent from Fixed.
	Refused []string
}

// Paths returns the changed files, sorted.
func (r *Result) Paths() []string {
	out := make([]string, 0, len(r.Fixed))
	for p := range r.Fixed {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Run lints, applies the fixes that do not overlap, and lints again until
// nothing changes or MaxRounds is reached.
func Run(lint Linter) (*Result, error) {
	res := &Result{Original: map[string][]byte{}, Fixed: map[string][]byte{}}
	overlay := map[string][]byte{}
	for round := 1; round <= MaxRounds; round++ {
		ds, err := lint(overlay)
		if err != nil {
			return nil, err
		}
		chosen, _ := Plan(ds)
		if len(chosen) == 0 {
			break
		}
		texts, err := Apply(chosen)
		if err != nil {
			return nil, err
		}
		changed := false
		for path, text := range texts {
			if _, ok := res.Original[path]; !ok {
				res.Original[path] = []byte(srcOf(chosen, path))
			}
			if !bytes.Equal(text, []byte(srcOf(chosen, path))) {
				changed = true
			}
			overlay[path] = text
		}
		if !changed {
			break
		}
		res.Rounds++
		for _, d := range chosen {
			res.Changes = append(res.Changes, Change{Round: round, Path: d.FilePath(), Line: d.Start().Line,
				Code: d.Code, Name: d.Name, Message: d.Message, Target: d.Target})
		}
	}
	for path, text := range overlay {
		orig := res.Original[path]
		if bytes.Equal(orig, text) {
			continue
		}
		if syntaxErrors(path, text) > syntaxErrors(path, orig) {
			res.Refused = append(res.Refused, path)
			continue
		}
		res.Fixed[path] = text
	}
	sort.Strings(res.Refused)
	return res, nil
}

// srcOf returns the text the chosen findings' edits were computed on.
func srcOf(chosen []*parser.Diagnostic, path string) string {
	for _, d := range chosen {
		for _, e := range d.Edits {
			if e.File != nil && e.File.Path == path {
				return e.File.Src
			}
		}
	}
	return ""
}

// syntaxErrors counts the syntax errors of text parsed on its own. Syntax
// does not depend on the context a file is included in, so this is the
// same count the whole configuration would give for the file.
func syntaxErrors(path string, text []byte) int {
	return len(parser.ParseFile(path, text, nil).Diagnostics)
}

// Plan orders the findings that carry edits by rule code, file and
// position, and keeps each one whose edits overlap none of those kept
// before it. The rest are deferred to the next round.
func Plan(ds []*parser.Diagnostic) (chosen, deferred []*parser.Diagnostic) {
	var cands []*parser.Diagnostic
	for _, d := range ds {
		if len(d.Edits) > 0 && editsValid(d) {
			cands = append(cands, d)
		}
	}
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if a.Code != b.Code {
			return a.Code < b.Code
		}
		if a.FilePath() != b.FilePath() {
			return a.FilePath() < b.FilePath()
		}
		return a.Range.Start < b.Range.Start
	})
	taken := map[string][]parser.Range{}
	seen := map[string]bool{}
	for _, d := range cands {
		key := editKey(d)
		if seen[key] {
			// The same edit offered twice (a file included twice) is one fix.
			continue
		}
		seen[key] = true
		if overlapsAny(d, taken) {
			deferred = append(deferred, d)
			continue
		}
		for _, e := range d.Edits {
			taken[e.File.Path] = append(taken[e.File.Path], e.Range)
		}
		chosen = append(chosen, d)
	}
	return chosen, deferred
}

func editsValid(d *parser.Diagnostic) bool {
	for _, e := range d.Edits {
		if e.File == nil || e.Range.Start < 0 || e.Range.End < e.Range.Start || int(e.Range.End) > len(e.File.Src) {
			return false
		}
	}
	return true
}

func editKey(d *parser.Diagnostic) string {
	var b bytes.Buffer
	for _, e := range d.Edits {
		fmt.Fprintf(&b, "%s\x00%d\x00%d\x00%s\x00", e.File.Path, e.Range.Start, e.Range.End, e.NewText)
	}
	return b.String()
}

// overlapsAny reports whether one of d's edits touches a taken range of its
// file. Two insertions at the same offset overlap too, since their order
// would be arbitrary.
func overlapsAny(d *parser.Diagnostic, taken map[string][]parser.Range) bool {
	for _, e := range d.Edits {
		for _, r := range taken[e.File.Path] {
			if overlap(e.Range, r) {
				return true
			}
		}
	}
	return false
}

func overlap(a, b parser.Range) bool {
	if a.Len() == 0 || b.Len() == 0 {
		return a.Start <= b.End && b.Start <= a.End
	}
	return a.Start < b.End && b.Start < a.End
}

// Apply returns the text of every file the findings' edits touch, with the
// edits applied. The edits must not overlap (Plan guarantees it).
func Apply(ds []*parser.Diagnostic) (map[string][]byte, error) {
	byFile := map[string][]parser.Edit{}
	src := map[string]string{}
	for _, d := range ds {
		for _, e := range d.Edits {
			byFile[e.File.Path] = append(byFile[e.File.Path], e)
			src[e.File.Path] = e.File.Src
		}
	}
	out := make(map[string][]byte, len(byFile))
	for path, es := range byFile {
		sort.Slice(es, func(i, j int) bool { return es[i].Range.Start < es[j].Range.Start })
		s := src[path]
		var b bytes.Buffer
		b.Grow(len(s))
		at := int32(0)
		for _, e := range es {
			if e.Range.Start < at {
				return nil, fmt.Errorf("%s: overlapping edits at offset %d", path, e.Range.Start)
			}
			b.WriteString(s[at:e.Range.Start])
			b.WriteString(e.NewText)
			at = e.Range.End
		}
		b.WriteString(s[at:])
		out[path] = b.Bytes()
	}
	return out, nil
}

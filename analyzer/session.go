package analyzer

import (
	"github.com/nginx-lint/nginx-lint/analyzer/internal/door"
	"github.com/nginx-lint/nginx-lint/parser"
)

// Session runs rules one at a time on one configuration, with the index
// and typed model built once and shared as RunRules shares them. The
// benchmarks and the scaling test use it to measure each rule on its own;
// the key (analyzer/internal/door) keeps it from being a second public
// way to run rules beside analyzer/lint.Run.
type Session struct {
	c  *parser.Config
	sh *shared
}

// NewSession prepares rules to run on c: it builds the index and the
// typed model, which every rule may read.
func NewSession(_ door.Key, c *parser.Config) *Session {
	s := &Session{c: c, sh: &shared{}}
	p := &Pass{Config: c, shared: s.sh}
	p.Index()
	p.Model()
	return s
}

// RunRule runs r alone, when opts enable it, and returns its findings as
// reported (a panic is an internal-error finding, as in RunRules).
// Results a rule derives (Result.Get) are computed afresh for each call,
// so a rule's cost includes them even when another rule computed them
// before.
func (s *Session) RunRule(r *Rule, opts Options) []*parser.Diagnostic {
	// The session's index, counting into this run's counter: a copy of
	// its header, the entries shared.
	ix := *s.sh.index
	ix.ops = opts.Ops
	sh := &shared{index: &ix, model: s.sh.model, ops: opts.Ops}
	sh.indexOnce.Do(func() {})
	sh.modelOnce.Do(func() {})
	var out []*parser.Diagnostic
	if !r.runs(&opts) {
		return nil
	}
	p := passTemplate(s.c, opts, sh)
	p.Rule, p.Options = r, opts.RuleOptions[r.Name]
	p.report = func(d *parser.Diagnostic) { out = append(out, d) }
	runSafely(&p)
	return out
}

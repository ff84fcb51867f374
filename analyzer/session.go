package analyzer

import "github.com/nginx-lint/nginx-lint/parser"

// Session runs rules one at a time on one configuration, with the index
// and typed model built once and shared as Run shares them. Benchmarks and
// the scaling test use it to measure each rule on its own.
type Session struct {
	c  *parser.Config
	sh *shared
}

// NewSession prepares rules to run on c: it builds the index and the
// typed model, which every rule may read.
func NewSession(c *parser.Config) *Session {
	s := &Session{c: c, sh: &shared{}}
	p := &Pass{Config: c, shared: s.sh}
	p.Index()
	p.Model()
	return s
}

// RunRule runs r alone and returns its findings (a panic is an
// internal-error finding, as in Run). The Results a rule reads (Result.Get)
// are computed afresh for each call, so a rule's cost includes them even
// when another rule computed them before.
func (s *Session) RunRule(r *Rule, opts Options) []*parser.Diagnostic {
	// The session's index, counting into this run's counter: a copy of
	// its header, the entries shared.
	ix := *s.sh.index
	ix.ops = opts.Ops
	sh := &shared{index: &ix, model: s.sh.model, ops: opts.Ops}
	sh.indexOnce.Do(func() {})
	sh.modelOnce.Do(func() {})
	var out []*parser.Diagnostic
	p := passTemplate(s.c, opts, sh)
	p.Rule, p.Options = r, opts.RuleOptions[r.Name]
	p.report = func(d *parser.Diagnostic) { out = append(out, d) }
	runSafely(&p)
	return out
}

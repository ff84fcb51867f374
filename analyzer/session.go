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
// internal-error finding, as in Run). Results a rule derives with
// Pass.Memo are computed afresh for each call, so a rule's cost includes
// them even when another rule computed them before.
func (s *Session) RunRule(r *Rule, opts Options) []*parser.Diagnostic {
	sh := &shared{index: s.sh.index, model: s.sh.model}
	sh.indexOnce.Do(func() {})
	sh.modelOnce.Do(func() {})
	var out []*parser.Diagnostic
	p := passTemplate(s.c, opts, sh)
	p.Rule, p.Options = r, opts.RuleOptions[r.Name]
	p.report = func(d *parser.Diagnostic) { out = append(out, d) }
	runSafely(&p)
	return out
}

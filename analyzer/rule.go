package analyzer

import (
	"fmt"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/internal/door"
	"github.com/nginx-lint/nginx-lint/internal/didyoumean"
	"github.com/nginx-lint/nginx-lint/parser"
)

// Category is the first digit of a rule code.
type Category int

// Categories of rules, by the first digit of their code.
const (
	Syntax      Category = 1
	Correctness Category = 2
	Security    Category = 3
	Performance Category = 4
	Style       Category = 5
)

func (c Category) String() string {
	switch c {
	case Syntax:
		return "syntax"
	case Correctness:
		return "correctness"
	case Security:
		return "security"
	case Performance:
		return "performance"
	case Style:
		return "style"
	}
	return "unknown"
}

// Rule is one check, a value in the style of go/analysis: a stable code
// ("NL" and four digits, the first the category), a kebab-case name, a
// one-line title, a default severity, documentation with examples, and
// Run, which inspects a Pass and reports what it finds.
type Rule struct {
	Code     string
	Name     string
	Title    string
	Severity parser.Severity
	Doc      Doc
	// Options are the settings the rule reads from Pass.Options, each
	// converted to its declared type before the rule runs.
	Options []Option
	// Run inspects the configuration. It must not keep the Pass.
	Run func(*Pass)
	// Group, when set, is the rule's category instead of the one its
	// code's digit names: a rule moved to another category keeps its code,
	// which users' suppression comments and baselines name.
	Group Category
	// Fixable marks a rule whose findings may carry a suggested fix
	// (parser.Diagnostic.Edits) that --fix applies. The fix test runs
	// every fixable rule's fix through the real nginx, and the examples'
	// test refuses edits from a rule not marked.
	Fixable bool
	// Refuses marks a rule whose finding means that nginx refuses the
	// directive the finding points at: it stops with an emergency on it
	// ("invalid port in upstream", "is duplicate", "unknown variable"),
	// so the directive never takes effect. What other rules say about
	// that directive's head is about text that cannot run, often an
	// artefact of the very mistake (proxy_pass http://exa mple.com read
	// as a host "exa" "resolved only at startup"): the lint drops it. A
	// rule whose verdict depends on this machine (Host), or that nginx
	// refuses for the whole configuration rather than for one directive
	// (ssl-certificate-missing, listen-bind-conflict), is not marked.
	// Such a finding is an error: Validate checks the severity.
	Refuses bool
	// Host marks a rule whose findings depend on this machine: the files
	// nginx loads, the names it resolves, the users it runs as. It runs
	// only when the run checks this machine (Options.CheckFiles:
	// --check-files, or check-files: true in the settings) or its own
	// option check-files says so; it declares CheckFilesOption, which
	// Validate checks.
	Host bool
	// Cost marks a rule whose findings are the startup cost model's
	// verdicts on what nginx does when it starts and reloads: its
	// sockets, address compares, open files, server-names hash and the
	// estimated time. nginx-lint cost runs these rules. Each is in the
	// Performance category (Validate checks it), but not every
	// Performance rule is one: those about serving requests
	// (regex-exact-match, keepalive-requests-low, quic-reuseport, ...)
	// are for the lint alone.
	Cost bool
}

// CheckFilesOption is the option of every rule marked Host that runs it
// on its own, without the run's check-files.
var CheckFilesOption = BoolOption("check-files", false,
	"Run the check (--check-files or check-files: true in the settings turn it on for all such rules).")

// runs reports whether r runs under opts: not disabled, and, for a rule
// that depends on this machine, asked to check it.
func (r *Rule) runs(opts *Options) bool {
	if opts.Disabled[r.Name] {
		return false
	}
	if r.Host && !opts.CheckFiles {
		on, _ := CheckFilesOption.lookup(opts.RuleOptions[r.Name])
		return on
	}
	return true
}

// Doc is a rule's documentation. Bad and Good are complete nginx configs
// (or fragments, linted with inferred context); a test runs them: Bad
// must make the rule fire and Good must leave it quiet.
type Doc struct {
	// Text says why the rule exists and how to fix a finding (Markdown).
	Text string
	Bad  string
	Good string
	// Since is the nginx-lint version that introduced the rule.
	Since string
	// URL points at the nginx documentation the rule is about, if any.
	URL string
}

// Category returns the rule's category: Group when set, else its code's.
func (r *Rule) Category() Category {
	if r.Group != 0 {
		return r.Group
	}
	if len(r.Code) == 6 {
		return Category(r.Code[2] - '0')
	}
	return 0
}

var codePattern = regexp.MustCompile(`^NL[1-5][0-9]{3}$`)
var namePattern = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

// Validate checks the rule's identity and docs, so a registry can refuse a
// malformed rule at start-up rather than print nonsense later.
func (r *Rule) Validate() error {
	switch {
	case !codePattern.MatchString(r.Code):
		return fmt.Errorf("rule %q: code %q is not NL + 4 digits with category 1-5", r.Name, r.Code)
	case !namePattern.MatchString(r.Name):
		return fmt.Errorf("rule %s: name %q is not kebab-case", r.Code, r.Name)
	case r.Title == "" || strings.HasSuffix(r.Title, "."):
		return fmt.Errorf("rule %s: title must be one line without a final period", r.Code)
	case r.Run == nil:
		return fmt.Errorf("rule %s: no Run", r.Code)
	case r.Doc.Text == "" || r.Doc.Bad == "" || r.Doc.Good == "":
		return fmt.Errorf("rule %s: docs need text, a bad and a good example", r.Code)
	case r.Refuses && r.Severity != parser.Error:
		return fmt.Errorf("rule %s: nginx refuses what it reports, so its severity is error", r.Code)
	case r.Cost && r.Category() != Performance:
		return fmt.Errorf("rule %s: a cost rule is in the performance category", r.Code)
	}
	if o, _ := r.LookupOption(CheckFilesOption.Name()); r.Host && o == nil {
		return fmt.Errorf("rule %s: a rule that checks this machine declares CheckFilesOption", r.Code)
	}
	for _, o := range r.Options {
		if !namePattern.MatchString(o.Name) || o.Type == 0 || o.Doc == "" {
			return fmt.Errorf("rule %s: option %q needs a kebab-case name, a type and a doc", r.Code, o.Name)
		}
	}
	return nil
}

// Registry is an ordered, validated set of rules.
type Registry struct {
	rules []*Rule
	byKey map[string]*Rule
}

// NewRegistry validates rules and indexes them by code and name.
func NewRegistry(rules ...*Rule) (*Registry, error) {
	reg := &Registry{byKey: map[string]*Rule{}}
	for _, r := range rules {
		if err := r.Validate(); err != nil {
			return nil, err
		}
		for _, k := range []string{r.Code, r.Name} {
			if _, dup := reg.byKey[k]; dup {
				return nil, fmt.Errorf("rule %s: %q is used twice", r.Code, k)
			}
			reg.byKey[k] = r
		}
		reg.rules = append(reg.rules, r)
	}
	sort.Slice(reg.rules, func(i, j int) bool { return reg.rules[i].Code < reg.rules[j].Code })
	return reg, nil
}

// Rules returns the rules ordered by code.
func (reg *Registry) Rules() []*Rule { return reg.rules }

// Lookup finds a rule by code or name (case-insensitive code).
func (reg *Registry) Lookup(key string) *Rule {
	if r := reg.byKey[key]; r != nil {
		return r
	}
	return reg.byKey[strings.ToUpper(key)]
}

// Suggest returns the rule names and codes closest to key, a key that
// names no rule, for a "did you mean" (see didyoumean.Closest).
func (reg *Registry) Suggest(key string) []string {
	keys := make([]string, 0, 2*len(reg.rules))
	for _, r := range reg.rules {
		keys = append(keys, r.Name, r.Code)
	}
	return didyoumean.Closest(key, keys)
}

// Pass is what a rule sees: the configuration, its typed model and the
// directive knowledge, plus Report to hand back findings. One Pass serves
// one rule on one configuration.
type Pass struct {
	Rule   *Rule
	Config *parser.Config
	// Options are the rule's options from the configuration file.
	Options map[string]any
	// Target is the nginx build linted for; never nil (the zero Target is
	// the newest nginx with every module).
	Target *Target
	// CustomDirectives are the directive names the run declares (the
	// settings' custom-directives), as a set: names nginx accepts through
	// modules the tables do not know. Shared by every Pass; do not modify.
	CustomDirectives map[string]bool
	// CustomVariables are the variable names the run declares (the
	// settings' custom-variables: lower case, without "$", a trailing
	// "*" for a prefix family). Shared by every Pass; do not modify.
	CustomVariables []string
	// Glob expands a pattern the way the loader did (through the
	// include-paths map); nil is the disk's.
	Glob func(pattern string) ([]string, error)
	// ReadFile reads a file the way the loader did (so the language
	// server's unsaved buffers are seen by rules that read files).
	ReadFile func(path string) ([]byte, error)
	// Host are the facts about the machine nginx runs on (Options.Host):
	// the same for every rule, so every rule reads one cost model.
	Host Host

	inputs map[any]any
	report func(*parser.Diagnostic)
	shared *shared
}

// Report records a finding; Severity, Code and Name default to the rule's.
func (p *Pass) Report(d *parser.Diagnostic) {
	if d.Code == "" {
		d.Code, d.Name = p.Rule.Code, p.Rule.Name
		if d.Severity == 0 && p.Rule.Severity != 0 {
			d.Severity = p.Rule.Severity
		}
	}
	if d.Path == "" && d.File != nil {
		d.Path = d.File.Path
	}
	p.report(d)
}

// Reportf reports a finding on a range of f with the rule's severity.
func (p *Pass) Reportf(f *parser.File, r parser.Range, format string, args ...any) *parser.Diagnostic {
	p.stopIfCancelled()
	d := &parser.Diagnostic{File: f, Path: f.Path, Range: r, Severity: p.Rule.Severity,
		Code: p.Rule.Code, Name: p.Rule.Name, Message: fmt.Sprintf(format, args...)}
	p.report(d)
	return d
}

// ReportDirective reports a finding on a directive's name.
func (p *Pass) ReportDirective(d *parser.Directive, format string, args ...any) *parser.Diagnostic {
	return p.Reportf(d.File, d.Name().Range, format, args...)
}

// WalkContext visits every directive as nginx reads it (includes expanded)
// with the context it appears in; ctx is 0 inside blocks whose body the
// directive tables do not describe (map entries, types, Lua). stack holds
// the enclosing block directives and is reused between calls.
func (p *Pass) WalkContext(fn func(d *parser.Directive, ctx directives.Context, stack []*parser.Directive)) {
	ix := p.Index()
	ix.countOps(len(ix.Entries))
	var w stackWalk
	for i := range ix.Entries {
		if i&cancelEvery == 0 {
			p.stopIfCancelled()
		}
		e := &ix.Entries[i]
		fn(e.Directive, e.Context(), w.enter(ix, int32(i)))
		w.leave(ix, int32(i))
	}
}

// WalkEntries is WalkContext with the index entry, which carries the
// directive's table row.
func (p *Pass) WalkEntries(fn func(e *Entry, stack []*parser.Directive)) {
	ix := p.Index()
	ix.countOps(len(ix.Entries))
	var w stackWalk
	for i := range ix.Entries {
		if i&cancelEvery == 0 {
			p.stopIfCancelled()
		}
		fn(&ix.Entries[i], w.enter(ix, int32(i)))
		w.leave(ix, int32(i))
	}
}

// stackWalk keeps the enclosing block directives of the entries met in
// reading order.
type stackWalk struct {
	// stack holds the block directives enclosing the current entry and
	// ids their entries (a file included twice puts the same directives
	// in two places, so entries rather than directives are compared).
	stack []*parser.Directive
	ids   []int32
}

// enter moves to entry i, which follows the entries met so far, and
// returns the block directives enclosing it: those of its parent's chain,
// which are on the stack as every block directive was pushed when met.
func (w *stackWalk) enter(ix *Index, i int32) []*parser.Directive {
	e := &ix.Entries[i]
	n := len(w.ids)
	for n > 0 && w.ids[n-1] != e.Parent {
		n--
	}
	w.stack, w.ids = w.stack[:n], w.ids[:n]
	return w.stack
}

// leave pushes entry i, just visited, when it opens a block.
func (w *stackWalk) leave(ix *Index, i int32) {
	if d := ix.Entries[i].Directive; d.Block != nil {
		w.stack, w.ids = append(w.stack, d), append(w.ids, i)
	}
}

// WalkNamed is WalkContext restricted to directives with one of names; it
// costs nothing for the directives it skips.
func (p *Pass) WalkNamed(fn func(d *parser.Directive, ctx directives.Context, stack []*parser.Directive), names ...string) {
	ix := p.Index()
	var w chainWalk
	ix.eachNamed(names, func(i int32) {
		e := &ix.Entries[i]
		fn(e.Directive, e.Context(), w.at(ix, i))
	})
}

// chainWalk keeps the block directives enclosing entries met in reading
// order, not necessarily adjacent (those of WalkNamed). An entry's stack
// shares with the one before it everything up to their common ancestor,
// so only the rest is pushed: an entry leaves the stack once, never to
// come back (the entries after it are outside its block). Rebuilding
// each stack from the parents instead cost the depth per entry, the
// square of the depth for a configuration nested thousands deep.
type chainWalk struct {
	stack []*parser.Directive
	ids   []int32 // the entries of stack
	up    []int32 // scratch: the ancestors to push, innermost first
	// kept is how much of stack's array KeptStacks handed out: those
	// slots are never written again.
	kept int
}

// at returns the block directives enclosing entry i, which comes after
// the entries met so far, outermost first. The slice is the walk's: it
// changes at the next call.
func (w *chainWalk) at(ix *Index, i int32) []*parser.Directive {
	w.up = w.up[:0]
	steps := 0
	for p := ix.Entries[i].Parent; ; p = ix.Entries[p].Parent {
		// The stack's entries after p are not i's ancestors: the
		// ancestors after p have been walked and were not on it.
		n := len(w.ids)
		for n > 0 && w.ids[n-1] > p {
			n--
		}
		steps += len(w.ids) - n
		w.stack, w.ids = w.stack[:n], w.ids[:n]
		if p < 0 || n > 0 && w.ids[n-1] == p {
			break
		}
		w.up = append(w.up, p)
	}
	if len(w.up) > 0 && len(w.stack) < w.kept {
		// The slots the pushes would write are in stacks handed out to
		// keep: the rest goes in an array of its own.
		w.stack = append(make([]*parser.Directive, 0, len(w.stack)+len(w.up)+8), w.stack...)
		w.kept = 0
		steps += len(w.stack)
	}
	for k := len(w.up) - 1; k >= 0; k-- {
		w.stack, w.ids = append(w.stack, ix.Entries[w.up[k]].Directive), append(w.ids, w.up[k])
	}
	ix.countOps(steps + len(w.up))
	return w.stack
}

// KeptStacks hands out the stacks of entries met in reading order (the
// block directives enclosing each, outermost first) as slices to keep.
// They share their arrays: an entry's stack is the one before it up to
// their common ancestor, and only what follows is new, so the stacks of
// a chain of blocks thousands deep cost the chain, not the square of
// its depth as copies would. (A branch that leaves a stack handed out
// copies the part it shares.)
type KeptStacks struct {
	ix *Index
	w  chainWalk
}

// NewKeptStacks returns a KeptStacks over the entries of ix.
func NewKeptStacks(ix *Index) *KeptStacks { return &KeptStacks{ix: ix} }

// At returns the stack of entry i, which must come after the entries
// asked about before. Appending to it copies it.
func (k *KeptStacks) At(i int32) []*parser.Directive {
	st := k.w.at(k.ix, i)
	k.w.kept = max(k.w.kept, len(st))
	return st[:len(st):len(st)]
}

// Model returns the typed view of the configuration, built once per run
// (by the first rule that asks) and shared by every rule.
func (p *Pass) Model() *parser.Model {
	p.shared.modelOnce.Do(func() { p.shared.model = parser.BuildModel(p.Config) })
	return p.shared.model
}

// Index returns the flattened configuration, computed once per run.
func (p *Pass) Index() *Index {
	p.shared.indexOnce.Do(func() {
		p.shared.index = NewIndex(p.Config)
		p.shared.index.ops = p.shared.ops
	})
	return p.shared.index
}

// Result declares a value derived from the configuration that several
// rules need (the cost model, the socket grouping, the variables
// environment): declared once, as a package-level value, and computed at
// most once per run and key however many rules ask, even at the same time.
// It is the typed counterpart of go/analysis's ResultOf.
type Result[K comparable, V any] struct {
	// Name says what the result is.
	Name string
	// Compute builds the value. It must not ask for the same result and
	// key again.
	Compute func(p *Pass, key K) V
}

// Get returns r's value for key in p's run, computing it on first use.
func (r *Result[K, V]) Get(p *Pass, key K) V {
	sh := p.shared
	k := resultKey{r, key}
	sh.mu.Lock()
	e, ok := sh.results[k]
	if !ok {
		if sh.results == nil {
			sh.results = map[resultKey]*memoEntry{}
		}
		e = &memoEntry{}
		sh.results[k] = e
	}
	sh.mu.Unlock()
	e.once.Do(func() { e.v = r.Compute(p, key) })
	return e.v.(V)
}

// Of returns r's value for key in the finished run rs: the value a rule
// computed, or, when no rule asked for it (all of them disabled), computed
// now, once, with the run's target and host facts.
func (r *Result[K, V]) Of(rs *Results, key K) V {
	p := passTemplate(rs.c, rs.opts, rs.sh)
	return r.Get(&p, key)
}

// passTemplate is the part of every Pass of a run that the configuration
// and the run's options decide; each rule's Pass is a copy with its own
// Rule, Options and report.
func passTemplate(c *parser.Config, opts Options, sh *shared) Pass {
	target := opts.Target
	if target == nil {
		target = &Target{}
	}
	var custom map[string]bool
	if len(opts.CustomDirectives) > 0 {
		custom = make(map[string]bool, len(opts.CustomDirectives))
		for _, n := range opts.CustomDirectives {
			custom[n] = true
		}
	}
	var vars []string
	for _, v := range opts.CustomVariables {
		vars = append(vars, strings.ToLower(strings.TrimPrefix(v, "$")))
	}
	return Pass{Config: c, ReadFile: opts.ReadFile, Glob: opts.Glob, Target: target, Host: opts.Host, inputs: opts.inputs, CustomDirectives: custom, CustomVariables: vars, shared: sh}
}

// resultKey tells results and their keys apart in a run's store.
type resultKey struct{ result, key any }

type memoEntry struct {
	once sync.Once
	v    any
}

// shared holds the derived results every Pass of one run reads.
type shared struct {
	// ops is the run's operation counter (Options.Ops), nil when none.
	ops *atomic.Int64
	// cancelled is set once Options.Cancel is closed.
	cancelled atomic.Bool
	indexOnce sync.Once
	index     *Index
	modelOnce sync.Once
	model     *parser.Model

	mu      sync.Mutex
	results map[resultKey]*memoEntry
}

// Options tunes one analysis.
type Options struct {
	// Disabled rules (by name) do not run.
	Disabled map[string]bool
	// Severity overrides a rule's default severity, by name.
	Severity map[string]parser.Severity
	// RuleOptions are passed to each rule by name.
	RuleOptions map[string]map[string]any
	// ReadFile is handed to rules; nil reads the disk.
	ReadFile func(path string) ([]byte, error)
	// Glob is handed to rules; nil globs the disk.
	Glob func(pattern string) ([]string, error)
	// Target is the nginx build linted for; nil is the newest nginx with
	// every module.
	Target *Target
	// Host are the facts about the machine nginx runs on that the
	// startup cost model needs (non-root, open-file limit, CPUs, kernel):
	// run-wide, like Target, so every rule and every front end sees one
	// model.
	Host Host
	// CheckFiles runs the rules marked Host, which check this machine
	// (--check-files, the settings' check-files).
	CheckFiles bool
	// CustomDirectives are directive names to accept as known, for
	// third-party modules (the settings' custom-directives). A run-wide
	// fact rather than a rule option, so every rule can see it.
	CustomDirectives []string
	// Ops, when set, counts the operations of the run: the directives the
	// rules look at and the cost model's steps. For the tests that check
	// how rules scale; nil counts nothing.
	Ops *atomic.Int64
	// CustomVariables are variable names to accept as defined (the
	// settings' custom-variables), for third-party modules: "name", or
	// "prefix_*" for a family.
	CustomVariables []string
	// Cancel, when closed, stops the run: no rule starts after it, and
	// the rules under way stop at their next finding or walk step. What
	// the run returns then is incomplete; the caller that closed Cancel
	// drops it (the language server, when the document changed or the
	// session ends).
	Cancel <-chan struct{}

	// inputs are the values of Inputs given with Input.Set.
	inputs map[any]any
}

// Results are the shared results of one finished run (the typed model,
// the index, every Result the rules computed), so a front end that shows
// what the rules read (nginx-lint cost, the cost model) takes the run's
// value instead of computing it again. See Result.Of.
type Results struct {
	c    *parser.Config
	opts Options
	sh   *shared
}

// ResultsFor returns the shared results of a run of no rule on c under
// opts: for a front end that shows a derived result (the cost model, the
// symbol table) when no run kept one. Each Result is computed when first
// asked for.
func ResultsFor(c *parser.Config, opts Options) *Results {
	return &Results{c: c, opts: opts, sh: &shared{ops: opts.Ops}}
}

// RunRules runs every rule of reg that opts enables on c and returns
// their findings as reported (each rule's own severity; in registry
// order, each rule's in the order it reported them; unsorted) and the
// run's shared results. It is the engine under analyzer/lint.Run, the one
// public way to run rules, which adds the parser's and loader's findings,
// the settings' severities, the suppression comments, the follow-on
// findings, the dedupe and the sort: the key (analyzer/internal/door)
// keeps every package outside analyzer/ from calling it.
func RunRules(_ door.Key, c *parser.Config, reg *Registry, opts Options) ([]*parser.Diagnostic, *Results) {
	rs := ResultsFor(c, opts)
	sh := rs.sh
	if reg == nil {
		return nil, rs
	}
	if opts.Cancel != nil {
		done := make(chan struct{})
		defer close(done)
		go func() {
			select {
			case <-opts.Cancel:
				sh.cancelled.Store(true)
			case <-done:
			}
		}()
	}
	base := passTemplate(c, opts, sh)
	var rules []*Rule
	for _, r := range reg.Rules() {
		if r.runs(&opts) {
			rules = append(rules, r)
		}
	}
	// Rules only read the tree and the shared results (built once under
	// sync.Once or Result's lock), so they run in parallel; each keeps its
	// findings apart, and they are merged in registry order, so the output
	// does not depend on scheduling.
	found := make([][]*parser.Diagnostic, len(rules))
	var next atomic.Int64
	var wg sync.WaitGroup
	workers := min(runtime.GOMAXPROCS(0), len(rules))
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if workers > 1 && w < 2 {
				// The typed model and the index are what most rules wait
				// for, and the model is the longest single step of a run:
				// build both at once, one per worker, instead of whenever
				// the first rule that needs each happens to ask (which can
				// leave a worker idle behind the other's build).
				p := &Pass{Config: c, shared: sh}
				if w == 0 {
					p.Model()
				} else {
					p.Index()
				}
			}
			for {
				i := int(next.Add(1) - 1)
				if i >= len(rules) || sh.cancelled.Load() {
					return
				}
				r := rules[i]
				p := base
				p.Rule, p.Options = r, opts.RuleOptions[r.Name]
				p.report = func(d *parser.Diagnostic) {
					found[i] = append(found[i], d)
				}
				runSafely(&p)
			}
		}()
	}
	wg.Wait()
	n := 0
	for _, f := range found {
		n += len(f)
	}
	out := make([]*parser.Diagnostic, 0, n)
	for _, f := range found {
		out = append(out, f...)
	}
	return out, rs
}

// runSafely keeps one broken rule from taking the whole run down: a panic
// becomes an internal-error finding that names the rule.
func runSafely(p *Pass) {
	defer func() {
		if v := recover(); v != nil && v != errCancelled {
			p.report(&parser.Diagnostic{File: p.Config.Main, Path: p.Config.Main.Path, Severity: parser.Error,
				Code: parser.CodeInternal, Name: parser.NameInternal, Message: fmt.Sprintf("rule %s crashed: %v", p.Rule.Name, v)})
		}
	}()
	p.Rule.Run(p)
}

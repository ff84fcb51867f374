// Package crossplane renders a parsed configuration as the JSON payload of
// NGINX's crossplane tools (crossplane parse), so nginx-lint can stand in
// for them in scripts that consume that format.
package crossplane

import (
	"fmt"
	"strings"

	"github.com/nginx-lint/nginx-lint/parser"
)

// Payload is crossplane's top-level object.
type Payload struct {
	Status string         `json:"status"`
	Errors []PayloadError `json:"errors"`
	Config []ConfigFile   `json:"config"`
}

// PayloadError is an error in the top-level list, which names its file.
type PayloadError struct {
	File  string `json:"file"`
	Error string `json:"error"`
	Line  *int   `json:"line"`
}

// ConfigFile is one parsed file.
type ConfigFile struct {
	File   string        `json:"file"`
	Status string        `json:"status"`
	Errors []ConfigError `json:"errors"`
	Parsed []Directive   `json:"parsed"`
}

// ConfigError is an error in a file's own list.
type ConfigError struct {
	Error string `json:"error"`
	Line  *int   `json:"line"`
}

// Directive is one statement; comments appear as directives named "#".
type Directive struct {
	Directive string       `json:"directive"`
	Line      int          `json:"line"`
	Args      []string     `json:"args"`
	Includes  *[]int       `json:"includes,omitempty"`
	Block     *[]Directive `json:"block,omitempty"`
	Comment   *string      `json:"comment,omitempty"`
}

// Options mirror crossplane's parse flags.
type Options struct {
	// SingleFile leaves include directives unexpanded (--single-file).
	SingleFile bool
	// IncludeComments emits comments as "#" directives (--include-comments).
	IncludeComments bool
	// Check, when set, is asked about each directive with the context of
	// its block (as Kinds numbers them; 0 without Kinds); a non-empty
	// message makes it an error and drops the directive, as crossplane's
	// analyzer does for unknown argument counts.
	Check func(d *parser.Directive, ctx parser.BlockContext) string
	// Kinds gives the context of each block from its parent's, one step
	// a block (not the chain of names from the top for every directive,
	// which a configuration nested thousands deep makes quadratic).
	Kinds parser.DirectiveKinds
	// Withheld, when set, is asked about each file: a non-nil answer
	// means the file's text must not be shown (it is outside the
	// configuration's tree): its entry keeps its path, status and error
	// lines, its errors' messages go through the answer, and its parsed
	// list is empty.
	Withheld func(f *parser.File) (redact func(msg string) string)
}

// withheld returns how f's error messages are redacted, or nil when f
// is shown.
func (o Options) withheld(f *parser.File) func(string) string {
	if o.Withheld == nil {
		return nil
	}
	return o.Withheld(f)
}

// redactErrors passes the messages of errs through redact.
func redactErrors(errs []ConfigError, redact func(string) string) {
	for i := range errs {
		errs[i].Error = redact(errs[i].Error)
	}
}

// Build turns a loaded configuration into a payload. Files are listed in
// crossplane's order: the main file, then included files in the order their
// include directives are met, file by file.
func Build(c *parser.Config, opts Options) *Payload {
	files, index := fileOrder(c, opts)
	loaderErrs := loaderErrors(c)
	p := &Payload{Status: "ok", Errors: []PayloadError{}, Config: []ConfigFile{}}
	for _, f := range files {
		b := &builder{c: c, f: f, opts: opts, index: index}
		cf := ConfigFile{File: f.Path, Status: "ok", Errors: []ConfigError{}}
		cf.Parsed = collect(func(e emitter) { b.walk(f.Directives, f.Comments, b.root(), e) })
		b.fileErrors(loaderErrs[f])
		if redact := opts.withheld(f); redact != nil {
			cf.Parsed = []Directive{}
			redactErrors(b.errs, redact)
		}
		for _, e := range b.errs {
			cf.Status = "failed"
			cf.Errors = append(cf.Errors, e)
			p.Status = "failed"
			p.Errors = append(p.Errors, PayloadError{File: f.Path, Error: e.Error, Line: e.Line})
		}
		p.Config = append(p.Config, cf)
	}
	return p
}

// fileOrder lists the files of c in crossplane's order, and numbers them.
func fileOrder(c *parser.Config, opts Options) ([]*parser.File, map[*parser.File]int) {
	files := []*parser.File{c.Main}
	index := map[*parser.File]int{c.Main: 0}
	if !opts.SingleFile {
		for i := 0; i < len(files); i++ {
			visitIncludes(files[i].Directives, func(d *parser.Directive) {
				for _, f := range c.Included(d) {
					if _, ok := index[f]; !ok {
						index[f] = len(files)
						files = append(files, f)
					}
				}
			})
		}
	}
	return files, index
}

func loaderErrors(c *parser.Config) map[*parser.File][]*parser.Diagnostic {
	loaderErrs := map[*parser.File][]*parser.Diagnostic{}
	for _, d := range c.Diagnostics {
		loaderErrs[d.File] = append(loaderErrs[d.File], d)
	}
	return loaderErrs
}

// fileErrors adds the file's syntax errors that crossplane reports, and
// the loader's, after those the walk found.
func (b *builder) fileErrors(loader []*parser.Diagnostic) {
	for _, d := range b.f.Diagnostics {
		if d.Name == parser.NameSyntax && !isAfterQuote(d) && !cutsStatement(d) {
			b.errorAt(d.Start().Line, d.Message)
		}
	}
	for _, d := range loader {
		b.errorAt(d.Start().Line, d.Message)
	}
}

// emitter receives each directive of a list the walk keeps, in order; a
// block directive comes with block, which walks its block with the
// emitter it is given (x.Block is not set).
type emitter func(x Directive, block func(emitter))

// collect gathers what walk emits into a list, blocks included.
func collect(walk func(emitter)) []Directive {
	out := []Directive{}
	walk(func(x Directive, block func(emitter)) {
		if block != nil {
			inner := collect(block)
			x.Block = &inner
		}
		out = append(out, x)
	})
	return out
}

// isAfterQuote reports whether d is nginx's complaint about a character
// glued to a closing quote, which crossplane accepts silently by starting
// a new argument there.
func isAfterQuote(d *parser.Diagnostic) bool {
	if !strings.HasPrefix(d.Message, "unexpected \"") || d.File == nil || d.Range.Start == 0 {
		return false
	}
	prev := d.File.Src[d.Range.Start-1]
	return prev == '"' || prev == '\''
}

// cutsStatement reports whether d is nginx's `unexpected "}"` for a "}" that
// cut a statement short (the parser explains those in the detail);
// crossplane reports that statement as not terminated instead.
func cutsStatement(d *parser.Diagnostic) bool {
	return d.Message == `unexpected "}"` && strings.HasPrefix(d.Detail, "directive ")
}

type builder struct {
	c     *parser.Config
	f     *parser.File
	opts  Options
	index map[*parser.File]int
	errs  []ConfigError
}

func (b *builder) errorAt(line int, msg string) {
	l := line
	b.errs = append(b.errs, ConfigError{Error: fmt.Sprintf("%s in %s:%d", msg, b.f.Path, line), Line: &l})
}

// walk emits the directives of dirs, and the comments among them, in
// crossplane's order.
// root is the context of a file's top level: the blocks the main file
// is read inside (every file is read there, as crossplane does).
func (b *builder) root() parser.BlockContext {
	if b.opts.Kinds == nil {
		return 0
	}
	return b.opts.Kinds.Root(b.c.Context)
}

func (b *builder) walk(dirs []*parser.Directive, comments []*parser.Comment, context parser.BlockContext, emit emitter) {
	ci := 0
	emitComment := func(c *parser.Comment, line int) {
		if !b.opts.IncludeComments {
			return
		}
		// crossplane drops a backslash that ends a comment line.
		text := strings.TrimSuffix(c.Text, "\\")
		emit(Directive{Directive: "#", Line: line, Args: []string{}, Comment: &text}, nil)
	}
	for _, d := range dirs {
		start := d.Name().Range.Start
		for ci < len(comments) && comments[ci].Range.Start < start {
			emitComment(comments[ci], b.f.Line(int(comments[ci].Range.Start)))
			ci++
		}
		line := d.Line()
		if x, block, ok := b.directive(d, line, context); ok {
			emit(x, block)
		}
		// crossplane gives comments met between a directive's words the
		// directive's line and lists them after it.
		end := d.HeadRange().End
		switch {
		case d.Semicolon() >= 0:
			end = d.Semicolon()
		case d.LBrace() >= 0:
			end = d.LBrace()
		}
		for ci < len(comments) && comments[ci].Range.Start < end {
			emitComment(comments[ci], line)
			ci++
		}
	}
	for ; ci < len(comments); ci++ {
		emitComment(comments[ci], b.f.Line(int(comments[ci].Range.Start)))
	}
}

func (b *builder) directive(d *parser.Directive, line int, context parser.BlockContext) (Directive, func(emitter), bool) {
	name := d.Name().Value
	if d.Unterminated() && d.Block == nil && !d.RawBlock() && d.Semicolon() < 0 {
		if d.RBrace() < 0 && d.LBrace() < 0 {
			b.errorAt(line, fmt.Sprintf("directive %q is not terminated by \";\"", name))
		}
		return Directive{}, nil, false
	}
	if b.opts.Check != nil {
		if msg := b.opts.Check(d, context); msg != "" {
			b.errorAt(line, msg)
			return Directive{}, nil, false
		}
	}
	if d.Name().Quote(d.File) != 0 {
		name = value(d.File, d.Name())
	}
	x := Directive{Directive: name, Line: line, Args: args(d)}
	if name == "include" && !b.opts.SingleFile {
		inc := []int{}
		for _, f := range b.c.Included(d) {
			if i, ok := b.index[f]; ok {
				inc = append(inc, i)
			}
		}
		x.Includes = &inc
	}
	var block func(emitter)
	if d.Block != nil {
		var inner parser.BlockContext
		if b.opts.Kinds != nil && context != 0 {
			inner = b.opts.Kinds.Child(context, name)
		}
		block = func(e emitter) { b.walk(d.Block.Directives, d.Block.Comments(), inner, e) }
	}
	return x, block, true
}

// args returns the argument values, with crossplane's one liberty: the
// parentheses around an "if" condition are dropped.
func args(d *parser.Directive) []string {
	out := make([]string, 0, len(d.Args()))
	for _, a := range d.Args() {
		out = append(out, value(d.File, a))
	}
	if d.Name().Value == "if" && len(out) > 0 {
		out[0] = strings.TrimPrefix(out[0], "(")
		if out[0] == "" {
			out = out[1:]
		}
		if n := len(out); n > 0 {
			out[n-1] = strings.TrimSuffix(out[n-1], ")")
			if out[n-1] == "" {
				out = out[:n-1]
			}
		}
	}
	return out
}

// value renders a word as crossplane does, which differs from nginx: only
// an escaped quote of the enclosing kind is unescaped, every other
// backslash sequence (\n, \t, \\) stays as written.
func value(f *parser.File, w parser.Word) string {
	raw := w.Raw(f)
	if w.Quote(f) == 0 || w.Range.Len() < 2 {
		return raw
	}
	inner := raw[1:]
	if !w.Unterminated(f) {
		inner = inner[:len(inner)-1]
	}
	if !strings.Contains(inner, "\\") {
		return inner
	}
	q := string(w.Quote(f))
	return strings.ReplaceAll(inner, "\\"+q, q)
}

func visitIncludes(dirs []*parser.Directive, fn func(*parser.Directive)) {
	for _, d := range dirs {
		if d.Name().Value == "include" {
			fn(d)
		}
		if d.Block != nil {
			visitIncludes(d.Block.Directives, fn)
		}
	}
}

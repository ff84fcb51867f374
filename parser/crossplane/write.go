package crossplane

import (
	"bufio"
	"encoding/json"
	"io"

	"github.com/nginx-lint/nginx-lint/parser"
)

// Write writes the payload of c to w as encoding/json's Encoder writes
// Build's (indented by indent, compact when it is empty, a newline
// after), byte for byte (but for indentation deeper than maxIndentDepth),
// without building it: the payload of a dense
// configuration, as Go values and then as one buffer of JSON, took
// ninety times the file's size. It reads the tree twice, once for the
// errors (which come before the directives) and once to write, and
// returns the payload's status ("ok" or "failed").
func Write(w io.Writer, c *parser.Config, opts Options, indent string) (string, error) {
	files, index := fileOrder(c, opts)
	loaderErrs := loaderErrors(c)
	errs := make([][]ConfigError, len(files))
	status := "ok"
	for i, f := range files {
		b := &builder{c: c, f: f, opts: opts, index: index}
		var skip emitter
		skip = func(_ Directive, block func(emitter)) {
			if block != nil {
				block(skip)
			}
		}
		b.walk(f.Directives, f.Comments, b.root(), skip)
		b.fileErrors(loaderErrs[f])
		if redact := opts.withheld(f); redact != nil {
			redactErrors(b.errs, redact)
		}
		errs[i] = b.errs
		if len(b.errs) > 0 {
			status = "failed"
		}
	}

	bw := bufio.NewWriterSize(w, 64<<10)
	jw := &jsonWriter{w: bw}
	if indent != "" {
		jw.ind = &indenter{w: bw, indent: indent}
	}
	jw.raw(`{"status":`)
	jw.value(status)
	jw.raw(`,"errors":[`)
	n := 0
	for i, f := range files {
		for _, e := range errs[i] {
			if n > 0 {
				jw.raw(",")
			}
			n++
			jw.value(PayloadError{File: f.Path, Error: e.Error, Line: e.Line})
		}
	}
	jw.raw(`],"config":[`)
	for i, f := range files {
		if i > 0 {
			jw.raw(",")
		}
		st := "ok"
		if len(errs[i]) > 0 {
			st = "failed"
		}
		jw.raw(`{"file":`)
		jw.value(f.Path)
		jw.raw(`,"status":`)
		jw.value(st)
		jw.raw(`,"errors":`)
		if errs[i] == nil {
			errs[i] = []ConfigError{}
		}
		jw.value(errs[i])
		jw.raw(`,"parsed":`)
		if opts.withheld(f) != nil {
			jw.raw("[]")
		} else {
			b := &builder{c: c, f: f, opts: opts, index: index}
			jw.list(func(e emitter) { b.walk(f.Directives, f.Comments, b.root(), e) })
		}
		jw.raw("}")
	}
	jw.raw("]}\n")
	if jw.err == nil {
		jw.err = bw.Flush()
	}
	return status, jw.err
}

// head is a Directive without its block and comment, which the writer
// puts after it.
type head struct {
	Directive string   `json:"directive"`
	Line      int      `json:"line"`
	Args      []string `json:"args"`
	Includes  *[]int   `json:"includes,omitempty"`
}

// jsonWriter writes compact JSON, through an indenter when there is one.
type jsonWriter struct {
	w   *bufio.Writer
	ind *indenter
	err error
}

func (j *jsonWriter) raw(s string) { j.write([]byte(s)) }

func (j *jsonWriter) write(b []byte) {
	if j.err != nil {
		return
	}
	if j.ind != nil {
		j.err = j.ind.write(b)
		return
	}
	_, j.err = j.w.Write(b)
}

// value writes v as encoding/json marshals it (HTML characters escaped,
// as the Encoder does by default).
func (j *jsonWriter) value(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		if j.err == nil {
			j.err = err
		}
		return
	}
	j.write(b)
}

// list writes the directives walk emits as a JSON array.
func (j *jsonWriter) list(walk func(emitter)) {
	j.raw("[")
	n := 0
	emit := func(x Directive, block func(emitter)) {
		if n > 0 {
			j.raw(",")
		}
		n++
		b, err := json.Marshal(head{Directive: x.Directive, Line: x.Line, Args: x.Args, Includes: x.Includes})
		if err != nil {
			if j.err == nil {
				j.err = err
			}
			return
		}
		j.write(b[:len(b)-1]) // without the closing brace
		if block != nil {
			j.raw(`,"block":`)
			j.list(block)
		}
		if x.Comment != nil {
			j.raw(`,"comment":`)
			j.value(*x.Comment)
		}
		j.raw("}")
	}
	walk(emit)
	j.raw("]")
}

// maxIndentDepth is the deepest indentation the indenter writes, two
// JSON levels for each block (an object and its "block" list), as fmt
// stops at 64 blocks: past it, lines are indented as deep as that. Each
// level indenting further made the payload of 13,000 nested locations
// (a 170 KB file nginx reads) two gigabytes, growing with the square of
// the depth.
const maxIndentDepth = 128

// indenter indents compact JSON as encoding/json's Indent does (up to
// maxIndentDepth), as it
// streams through: a newline and the indent after "{", "[" and ",", none
// inside an empty object or array, ": " after a key.
type indenter struct {
	w      *bufio.Writer
	indent string
	depth  int
	// need is set after "{" or "[": the newline waits for the next byte,
	// which may close the object or array at once.
	need     bool
	inString bool
	escaped  bool
}

func (ind *indenter) newline() error {
	if err := ind.w.WriteByte('\n'); err != nil {
		return err
	}
	for range min(ind.depth, maxIndentDepth) {
		if _, err := ind.w.WriteString(ind.indent); err != nil {
			return err
		}
	}
	return nil
}

func (ind *indenter) write(b []byte) error {
	for _, c := range b {
		if ind.inString {
			switch {
			case ind.escaped:
				ind.escaped = false
			case c == '\\':
				ind.escaped = true
			case c == '"':
				ind.inString = false
			}
			if err := ind.w.WriteByte(c); err != nil {
				return err
			}
			continue
		}
		if ind.need && c != '}' && c != ']' {
			ind.need = false
			ind.depth++
			if err := ind.newline(); err != nil {
				return err
			}
		}
		var err error
		switch c {
		case '"':
			ind.inString = true
			err = ind.w.WriteByte(c)
		case '{', '[':
			ind.need = true
			err = ind.w.WriteByte(c)
		case ',':
			if err = ind.w.WriteByte(c); err == nil {
				err = ind.newline()
			}
		case ':':
			_, err = ind.w.WriteString(": ")
		case '}', ']':
			if ind.need {
				ind.need = false
			} else {
				ind.depth--
				err = ind.newline()
			}
			if err == nil {
				err = ind.w.WriteByte(c)
			}
		default:
			err = ind.w.WriteByte(c)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

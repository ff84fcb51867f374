// Package symbols is the symbol table of a configuration: the names it
// defines (upstreams, named locations, variables, zones, log formats,
// regex captures) and the certificates it reads, and every place each is
// defined and used, with its range, read as nginx reads them. It is
// built once per run from the directive index (Result): the rules that
// ask whether a name is defined, and the language server's references,
// rename, definition, highlight and hover, are lookups in it.
//
// The readings of what a directive defines or names (readings.go:
// DefiningArg, CaptureNames, ParsePass, ZoneOf, RegexArgs, Regexes) and
// of the variables the arguments nginx compiles use (uses.go: ReadUses,
// with script.Tokens, the one scanner of "$name") are this package's, and
// the rules read them and the table from here, so the rules and the
// language server agree on what a name is: upstream and variable names
// fold case as nginx does, and http {} and stream {} keep their names
// apart.
package symbols

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/script"
	"github.com/nginx-lint/nginx-lint/parser"
)

// Kind is what a symbol names.
type Kind uint8

// The kinds of symbols.
const (
	// Upstream is an upstream block, named by *_pass addresses.
	Upstream Kind = iota + 1
	// NamedLocation is a location "@name", named by try_files,
	// error_page and post_action.
	NamedLocation
	// Variable is a "$name".
	Variable
	// Zone is a shared memory zone: defined with a size
	// (limit_req_zone ... zone=x:10m, proxy_cache_path ... keys_zone=x:10m,
	// an upstream's zone x 64k), used by name (limit_req zone=x,
	// proxy_cache x). nginx keeps one list for the whole configuration.
	Zone
	// LogFormat is a log_format, named by access_log.
	LogFormat
	// Capture is a numbered capture, $1-$9, of one regex: its Name is the
	// digit, "@", and the index entry of the directive whose regex it is.
	// Its definition is the regex's word.
	Capture
	// Certificate is a certificate, key, CA or CRL file a directive
	// reads at startup (ssl_certificate, ssl_certificate_key,
	// ssl_trusted_certificate, ssl_client_certificate, ssl_crl and their
	// proxy_, grpc_ and uwsgi_ forms), named by its path as written. The
	// configuration does not define one: the file does.
	Certificate
)

// String names the kind for messages.
func (k Kind) String() string {
	switch k {
	case Upstream:
		return "upstream"
	case NamedLocation:
		return "named location"
	case Zone:
		return "zone"
	case LogFormat:
		return "log format"
	case Capture:
		return "capture"
	case Certificate:
		return "certificate"
	}
	return "variable"
}

// Sigil is what is written before a name of kind k: "$" for variables
// and captures, "@" for named locations, "" for the others.
func (k Kind) Sigil() string {
	switch k {
	case Variable, Capture:
		return "$"
	case NamedLocation:
		return "@"
	}
	return ""
}

// BuiltIn reports whether s names a variable an nginx module provides
// (the tables'), which the configuration cannot rename.
func (s Symbol) BuiltIn() bool {
	if s.Kind != Variable {
		return false
	}
	_, ok := directives.LookupVariable(s.Name)
	return ok
}

// Symbol is a name of a configuration.
type Symbol struct {
	Kind Kind
	// Name is the name as nginx compares it, without "@" or "$":
	// lower-cased for upstreams (ngx_http_upstream_add compares with
	// ngx_strncasecmp), variables (ngx_http_get_variable_index
	// lower-cases) and log formats (access_log looks them up with
	// ngx_strcasecmp); as written for named locations and zones (compared
	// exactly).
	Name string
	// Stream is set for a name of stream {}: it and http {} keep
	// upstreams, variables and log formats apart (zones are shared).
	Stream bool
}

// UpstreamSymbol is the symbol of an upstream name in http {} (or
// stream {}, when stream is set), folded as nginx compares it.
func UpstreamSymbol(name string, stream bool) Symbol {
	return Symbol{Upstream, strings.ToLower(name), stream}
}

// VariableSymbol is the symbol of a variable name (without "$"), folded
// as nginx compares it.
func VariableSymbol(name string, stream bool) Symbol {
	return Symbol{Variable, strings.ToLower(name), stream}
}

// LogFormatSymbol is the symbol of a log format name, folded as nginx
// compares it.
func LogFormatSymbol(name string, stream bool) Symbol {
	return Symbol{LogFormat, strings.ToLower(name), stream}
}

// Occurrence is one place a symbol is written.
type Occurrence struct {
	Symbol Symbol
	File   *parser.File
	// Range covers the name alone (no "@" or "$"), so a rename replaces
	// exactly it; for an Opaque occurrence, the whole word.
	Range parser.Range
	// Def is set where the symbol is defined.
	Def bool
	// Opaque: the name is in a word written with escapes, so it is not
	// at its place in the source; listed, but it cannot be edited in
	// place.
	Opaque bool
	// Capture is set for a definition by a named group of a regex.
	Capture bool
	// Entry is the index entry of the directive it is in.
	Entry int32
}

// Table is the symbol table of one configuration. It is built in two
// steps: the definitions when it is built (what the rules read: a lint
// keeps nothing more); the uses, which mean a look at every argument of
// the configuration, on the first question that needs them (the
// language server's). Both are safe to read from several goroutines.
type Table struct {
	ix *analyzer.Index
	// occs and defsBy are the definitions, by symbol in reading order;
	// definers the entries that define each symbol, once per inclusion
	// of their file. The first step's, never written after Build.
	occs     []Occurrence
	defsBy   map[Symbol][]int32
	definers map[Symbol][]int32

	usesOnce sync.Once
	// all, bySym, byFile and captures are the second step's: every
	// occurrence, by symbol and by file (not opaque, by start), and the
	// numbered captures used.
	all      []Occurrence
	bySym    map[Symbol][]int32
	byFile   map[string][]int32
	captures map[Symbol]bool
}

// Result is the table, built once per run.
var Result = &analyzer.Result[struct{}, *Table]{
	Name:    "symbol table",
	Compute: func(p *analyzer.Pass, _ struct{}) *Table { return Build(p.Index()) },
}

// Of returns the run's symbol table (Result), built once and shared by
// the rules.
func Of(p *analyzer.Pass) *Table { return Result.Get(p, struct{}{}) }

// namedLocationUses are the directives whose last argument may name a
// location "@name".
var namedLocationUses = map[string]bool{"try_files": true, "error_page": true, "post_action": true}

// builder adds the occurrences of one step to a table.
type builder struct {
	t  *Table
	ix *analyzer.Index
	// uses is set in the second step.
	uses bool
	// seen holds the definitions added (first step): a file included
	// twice is one place.
	seen map[occKey]bool
	// capture is set while a regex's named groups are added.
	capture bool
}

// occKey is one place a symbol is written.
type occKey struct {
	path  string
	start int32
	sym   Symbol
}

// add adds an occurrence of sym at r in entry i: a definition in the
// first step, a use in the second.
func (b *builder) add(i int32, sym Symbol, r parser.Range, def bool) {
	if def == b.uses {
		return
	}
	t := b.t
	f := b.ix.Entries[i].Directive.File
	o := Occurrence{Symbol: sym, File: f, Range: r, Def: def, Capture: b.capture, Entry: i}
	if r.Len() == 0 {
		o.Opaque, o.Range = true, wordAt(f, int(r.Start))
	}
	if def {
		if l := t.definers[sym]; len(l) == 0 || l[len(l)-1] != i {
			t.definers[sym] = append(l, i)
		}
		k := occKey{f.Path, r.Start, sym}
		if b.seen[k] {
			return
		}
		b.seen[k] = true
		t.defsBy[sym] = append(t.defsBy[sym], int32(len(t.occs)))
		t.occs = append(t.occs, o)
		return
	}
	n := int32(len(t.all))
	t.all = append(t.all, o)
	t.bySym[sym] = append(t.bySym[sym], n)
	if !o.Opaque {
		t.byFile[f.Path] = append(t.byFile[f.Path], n)
	}
}

// Build reads the definitions of the configuration ix indexes from the
// directives that can make them, visited by name, so that a
// configuration of a hundred thousand servers with a listen each costs
// nothing here.
func Build(ix *analyzer.Index) *Table {
	t := &Table{ix: ix, defsBy: map[Symbol][]int32{}, definers: map[Symbol][]int32{}}
	b := &builder{t: t, ix: ix, seen: map[occKey]bool{}}
	for _, name := range ix.Names() {
		if k := kindOf(name); k&defKinds != 0 {
			for _, i := range ix.Named(name) {
				b.entry(i, k)
			}
		}
	}
	// The lines of map blocks, whose regex keys define their named
	// groups (Named leaves them out), and of blocks whose lines define
	// the variable they name (geoip2's).
	for _, p := range blockLines(ix) {
		for j, end := p+1, ix.End(p); j < end; j++ {
			if e := &ix.Entries[j]; e.Parent == p {
				// (One read in the first loop adds nothing twice.)
				b.entry(j, kindOf(e.Directive.Name().Value))
			}
		}
	}
	// Definitions are listed in reading order.
	for sym, list := range t.defsBy {
		if len(list) > 1 {
			sort.Slice(list, func(i, j int) bool {
				a, b := &t.occs[list[i]], &t.occs[list[j]]
				return a.Entry < b.Entry || a.Entry == b.Entry && a.Range.Start < b.Range.Start
			})
		}
		t.defsBy[sym] = slices.Clip(list)
	}
	for sym, list := range t.definers {
		if len(list) > 1 {
			slices.Sort(list)
			t.definers[sym] = slices.Compact(list)
		}
	}
	t.occs = slices.Clip(t.occs)
	return t
}

// blockLines returns the entries of the blocks whose lines Named leaves
// out or that define variables by their lines: map, and the third-party
// blocks the tables say define one per line.
func blockLines(ix *analyzer.Index) []int32 {
	var out []int32
	for _, name := range ix.Names() {
		lines := name == "map"
		for _, row := range directives.Lookup(name) {
			lines = lines || row.DefinesBlockLines()
		}
		if lines {
			out = append(out, ix.Named(name)...)
		}
	}
	return out
}

// nameKind is what a directive's name says it may define or name, read
// once per name rather than per directive.
type nameKind uint16

const (
	kUpstream nameKind = 1 << iota
	kPass
	kLocation
	kNamedLocationUse
	kLogFormat
	kAccessLog
	kZone
	kDefines // DefiningArg may answer
	kUnknown // no table knows the name: its "$name" arguments may define variables
	kRegex   // it may have a regex argument
	kLine    // "$name": a line of a block whose lines define variables
	kCertificate
)

// defKinds and useKinds are the kinds of names whose directives may
// define a symbol, and name one other than a variable.
const (
	defKinds = kUpstream | kLocation | kLogFormat | kZone | kDefines | kUnknown | kRegex | kLine
	useKinds = kPass | kNamedLocationUse | kAccessLog | kZone | kCertificate
)

// kindOf returns what a directive named name may define or name; 0 for
// nothing.
func kindOf(name string) nameKind {
	var k nameKind
	set := func(b bool, f nameKind) {
		if b {
			k |= f
		}
	}
	set(name == "upstream", kUpstream)
	set(directives.IsPass(name), kPass)
	set(name == "location", kLocation)
	set(namedLocationUses[name], kNamedLocationUse)
	set(name == "log_format", kLogFormat)
	set(name == "access_log", kAccessLog)
	set(slices.Contains(zoneDirectives, name), kZone)
	_, defines := definerArgs()[name]
	set(defines || name == "geo", kDefines)
	set(len(directives.Lookup(name)) == 0, kUnknown)
	set(slices.Contains(regexDirectives, name) || strings.HasPrefix(name, "~"), kRegex)
	set(len(name) > 1 && name[0] == '$', kLine)
	set(IsCertificate(name), kCertificate)
	return k
}

// entry adds what entry i defines (first step) or names other than
// variables (second step).
func (b *builder) entry(i int32, k nameKind) {
	ix := b.ix
	e := &ix.Entries[i]
	d := e.Directive
	f := d.File
	stream := inStream(ix, i)
	switch {
	case k&kUpstream != 0 && d.Block != nil && len(d.Args()) == 1 && e.Context()&(directives.HTTP|directives.Stream) != 0:
		w := d.Args()[0]
		if w.Value != "" {
			b.add(i, UpstreamSymbol(w.Value, stream), sub(f, w, 0, len(w.Value)), true)
		}
	case k&kPass != 0 && e.Context() != 0:
		if host, at, ok := passName(d, stream); ok {
			b.add(i, UpstreamSymbol(host, stream), sub(f, d.Args()[0], at, len(host)), false)
		}
	case k&kLocation != 0 && len(d.Args()) == 1 && len(d.Args()[0].Value) > 1 && d.Args()[0].Value[0] == '@':
		w := d.Args()[0]
		b.add(i, Symbol{Kind: NamedLocation, Name: w.Value[1:]}, sub(f, w, 1, len(w.Value)-1), true)
	case k&kNamedLocationUse != 0 && len(d.Args()) > 0 && e.Context() != 0:
		if w := d.Args()[len(d.Args())-1]; len(w.Value) > 1 && w.Value[0] == '@' {
			b.add(i, Symbol{Kind: NamedLocation, Name: w.Value[1:]}, sub(f, w, 1, len(w.Value)-1), false)
		}
	case k&kLogFormat != 0 && len(d.Args()) > 0 && e.Context() != 0:
		w := d.Args()[0]
		b.add(i, LogFormatSymbol(w.Value, stream), sub(f, w, 0, len(w.Value)), true)
	case k&kAccessLog != 0 && len(d.Args()) > 1 && d.Args()[0].Value != "off" && e.Context() != 0:
		w := d.Args()[1]
		b.add(i, LogFormatSymbol(w.Value, stream), sub(f, w, 0, len(w.Value)), false)
	case k&kCertificate != 0 && e.Context() != 0 && len(d.Args()) == 1:
		// A path with variables is read per request; data: and
		// engine: values name no file.
		if w := d.Args()[0]; w.Value != "" && !strings.Contains(w.Value, "$") && !strings.HasPrefix(w.Value, "data:") && !strings.HasPrefix(w.Value, "engine:") {
			b.add(i, Symbol{Kind: Certificate, Name: w.Value}, sub(f, w, 0, len(w.Value)), false)
		}
	case k&kZone != 0 && e.Context() != 0:
		if z, at, ok := zoneName(e); ok {
			b.add(i, Symbol{Kind: Zone, Name: z.Name}, sub(f, z.Word, at, len(z.Name)), z.Sized)
		}
	}
	if b.uses {
		return
	}
	variable := func(n string) Symbol { return VariableSymbol(n, stream) }
	// Definitions: the directives nginx defines a variable with, the
	// named groups of regexes, the lines of blocks whose lines name
	// variables (geoip2), and the "$name" arguments of a directive
	// nginx-lint does not know (which may define them, as the
	// unknown-variable rule assumes).
	def := func(w parser.Word) {
		if len(w.Value) > 1 && w.Value[0] == '$' {
			b.add(i, variable(w.Value[1:]), sub(f, w, 1, len(w.Value)-1), true)
		}
	}
	body := e.Context()&(directives.Map|directives.StreamMap|directives.Geo|directives.StreamGeo) != 0
	if k&(kDefines|kUnknown) != 0 && e.Context() != 0 && !body {
		if j, ok := DefiningArg(d); ok {
			def(d.Args()[j])
		} else if !e.Known && !d.RawBlock() {
			for _, a := range d.Args() {
				def(a)
			}
		}
	}
	if k&kLine != 0 && e.Parent >= 0 {
		if row := ix.Entries[e.Parent].Row(); row != nil && row.DefinesBlockLines() {
			def(d.Name())
		}
	}
	if k&kRegex == 0 {
		return
	}
	b.capture = true
	CaptureNames(e, func(w parser.Word, n string, at int) {
		if at < 0 {
			b.add(i, variable(n), parser.Range{Start: w.Range.Start, End: w.Range.Start}, true)
			return
		}
		b.add(i, variable(n), sub(f, w, at, len(n)), true)
	})
	b.capture = false
}

// uses makes the second step once: the uses of every symbol, the
// definitions first.
func (t *Table) uses() {
	t.usesOnce.Do(func() {
		ix := t.ix
		t.all = slices.Clip(t.occs)
		t.bySym = make(map[Symbol][]int32, len(t.defsBy))
		for sym, list := range t.defsBy {
			t.bySym[sym] = list // clipped: an append copies it
		}
		t.byFile = map[string][]int32{}
		t.captures = map[Symbol]bool{}
		// Where each entry defines a variable: a "$name" there is no
		// use.
		defAt := map[int32][]int32{}
		for n, o := range t.all {
			if !o.Opaque {
				t.byFile[o.File.Path] = append(t.byFile[o.File.Path], int32(n))
			}
			if o.Symbol.Kind == Variable {
				defAt[o.Entry] = append(defAt[o.Entry], o.Range.Start)
			}
		}
		again := rereads(ix)
		b := &builder{t: t, ix: ix, uses: true}
		for _, name := range ix.Names() {
			if k := kindOf(name); k&useKinds != 0 {
				for _, i := range ix.Named(name) {
					if !again[i] {
						b.entry(i, k)
					}
				}
			}
		}
		for i := range ix.Entries {
			if !again[i] {
				t.entryUses(b, int32(i), defAt[int32(i)])
			}
		}
		for path, list := range t.byFile {
			sort.Slice(list, func(i, j int) bool { return t.all[list[i]].Range.Start < t.all[list[j]].Range.Start })
			t.byFile[path] = list
		}
	})
}

// rereads marks the entries of a file included again: its text was read
// at its first inclusion, and a place in it is one occurrence. (In
// reading order the directives of one inclusion of a file come at
// growing offsets; a later inclusion starts again.)
func rereads(ix *analyzer.Index) []bool {
	again := make([]bool, len(ix.Entries))
	end := map[*parser.File]int32{}
	var last *parser.File
	lastEnd := int32(-1)
	for i := range ix.Entries {
		d := ix.Entries[i].Directive
		if d.File != last {
			if last != nil {
				end[last] = lastEnd
			}
			last = d.File
			var ok bool
			if lastEnd, ok = end[last]; !ok {
				lastEnd = -1
			}
		}
		if d.Name().Range.Start <= lastEnd {
			again[i] = true
			continue
		}
		lastEnd = d.Name().Range.Start
	}
	return again
}

// entryUses adds the variables and captures entry i uses. Uses may be
// in any argument nginx compiles: every argument is read, except where
// "$" is only text: Lua bodies, the values of geo, split_clients and
// types blocks. defAt holds the starts of the variables the entry
// defines.
func (t *Table) entryUses(b *builder, i int32, defAt []int32) {
	ix := t.ix
	e := &ix.Entries[i]
	d := e.Directive
	if e.Parent >= 0 {
		switch ix.Entries[e.Parent].Directive.Name().Value {
		case "geo", "split_clients", "types":
			return
		}
	}
	args := d.Args()
	if d.RawBlock() && len(args) > 0 {
		args = args[:len(args)-1]
	}
	f := d.File
	stream := false
	inStreamOnce := false
	for _, w := range args {
		if strings.IndexByte(w.Value, '$') < 0 {
			continue
		}
		if !inStreamOnce {
			stream, inStreamOnce = inStream(ix, i), true
		}
		start, plain := w.ValueStart(f)
		for tok := range script.Tokens(w.Value) {
			switch tok.Kind {
			case script.Capture:
				// $1-$9: a capture of the regex in scope.
				if p, r, ok := captureScope(ix, i, w.Range); ok && plain {
					sym := Symbol{Kind: Capture, Name: tok.Name + "@" + strconv.Itoa(int(p))}
					if !t.captures[sym] {
						t.captures[sym] = true
						n := int32(len(t.all))
						t.all = append(t.all, Occurrence{Symbol: sym, File: ix.Entries[p].Directive.File, Range: r, Def: true, Entry: p})
						t.bySym[sym] = append(t.bySym[sym], n)
					}
					b.add(i, sym, parser.Span(start+tok.Start+1, start+tok.End), false)
				}
			case script.Variable:
				sym := VariableSymbol(tok.Name, stream)
				if !plain {
					if !slices.Contains(defAt, w.Range.Start) {
						b.add(i, sym, parser.Range{Start: w.Range.Start, End: w.Range.Start}, false)
					}
					continue
				}
				// The name alone: after "$" or "${".
				at := start + tok.Start + 1
				if tok.Text[1] == '{' {
					at++
				}
				if r := parser.Span(at, at+len(tok.Name)); !slices.Contains(defAt, r.Start) {
					b.add(i, sym, r, false)
				}
			}
		}
	}
}

// captureScope returns the entry whose regex the $1-$9 in word w of
// entry i refer to, and the regex's range: the directive's own regex when
// it has one in another word (rewrite, proxy_redirect, a map line), else
// that of the nearest enclosing if or location with one, else a regex
// server_name of the server around it. (At run time the captures are
// those of the last regex matched; this is the one that encloses the use.)
func captureScope(ix *analyzer.Index, i int32, w parser.Range) (int32, parser.Range, bool) {
	var found parser.Range
	ok := false
	own := func(j int32) {
		RegexArgs(&ix.Entries[j], func(r Regex) bool {
			if r.Range != w {
				found, ok = r.Range, true
			}
			return !ok
		})
	}
	if own(i); ok {
		return i, found, true
	}
	for p := ix.Entries[i].Parent; p >= 0; p = ix.Entries[p].Parent {
		switch ix.Entries[p].Directive.Name().Value {
		case "if", "location":
			if own(p); ok {
				return p, found, true
			}
		case "server":
			for j, end := p+1, ix.End(p); j < end; j++ {
				if e := &ix.Entries[j]; e.Parent == p && e.Directive.Name().Value == "server_name" {
					if own(j); ok {
						return j, found, true
					}
				}
			}
			return 0, found, false
		}
	}
	return 0, found, false
}

// inStream reports whether entry i is inside stream {}: by its context,
// or, in a block whose body the tables do not describe (geoip2's), by
// the nearest block's that they do.
func inStream(ix *analyzer.Index, i int32) bool {
	for i >= 0 && ix.Entries[i].Context() == 0 {
		i = ix.Entries[i].Parent
	}
	return i >= 0 && ix.Entries[i].Context()&directives.StreamContexts != 0
}

// sub returns the range of n bytes at byte at of w's value, or an empty
// range at w's start (opaque) when the value is not its source.
func sub(f *parser.File, w parser.Word, at, n int) parser.Range {
	if start, ok := w.ValueStart(f); ok {
		return parser.Span(start+at, start+at+n)
	}
	return parser.Range{Start: w.Range.Start, End: w.Range.Start}
}

// At returns the occurrence whose name is at byte off of the file at
// path ("$" and "@" count as on the name); ok is false when there is
// none.
func (t *Table) At(path string, off int) (o Occurrence, ok bool) {
	t.uses()
	list := t.byFile[path]
	i := sort.Search(len(list), func(i int) bool { return int(t.all[list[i]].Range.End) >= off })
	for ; i < len(list); i++ {
		o := t.all[list[i]]
		start := int(o.Range.Start)
		if k := o.Symbol.Kind; k == Variable || k == NamedLocation {
			start-- // the sigil
		}
		if start > off {
			break
		}
		if off <= int(o.Range.End) {
			return o, true
		}
	}
	return Occurrence{}, false
}

// In returns the occurrences whose names lie within r of the file at
// path, by start (a *_pass word holds one name after its scheme).
func (t *Table) In(path string, r parser.Range) []Occurrence {
	t.uses()
	list := t.byFile[path]
	i := sort.Search(len(list), func(i int) bool { return t.all[list[i]].Range.Start >= r.Start })
	var out []Occurrence
	for ; i < len(list) && t.all[list[i]].Range.End <= r.End; i++ {
		out = append(out, t.all[list[i]])
	}
	return out
}

// Occurrences lists where sym is defined and used, in file and offset
// order; nil for a variable the configuration does not define (a
// built-in one, or an unknown one).
func (t *Table) Occurrences(sym Symbol) []Occurrence {
	if sym.Kind == Variable && len(t.definers[sym]) == 0 {
		return nil
	}
	t.uses()
	out := make([]Occurrence, 0, len(t.bySym[sym]))
	for _, i := range t.bySym[sym] {
		out = append(out, t.all[i])
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].File.Path != out[j].File.Path {
			return out[i].File.Path < out[j].File.Path
		}
		return out[i].Range.Start < out[j].Range.Start
	})
	return out
}

// Definitions lists where sym is defined, in reading order.
func (t *Table) Definitions(sym Symbol) []Occurrence {
	occs, by := t.occs, t.defsBy
	if sym.Kind == Capture {
		t.uses()
		occs, by = t.all, t.bySym
	}
	var out []Occurrence
	for _, i := range by[sym] {
		if occs[i].Def {
			out = append(out, occs[i])
		}
	}
	return out
}

// FirstDefinition returns the first place sym is defined, in reading
// order (for the names nginx must have read before they are used, such
// as log formats); ok is false when it is not defined.
func (t *Table) FirstDefinition(sym Symbol) (o Occurrence, ok bool) {
	if sym.Kind == Capture {
		if defs := t.Definitions(sym); len(defs) > 0 {
			return defs[0], true
		}
		return Occurrence{}, false
	}
	for _, i := range t.defsBy[sym] {
		if t.occs[i].Def {
			return t.occs[i], true
		}
	}
	return Occurrence{}, false
}

// DefinedBy returns the index entries of the directives that define sym
// (not a numbered capture), in reading order: one for each time the file
// that holds one is included, where Definitions lists the place once.
// The rules that ask which definitions apply where read it. The list is
// the table's: it must not be changed.
func (t *Table) DefinedBy(sym Symbol) []int32 { return t.definers[sym] }

// Defined reports whether the configuration defines sym.
func (t *Table) Defined(sym Symbol) bool {
	if sym.Kind == Capture {
		t.uses()
		return t.captures[sym]
	}
	return len(t.definers[sym]) > 0
}

// Directive returns the directive o is in.
func (t *Table) Directive(o Occurrence) *parser.Directive { return t.ix.Entries[o.Entry].Directive }

// Symbols lists the symbols of a kind the configuration defines.
func (t *Table) Symbols(k Kind) []Symbol {
	var out []Symbol
	if k == Capture {
		t.uses()
		for s := range t.captures {
			out = append(out, s)
		}
	}
	for s := range t.definers {
		if s.Kind == k {
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return !out[i].Stream
	})
	return out
}

// wordAt returns the range of the word of f that starts at off (for an
// opaque occurrence): up to the next unescaped space, ";" or brace, or
// the closing quote.
func wordAt(f *parser.File, off int) parser.Range {
	src := f.Src
	end := off
	if off < len(src) && (src[off] == '"' || src[off] == '\'') {
		q := src[off]
		for end = off + 1; end < len(src) && src[end] != q; end++ {
			if src[end] == '\\' {
				end++
			}
		}
		return parser.Span(off, min(end+1, len(src)))
	}
	for end < len(src) && !strings.ContainsRune(" \t\r\n;{}", rune(src[end])) {
		if src[end] == '\\' {
			end++
		}
		end++
	}
	return parser.Span(off, min(end, len(src)))
}

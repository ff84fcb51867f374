// Package tablegen turns the nginx directive and variable TSV files from
// the shared data directory into the Go source of
// analyzer/directives/tables_gen.go.
//
// It is a library rather than part of the command in ../gen so that the
// directives package's tests can regenerate the tables in memory and
// compare them with the checked-in file. It deliberately does not import
// the directives package: the generator has to keep working when
// tables_gen.go is stale or broken, which is exactly when it is run. The
// price is that the Go identifiers of contexts and argument rules are
// spelled here as strings; the directives tests catch any drift by
// comparing the compiled tables with the TSV cells.
package tablegen

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Names of the input files inside the data directory.
const (
	DirectivesFile = "nginx-directives.tsv"
	ThirdPartyFile = "nginx-directives-thirdparty.tsv"
	VariablesFile  = "nginx-variables.tsv"
)

// contextWords is the README's context vocabulary in the bit order of
// directives.Context, paired with the Go constant for each word. Output
// is emitted in this order so that the generated file does not depend on
// how the TSV happens to order a cell.
var contextWords = []struct{ word, ident string }{
	{"main", "Main"},
	{"events", "Events"},
	{"http", "HTTP"},
	{"server", "Server"},
	{"location", "Location"},
	{"if-in-server", "IfInServer"},
	{"if-in-location", "IfInLocation"},
	{"limit_except", "LimitExcept"},
	{"upstream", "Upstream"},
	{"stream", "Stream"},
	{"stream-server", "StreamServer"},
	{"stream-upstream", "StreamUpstream"},
	{"mail", "Mail"},
	{"mail-server", "MailServer"},
	{"any", "Any"},
	{"map", "Map"},
	{"geo", "Geo"},
	{"stream-map", "StreamMap"},
	{"stream-geo", "StreamGeo"},
	{"acme_issuer", "AcmeIssuer"},
	{"oidc_provider", "OIDCProvider"},
	{"mgmt", "Mgmt"},
}

// namedTakes are the TAKE digit sets that have their own constant in the
// directives package; any other set is written as an OR of single digits.
var namedTakes = map[string]bool{
	"1": true, "2": true, "3": true, "4": true, "5": true, "6": true, "7": true,
	"12": true, "13": true, "23": true, "123": true, "1234": true,
}

// table is one TSV file split into its "# " comment lines, header and
// rows. Cells are addressed by header name because the README promises
// names, not positions.
type table struct {
	file     string
	comments []string
	cols     map[string]int
	rows     [][]string
	lines    []int // 1-based line number of each row, for error messages
}

func readTable(dir, file string) (*table, error) {
	data, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		return nil, err
	}
	t := &table{file: file}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		switch {
		case t.cols == nil && strings.HasPrefix(line, "#"):
			t.comments = append(t.comments, strings.TrimSpace(strings.TrimPrefix(line, "#")))
		case line == "":
			// Only the final newline produces one; a blank row would have
			// no name, so there is nothing to keep.
		case t.cols == nil:
			t.cols = map[string]int{}
			for j, h := range strings.Split(line, "\t") {
				t.cols[h] = j
			}
		default:
			cells := strings.Split(line, "\t")
			if len(cells) != len(t.cols) {
				return nil, fmt.Errorf("%s:%d: %d cells, header has %d", file, i+1, len(cells), len(t.cols))
			}
			t.rows = append(t.rows, cells)
			t.lines = append(t.lines, i+1)
		}
	}
	if t.cols == nil {
		return nil, fmt.Errorf("%s: no header line", file)
	}
	return t, nil
}

// require checks that every named column is present.
func (t *table) require(names ...string) error {
	for _, n := range names {
		if _, ok := t.cols[n]; !ok {
			return fmt.Errorf("%s: missing column %q", t.file, n)
		}
	}
	return nil
}

// cell returns row i's value in column name, or "" when the column is
// absent (only allowed for the optional columns, see require calls).
func (t *table) cell(i int, name string) string {
	j, ok := t.cols[name]
	if !ok {
		return ""
	}
	return t.rows[i][j]
}

func (t *table) errorf(i int, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", t.file, t.lines[i], fmt.Sprintf(format, args...))
}

func knownContext(w string) bool {
	for _, c := range contextWords {
		if c.word == w {
			return true
		}
	}
	return false
}

// contextExpr turns a comma list of context words into a Go expression.
func contextExpr(cell string) (string, error) {
	if cell == "" {
		return "", nil
	}
	seen := map[string]bool{}
	for _, w := range strings.Split(cell, ",") {
		if !knownContext(w) {
			return "", fmt.Errorf("unknown context %q", w)
		}
		if seen[w] {
			return "", fmt.Errorf("context %q listed twice", w)
		}
		seen[w] = true
	}
	var parts []string
	for _, c := range contextWords {
		if seen[c.word] {
			parts = append(parts, c.ident)
		}
	}
	return strings.Join(parts, " | "), nil
}

// argsExpr turns an args cell into a Go expression and reports whether it
// carried the BLOCK+ prefix.
func argsExpr(cell string) (expr string, block bool, err error) {
	if cell == "" {
		return "", false, nil
	}
	if rest, ok := strings.CutPrefix(cell, "BLOCK+"); ok {
		block, cell = true, rest
	}
	var parts []string
	seen := map[string]bool{}
	for _, p := range strings.Split(cell, "|") {
		if seen[p] {
			return "", false, fmt.Errorf("args part %q listed twice", p)
		}
		seen[p] = true
		switch p {
		case "NOARGS":
			parts = append(parts, "NoArgs")
		case "FLAG":
			parts = append(parts, "Flag")
		case "1MORE":
			parts = append(parts, "OneMore")
		case "2MORE":
			parts = append(parts, "TwoMore")
		case "ANY":
			parts = append(parts, "AnyArgs")
		default:
			digits, ok := strings.CutPrefix(p, "TAKE")
			if !ok || digits == "" {
				return "", false, fmt.Errorf("unknown args value %q", p)
			}
			for k := 0; k < len(digits); k++ {
				if digits[k] < '1' || digits[k] > '7' || (k > 0 && digits[k] <= digits[k-1]) {
					return "", false, fmt.Errorf("bad TAKE digits in %q", p)
				}
			}
			if namedTakes[digits] {
				parts = append(parts, "Take"+digits)
				continue
			}
			for k := 0; k < len(digits); k++ {
				parts = append(parts, "Take"+digits[k:k+1])
			}
		}
	}
	return strings.Join(parts, " | "), block, nil
}

// splitList splits a separated cell, dropping empty items so that a blank
// cell becomes an empty list.
func splitList(cell, sep string) []string {
	var out []string
	for _, s := range strings.Split(cell, sep) {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// field appends `Key: value,` to b when value is not empty, so that the
// generated rows stay short and the zero value stands for a blank cell.
func field(b *strings.Builder, key, value string) {
	if value != "" {
		fmt.Fprintf(b, "%s: %s, ", key, value)
	}
}

func quote(s string) string {
	if s == "" {
		return ""
	}
	return strconv.Quote(s)
}

func stringList(items []string) string {
	if len(items) == 0 {
		return ""
	}
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = strconv.Quote(s)
	}
	return "[]string{" + strings.Join(q, ", ") + "}"
}

// directiveRows renders the rows of a directive table as composite
// literals, checking every cell against the README's vocabularies so that
// a new word in the data fails generation instead of being lost.
func directiveRows(t *table, thirdParty bool, keys map[string]string, handlers map[string]*handlerRow, changed map[string]string) ([]string, error) {
	if err := t.require("name", "module", "contexts", "args", "block", "syntax", "default", "since", "url"); err != nil {
		return nil, err
	}
	var out []string
	for i := range t.rows {
		name, module := t.cell(i, "name"), t.cell(i, "module")
		if name == "" || module == "" {
			return nil, t.errorf(i, "blank name or module")
		}
		key := name + "\t" + module
		if prev, dup := keys[key]; dup {
			return nil, t.errorf(i, "(name, module) = (%s, %s) already in %s", name, module, prev)
		}
		keys[key] = t.file
		ctx, err := contextExpr(t.cell(i, "contexts"))
		if err != nil {
			return nil, t.errorf(i, "%v", err)
		}
		args, blockArgs, err := argsExpr(t.cell(i, "args"))
		if err != nil {
			return nil, t.errorf(i, "%v", err)
		}
		var block bool
		switch b := t.cell(i, "block"); b {
		case "yes":
			block = true
		case "no":
		default:
			return nil, t.errorf(i, "block is %q, want yes or no", b)
		}
		// The args cell is blank for docs-only rows, so only a known rule
		// can contradict the block column.
		if args != "" && blockArgs != block {
			return nil, t.errorf(i, "args %q disagrees with block %q", t.cell(i, "args"), t.cell(i, "block"))
		}

		var b strings.Builder
		b.WriteString("{")
		field(&b, "Name", quote(name))
		field(&b, "Module", quote(module))
		field(&b, "Contexts", ctx)
		field(&b, "Args", args)
		if args != "" {
			field(&b, "ArgsKnown", "true")
		}
		if block {
			field(&b, "Block", "true")
		}
		field(&b, "Syntax", quote(t.cell(i, "syntax")))
		field(&b, "Default", quote(t.cell(i, "default")))
		since := t.cell(i, "since")
		if since == "" && !thirdParty {
			since = SinceFromSource(name)
		}
		if since == "" && !thirdParty {
			since = changed[name]
		}
		field(&b, "Since", quote(since))
		field(&b, "URL", quote(t.cell(i, "url")))
		field(&b, "SourceModules", stringList(splitList(t.cell(i, "src_module"), ",")))
		if thirdParty {
			field(&b, "ThirdParty", "true")
		}
		field(&b, "Tags", stringList(splitList(t.cell(i, "notes"), ";")))
		field(&b, "Value", valueExpr(handlers, name, splitList(t.cell(i, "src_module"), ",")))
		out = append(out, strings.TrimSuffix(b.String(), ", ")+"},")
	}
	return out, nil
}

func variableRows(t *table, thirdParty bool) ([]string, error) {
	if err := t.require("name", "module", "url"); err != nil {
		return nil, err
	}
	keys := map[string]bool{}
	var out []string
	for i := range t.rows {
		raw, module := t.cell(i, "name"), t.cell(i, "module")
		name, ok := strings.CutPrefix(raw, "$")
		if !ok || name == "" || module == "" {
			return nil, t.errorf(i, "variable %q: want $name and a module", raw)
		}
		name, prefix := strings.CutSuffix(name, "*")
		// Lookups lower-case their argument as nginx does, so the table
		// must already be lower case for them to hit.
		if name != strings.ToLower(name) || strings.ContainsAny(name, "$* ") {
			return nil, t.errorf(i, "variable %q: unexpected characters", raw)
		}
		if keys[raw+"\t"+module] {
			return nil, t.errorf(i, "(name, module) = (%s, %s) listed twice", raw, module)
		}
		keys[raw+"\t"+module] = true

		var b strings.Builder
		b.WriteString("{")
		field(&b, "Name", quote(name))
		if prefix {
			field(&b, "Prefix", "true")
		}
		field(&b, "Module", quote(module))
		if strings.HasPrefix(module, "ngx_stream_") {
			field(&b, "Stream", "true")
		}
		field(&b, "URL", quote(t.cell(i, "url")))
		field(&b, "SourceModules", stringList(splitList(t.cell(i, "src_module"), ",")))
		field(&b, "Tags", stringList(splitList(t.cell(i, "notes"), ";")))
		if thirdParty {
			field(&b, "ThirdParty", "true")
		}
		out = append(out, strings.TrimSuffix(b.String(), ", ")+"},")
	}
	return out, nil
}

var versionRE = regexp.MustCompile(`nginx source version ([0-9][0-9A-Za-z.]*)`)

// Generate reads the three TSV files from dataDir and the handlers file
// (see HandlersFile; "" for none, which leaves every row untyped) and
// returns the formatted contents of tables_gen.go.
func Generate(dataDir, handlersPath string) ([]byte, error) {
	dirs, err := readTable(dataDir, DirectivesFile)
	if err != nil {
		return nil, err
	}
	third, err := readTable(dataDir, ThirdPartyFile)
	if err != nil {
		return nil, err
	}
	vars, err := readTable(dataDir, VariablesFile)
	if err != nil {
		return nil, err
	}

	var handlers map[string]*handlerRow
	var handlerComments []string
	if handlersPath != "" {
		if handlers, handlerComments, err = readHandlers(handlersPath); err != nil {
			return nil, err
		}
	}

	// The tables of further third-party modules live beside the handlers
	// file (nginx-lint's own, generated from their sources), and so does
	// the record of the releases after the source (ChangesFile).
	var mods, modVars *table
	var releases []Release
	if handlersPath != "" {
		dir := filepath.Dir(handlersPath)
		if releases, err = ReadChanges(filepath.Join(dir, ChangesFile)); err != nil && !os.IsNotExist(err) {
			return nil, err
		}
		if mods, err = readTable(dir, ModulesFile); err != nil && !os.IsNotExist(err) {
			return nil, err
		}
		if modVars, err = readTable(dir, ModVarsFile); err != nil && !os.IsNotExist(err) {
			return nil, err
		}
	}

	keys := map[string]string{}
	changed := SinceFromChanges(releases)
	coreRows, err := directiveRows(dirs, false, keys, handlers, changed)
	if err != nil {
		return nil, err
	}
	thirdRows, err := directiveRows(third, true, keys, handlers, nil)
	if err != nil {
		return nil, err
	}
	varRows, err := variableRows(vars, false)
	if err != nil {
		return nil, err
	}
	if mods != nil {
		rows, err := directiveRows(mods, true, keys, handlers, nil)
		if err != nil {
			return nil, err
		}
		thirdRows = append(thirdRows, rows...)
	}
	if modVars != nil {
		rows, err := variableRows(modVars, true)
		if err != nil {
			return nil, err
		}
		varRows = append(varRows, rows...)
	}

	var version string
	for _, c := range dirs.comments {
		if m := versionRE.FindStringSubmatch(c); m != nil {
			version = m[1]
			break
		}
	}
	if version == "" {
		return nil, fmt.Errorf("%s: no %q comment line", DirectivesFile, "nginx source version X")
	}

	var b bytes.Buffer
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	if handlersPath != "" {
		p("// Code generated by go run ./internal/gen from %s, %s, %s and %s; DO NOT EDIT.", DirectivesFile, ThirdPartyFile, VariablesFile, HandlersFile)
	} else {
		p("// Code generated by go run ./internal/gen from %s, %s and %s; DO NOT EDIT.", DirectivesFile, ThirdPartyFile, VariablesFile)
	}
	p("")
	p("// The data comes from nginx-lint's shared/data directory. Its \"# \" lines")
	p("// record the upstream versions the tables were extracted from:")
	var sources []string
	tables := []*table{dirs, third, vars}
	for _, t := range []*table{mods, modVars} {
		if t != nil {
			tables = append(tables, t)
		}
	}
	for _, t := range tables {
		p("//")
		p("// %s (%d rows):", t.file, len(t.rows))
		for _, c := range t.comments {
			p("//   - %s", c)
			sources = append(sources, t.file+": "+c)
		}
	}
	if handlersPath != "" {
		p("//")
		p("// %s (the set handler of each directive, read from the C sources):", HandlersFile)
		for _, c := range handlerComments {
			p("//   - %s", c)
		}
	}
	if len(releases) > 0 {
		p("//")
		p("// %s (the releases after the source, from their change logs):", ChangesFile)
		for _, r := range releases {
			date := r.Date
			if date == "" {
				date = "date unknown"
			}
			p("//   - %s (%s): %s", r.Version, date, r.Source)
		}
	}
	p("//")
	p("// The tables hold facts only (names, contexts, argument rules, short")
	p("// syntax and default lines, versions, anchors). They are derived from")
	p("// nginx and the nginx.org documentation (both 2-clause BSD; Copyright")
	p("// Igor Sysoev and Nginx, Inc.), njs (2-clause BSD), nginx-acme")
	p("// (Apache-2.0), lua-nginx-module and headers-more-nginx-module (BSD).")
	p("")
	p("package directives")
	p("")
	newest := version
	for _, r := range releases {
		if compareVersions(r.Version, newest) > 0 {
			newest = r.Version
		}
	}
	p("// NginxVersion is the newest nginx release the tables know: the")
	p("// source they were extracted from (SourceVersion) or a later release")
	p("// of %s.", ChangesFile)
	p("const NginxVersion = %q", newest)
	p("")
	p("// SourceVersion is the nginx release whose source the tables were")
	p("// extracted from.")
	p("const SourceVersion = %q", version)
	p("")
	p("// releaseTable holds the releases of %s, newest first.", ChangesFile)
	p("var releaseTable = [...]Release{")
	for _, r := range releases {
		p("{Version: %q, Date: %q},", r.Version, r.Date)
	}
	p("}")
	p("")
	p("// dataSources holds the \"# \" lines of the TSV files, each prefixed")
	p("// with its file name; Sources returns a copy.")
	p("var dataSources = [...]string{")
	for _, s := range sources {
		p("%q,", s)
	}
	p("}")
	p("")
	p("// directiveTable holds every row of %s followed by every", DirectivesFile)
	p("// row of %s and of %s (when present), in file order.", ThirdPartyFile, ModulesFile)
	p("var directiveTable = [...]Directive{")
	for _, r := range coreRows {
		p("%s", r)
	}
	for _, r := range thirdRows {
		p("%s", r)
	}
	p("}")
	p("")
	p("// variableTable holds every row of %s and of %s (when present), in file order.", VariablesFile, ModVarsFile)
	p("var variableTable = [...]Variable{")
	for _, r := range varRows {
		p("%s", r)
	}
	p("}")

	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("formatting generated code: %v", err)
	}
	return src, nil
}

// SinceFromSource is the version that introduced a directive whose data
// row has no "since" (see sinceFromSource), "" when not known.
func SinceFromSource(name string) string { return sinceFromSource[name] }

// sinceFromSource gives the version that introduced directives whose docs
// carry no "appeared in" line because their whole module is new. Each is
// the first release tag of github.com/nginx/nginx whose src/ defines the
// name (git grep 'ngx_string("NAME")' over the release-1.23.0 ...
// release-1.31.4 tags); client_body_early_read is newer than every tag and
// belongs to 1.31.5, the source version of the tables. Without them a
// build-specific lint (--nginx-build) cannot tell that nginx 1.22 lacks
// http3 or tunnel_pass.
var sinceFromSource = map[string]string{
	"http3": "1.25.0", "http3_hq": "1.25.0", "http3_max_concurrent_streams": "1.25.0", "http3_stream_buffer_size": "1.25.0",
	"quic_active_connection_id_limit": "1.25.0", "quic_bpf": "1.25.0", "quic_gso": "1.25.0", "quic_host_key": "1.25.0", "quic_retry": "1.25.0",
	"pass":        "1.25.5",
	"tunnel_bind": "1.31.0", "tunnel_buffer_size": "1.31.0", "tunnel_connect_timeout": "1.31.0", "tunnel_next_upstream": "1.31.0",
	"tunnel_next_upstream_timeout": "1.31.0", "tunnel_next_upstream_tries": "1.31.0", "tunnel_pass": "1.31.0", "tunnel_read_timeout": "1.31.0",
	"tunnel_send_lowat": "1.31.0", "tunnel_send_timeout": "1.31.0", "tunnel_socket_keepalive": "1.31.0",
	"client_body_early_read": "1.31.5",
}

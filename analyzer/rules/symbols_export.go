package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
)

// Exported readings for the symbol table (analyzer/symbols), so that it
// decides as the rules do rather than keep a copy of their tables.

// PassUpstream returns the upstream name the *_pass d names, as
// ngx_parse_url reads its address for ngx_http_upstream_add (or the
// stream module's): the host as written, its byte offset in the
// argument's value, and ok. ok is false for an address that cannot name
// an upstream block: one with variables, a port (nginx refuses "upstream
// may not have port" for a block's name), a unix socket, an IPv6 literal,
// or a scheme the directive does not take. stream is whether d is inside
// stream {}.
func PassUpstream(d *parser.Directive, stream bool) (host string, at int, ok bool) {
	if len(d.Args) == 0 {
		return "", 0, false
	}
	ns := nsHTTP
	if stream {
		ns = nsStream
	}
	u, ok := passUpstream(d, ns)
	if !ok || !u.noPort {
		return "", 0, false
	}
	if i := strings.Index(d.Args[0].Value, "://"); i >= 0 {
		at = i + 3
	}
	if !strings.HasPrefix(d.Args[0].Value[at:], u.text) {
		return "", 0, false
	}
	return u.text, at, true
}

// DefinedVariables returns the variables the configuration indexed by ix
// defines, as the unknown-variable rule reads them: lower-cased names,
// [0] for http {} and [1] for stream {}. The symbol table's tests compare
// its definitions with it.
func DefinedVariables(ix *analyzer.Index) [2]map[string]bool {
	return collectVariables(ix, &builtinVars{}).defined
}

// ZoneName returns the shared memory zone the directive of e adds
// (ngx_shared_memory_add), as the unknown-zone rule reads it: the zone's
// name, the argument that names it and the name's byte offset in the
// argument's value, and whether this directive gives it a size (defines
// it) rather than uses it. ok is false for a directive that adds none.
func ZoneName(e *analyzer.Entry) (name string, w parser.Word, at int, sized, ok bool) {
	r, ok := zoneOf(e)
	if !ok || r.name == "" {
		return "", parser.Word{}, 0, false, false
	}
	v := r.word.Value
	switch {
	case strings.HasPrefix(v, r.name):
	case strings.HasPrefix(v, "shared:"):
		at = len("shared:")
	default:
		at = strings.IndexByte(v, '=') + 1
	}
	if !strings.HasPrefix(v[at:], r.name) {
		return "", parser.Word{}, 0, false, false
	}
	return r.name, r.word, at, r.sized, true
}

// RegexRanges calls fn with the range of each word of e's directive that
// is a regex nginx compiles (location ~, rewrite, if, server_name ~, a
// map's key, ...): the captures $0-$9 after it are that regex's groups.
func RegexRanges(e *analyzer.Entry, fn func(r parser.Range)) {
	regexArgs(e, func(r regexArg) bool {
		fn(r.rng)
		return true
	})
}

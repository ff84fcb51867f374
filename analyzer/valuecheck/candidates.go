package valuecheck

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/internal/didyoumean"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// Candidates returns what argument arg (0 first) of directive name, in
// ctx, may be, as written, from the typed schemas: on and off for a flag,
// the value table of an enum (first argument) or of a bitmask (any),
// the listen grammar's parameters after a listen's address, an upstream
// server's parameters after its address (a parameter that takes a value
// ends in "="). closed is set when the list is all the argument may be.
// nil when the schemas say nothing. Editors complete from it.
func Candidates(name string, ctx directives.Context, arg int) (values []string, closed bool) {
	switch {
	case name == "listen" && arg > 0:
		lc := grammar.ContextHTTP
		switch {
		case ctx&directives.StreamContexts != 0:
			lc = grammar.ContextStream
		case ctx&(directives.Mail|directives.MailServer) != 0:
			lc = grammar.ContextMail
		}
		return grammar.ListenParams(lc), false
	case name == "server" && arg > 0 && ctx&(directives.Upstream|directives.StreamUpstream) != 0:
		return directives.UpstreamServerParams(), false
	}
	row := directives.InContext(name, ctx)
	if row == nil {
		if rows := directives.Lookup(name); len(rows) > 0 {
			row = rows[0]
		}
	}
	if row == nil || row.Value == nil {
		return nil, false
	}
	spec := row.Value
	switch spec.Kind {
	case directives.ValueFlag:
		if arg == 0 {
			return []string{"on", "off"}, true
		}
	case directives.ValueEnum:
		if arg == 0 {
			return spec.Values, true
		}
	case directives.ValueBitmask:
		return spec.Values, true
	}
	return nil, false
}

// Replacements returns the Candidates to offer in place of the bad
// argument value: the closest by spelling (a parameter's name is matched,
// and its value kept: "backlg=512" gives "backlog=512"), or, when none is
// close and the list is closed and short (on, off, build), all of them.
func Replacements(name string, ctx directives.Context, arg int, value string) []string {
	values, closed := Candidates(name, ctx, arg)
	if len(values) == 0 {
		return nil
	}
	param, val, hasVal := strings.Cut(value, "=")
	names := make([]string, len(values))
	for i, v := range values {
		names[i] = strings.TrimSuffix(v, "=")
	}
	var out []string
	for _, n := range didyoumean.Closest(strings.ToLower(param), names) {
		for _, v := range values {
			if strings.TrimSuffix(v, "=") == n {
				if hasVal && strings.HasSuffix(v, "=") {
					v += val
				}
				out = append(out, v)
			}
		}
	}
	if len(out) == 0 && closed && len(values) <= 4 {
		out = values
	}
	return out
}

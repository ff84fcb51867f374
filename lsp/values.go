package lsp

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/internal/didyoumean"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// This file offers what an argument may be, from the core's typed
// schemas: a directive's ValueSpec (flags, enums, bitmasks), the listen
// grammar's parameters, an upstream server's parameters. Completion
// lists them; quick fixes replace a bad value with the closest.

// argValues returns the values argument arg of dir, in ctx, may take, and
// whether they are all it may take (a closed list: a flag, an enum);
// nil when the schemas say nothing.
func argValues(dir *parser.Directive, ctx directives.Context, arg int) (values []string, closed bool) {
	switch {
	case dir.Name.Value == "listen" && arg > 0:
		lc := grammar.ContextHTTP
		switch {
		case ctx&directives.StreamContexts != 0:
			lc = grammar.ContextStream
		case ctx&(directives.Mail|directives.MailServer) != 0:
			lc = grammar.ContextMail
		}
		return grammar.ListenParams(lc), false
	case dir.Name.Value == "server" && arg > 0 && ctx&(directives.Upstream|directives.StreamUpstream) != 0:
		return directives.UpstreamServerParams(), false
	}
	row := directives.InContext(dir.Name.Value, ctx)
	if row == nil {
		if rows := directives.Lookup(dir.Name.Value); len(rows) > 0 {
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

// fixValues returns the values to offer in place of the bad argument w
// of dir: the closest ones by spelling, or, for a short closed list
// (on, off, build), all of them.
func fixValues(dir *parser.Directive, ctx directives.Context, arg int, w parser.Word) []string {
	values, closed := argValues(dir, ctx, arg)
	if len(values) == 0 {
		return nil
	}
	// A parameter's value is not its name: match "defualt_server", or
	// "backlg=" of "backlg=512", against the names.
	name, val, hasVal := strings.Cut(w.Value, "=")
	names := make([]string, len(values))
	for i, v := range values {
		names[i] = strings.TrimSuffix(v, "=")
	}
	var out []string
	for _, n := range didyoumean.Closest(strings.ToLower(name), names) {
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

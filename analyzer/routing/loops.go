package routing

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/regex"

	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// Loop is a chain of rewrites that sends every request that enters it
// around for ever, until nginx gives up after NGX_HTTP_MAX_URI_CHANGES
// URI changes with a 500 and "rewrite or internal redirection cycle
// while processing ..." in the error log.
type Loop struct {
	// Steps are the locations of the cycle in order, each with the
	// rewrite that sends the request on; the last sends it back to the
	// first.
	Steps []LoopStep
}

// LoopStep is one location of a Loop.
type LoopStep struct {
	Location *Location
	// Rewrite is the location's rewrite that sends the request to the
	// next step.
	Rewrite *parser.Directive
	// URI is the URI the rewrite makes, "" when it is not a constant:
	// then Prefix is the text every URI it makes starts with (a loop of
	// one location through the rewrite's own captures).
	URI, Prefix string
}

// firstRewrite returns the rewrite that the location's rewrite phase
// runs on every request, when that rewrite sends the request back to
// the location search: the program's first directive other than set,
// an internal rewrite with "last" (or without a flag, when nothing but
// set follows it). nil otherwise.
func firstRewrite(l *Location) *op {
	prog := l.conf.prog
	for i := range prog {
		o := &prog[i]
		switch o.kind {
		case opSet:
			continue
		case opRewrite:
			if o.redirect || o.brk || o.re == nil || o.script == nil {
				return nil
			}
			if !o.last {
				for _, rest := range prog[i+1:] {
					if rest.kind != opSet {
						return nil
					}
				}
			}
			return o
		}
		return nil
	}
	return nil
}

// uriPart returns the text every URI the replacement makes starts with,
// and whether that is the whole URI (the replacement has no variable
// before its query string).
func (s *Script) uriPart() (prefix string, constant bool) {
	var b strings.Builder
	for _, p := range s.parts {
		switch {
		case p.argsSep:
			return b.String(), true
		case p.name != "" || p.capture > 0:
			return b.String(), false
		}
		b.WriteString(p.lit)
	}
	return b.String(), true
}

// Loops returns the rewrite loops of a server level (as a Reader or
// Model reads it): chains of locations whose rewrite phase sends every
// request to a constant URI, found again by the location search in the
// next location of the chain, and back to the first; and locations
// whose rewrite makes URIs (from its captures) that the location search
// always brings back to the same location, where the rewrite matches
// them again. Only what holds for every request is reported: a
// rewrite behind an if, another rewrite before it, a regex or a URI the
// model cannot decide on end the chain.
func (s *Sets) Loops(root *Location) []Loop {
	var out []Loop
	seen := map[*Location]bool{}
	var locs []*Location
	root.Walk(func(l *Location) {
		if l != root {
			locs = append(locs, l)
		}
	})
	for _, l := range locs {
		if seen[l] {
			continue
		}
		o := firstRewrite(l)
		if o == nil {
			continue
		}
		if loop, ok := s.constantLoop(root, l, o); ok {
			for _, st := range loop.Steps {
				seen[st.Location] = true
			}
			out = append(out, loop)
			continue
		}
		if loop, ok := s.selfLoop(root, l, o); ok {
			seen[l] = true
			out = append(out, loop)
		}
	}
	return out
}

// constantLoop follows the constant URIs from l's rewrite o and returns
// the cycle they close, if they close one that starts at l.
func (s *Sets) constantLoop(root, l *Location, o *op) (Loop, bool) {
	var steps []LoopStep
	at := map[*Location]int{}
	cur, rw := l, o
	for range maxURIChanges + 1 {
		uri, constant := rw.script.uriPart()
		if !constant || uri == "" || strings.ContainsAny(uri, "%") {
			return Loop{}, false
		}
		at[cur] = len(steps)
		steps = append(steps, LoopStep{Location: cur, Rewrite: rw.d, URI: uri})
		next, redirect, why := root.Find(uri)
		if next == nil || redirect || why != "" || next.Spec.Named {
			return Loop{}, false
		}
		if i, ok := at[next]; ok {
			// A cycle; it is reported once, from its first location.
			if i != 0 {
				return Loop{}, false
			}
			nr := firstRewrite(next)
			if nr == nil {
				return Loop{}, false
			}
			if _, ok, why := nr.re.Match(uri); !ok || why != "" {
				return Loop{}, false
			}
			return Loop{Steps: steps}, true
		}
		nr := firstRewrite(next)
		if nr == nil {
			return Loop{}, false
		}
		if _, ok, why := nr.re.Match(uri); !ok || why != "" {
			return Loop{}, false
		}
		cur, rw = next, nr
	}
	return Loop{}, false
}

// selfLoop decides whether every URI l's rewrite o makes comes back to
// l and matches o again: the URIs its replacement can make (its text,
// each capture any string the regex's group matches, each variable any
// string) are all matched by its regex, and the location search takes
// every one of them to l.
func (s *Sets) selfLoop(root, l *Location, o *op) (Loop, bool) {
	made, prefix, ok := madeURIs(o)
	if !ok || !strings.HasPrefix(prefix, "/") {
		return Loop{}, false
	}
	re := s.regex(o.re)
	if re == nil {
		return Loop{}, false
	}
	if found, complete := regex.Search([]regex.Automaton{made}, []regex.Automaton{re}, 1, s.budget(), 1); len(found) > 0 || !complete {
		return Loop{}, false
	}
	if got, ok := s.findAll(root, prefix, made); !ok || got != l {
		return Loop{}, false
	}
	return Loop{Steps: []LoopStep{{Location: l, Rewrite: o.d, Prefix: prefix}}}, true
}

// madeURIs returns the automaton of the URIs rewrite o's replacement
// can make (in an internal rewrite nginx copies captures into the URI
// as they are), and the text all of them start with; ok is false when
// the replacement is a constant or cannot be read so.
func madeURIs(o *op) (regex.Automaton, string, bool) {
	var pieces []regex.Piece
	var prefix strings.Builder
	constant := true
	for _, p := range o.script.parts {
		if p.argsSep {
			break
		}
		switch {
		case p.capture > 0:
			constant = false
			pieces = append(pieces, regex.Piece{Capture: p.capture})
		case p.name != "":
			constant = false
			pieces = append(pieces, regex.Piece{Any: true})
		default:
			pieces = append(pieces, regex.Piece{Lit: p.lit})
			if constant {
				prefix.WriteString(p.lit)
			}
		}
	}
	if constant {
		return nil, "", false
	}
	a, ok := regex.Made(o.re, pieces)
	return a, prefix.String(), ok
}

// findAll is the location search for every URI of lang, all of which
// start with prefix, at once: the location all of them end at (nil: the
// server level), ok false when they do not all end at the same one (or
// the search cannot tell). The exact and prefix locations are compared
// with prefix alone: one that some URIs of prefix may reach and others
// not makes it give up.
func (s *Sets) findAll(root *Location, prefix string, lang regex.Automaton) (*Location, bool) {
	var m *Location
	rc, ok := s.findAllIn(root, prefix, lang, &m)
	if !ok || rc == autoRedirect {
		return nil, false
	}
	return m, true
}

// findAllIn is Location.find for every URI of lang at once.
func (s *Sets) findAllIn(lv *Location, prefix string, lang regex.Automaton, m **Location) (findResult, bool) {
	var longest *Location
	for _, q := range lv.Statics() {
		p := q.Spec.Path
		if len(p) > len(prefix) && strings.HasPrefix(p, prefix) || p == prefix && q.Spec.Modifier == grammar.ModExact {
			// Some of the URIs take another node of the tree.
			return declined, false
		}
		if q.Spec.Modifier != grammar.ModExact && strings.HasPrefix(prefix, p) && (longest == nil || len(p) > len(longest.Spec.Path)) {
			longest = q
		}
		if q.conf.autoRedirect && len(p) == len(prefix)+1 && strings.HasPrefix(p, prefix) {
			return declined, false
		}
	}
	rc := declined
	noRegex := false
	if longest != nil {
		*m = longest
		rc = prefixMatch
		noRegex = longest.Spec.Modifier == grammar.ModPrefixNoRegex
		if longest.HasNested() {
			var ok bool
			if rc, ok = s.findAllIn(longest, prefix, lang, m); !ok {
				return declined, false
			}
		}
	}
	if rc == exactMatch || noRegex {
		return rc, true
	}
	all := lang
	for _, r := range lv.regexes {
		a := s.regex(r.regex)
		if a == nil {
			return declined, false
		}
		if found, complete := regex.Search([]regex.Automaton{all, a}, nil, 1, s.budget(), 1); !complete {
			return declined, false
		} else if len(found) == 0 {
			continue // no URI of the prefix matches it
		}
		if found, complete := regex.Search([]regex.Automaton{all}, []regex.Automaton{a}, 1, s.budget(), 1); len(found) > 0 || !complete {
			return declined, false // some do, some do not
		}
		*m = r
		if r.HasNested() {
			if _, ok := s.findAllIn(r, prefix, lang, m); !ok {
				return declined, false
			}
		}
		return exactMatch, true
	}
	return rc, true
}

package routing

import (
	"slices"

	"github.com/nginx-lint/nginx-lint/analyzer/regex"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// Sets answers questions about the URIs that reach locations, by the
// automata of analyzer/regex: which locations no URI reaches (Unreachable),
// URIs that reach one (Examples), a URI of a prefix location's prefix
// that another location takes (Elsewhere), whether one regex matches
// every subject of others (Includes). It keeps the automata it builds;
// one goroutine uses it.
type Sets struct {
	// Budget bounds the product states one search visits (0:
	// searchBudget); a search that runs out answers "unsure".
	Budget int
	// AnyURI says the location search may be given URIs that do not
	// start with "/": an internal rewrite or a try_files fallback to
	// "index.php", say (RelativeURIs tells). Otherwise every URI is taken
	// to start with "/", as a client's do.
	AnyURI bool
	// LevelWork bounds the work of one Unreachable call, in the steps of
	// regex.SearchMetered (0: LevelWork). Each regex location is set
	// against every earlier one, so a level's work grows with the square
	// of its regexes: a level of 1000 regex locations took 25 s. Past
	// the bound its remaining locations are left undecided.
	LevelWork int

	regexes map[*regex.Regex]regex.Automaton
	// spent is the work of the Unreachable call under way.
	spent int
	tries map[trieKey]regex.Automaton
}

type trieKey struct {
	level *Location
	x     *Location
	mode  uint8
}

// NewSets returns an empty Sets.
func NewSets() *Sets {
	return &Sets{regexes: map[*regex.Regex]regex.Automaton{}, tries: map[trieKey]regex.Automaton{}}
}

// LevelWork is the default of Sets.LevelWork, some 0.2 s of CPU here. The
// levels of the corpus take at most 630,000 steps (12 regexes take
// 220,000); a level of 100 regex locations that each take a few
// product states fits whole, one of 1000 stops part way.
const LevelWork = 16_000_000

// Spent is the work of the last Unreachable call, in the steps of
// regex.SearchMetered.
func (s *Sets) Spent() int { return s.spent }

// search is regex.Search within what is left of the level's work: past
// it, every answer is "unsure".
func (s *Sets) search(pos, neg []regex.Automaton) (found []string, complete bool) {
	limit := s.LevelWork
	if limit <= 0 {
		limit = LevelWork
	}
	if s.spent > limit {
		return nil, false
	}
	found, complete, steps := regex.SearchMetered(pos, neg, 1, s.budget(), 1)
	s.spent += steps
	return found, complete
}

func (s *Sets) budget() int {
	if s.Budget > 0 {
		return s.Budget
	}
	return regex.SearchBudget
}

// regex returns the automaton of r, nil when its subjects cannot be
// computed as PCRE matches them.
func (s *Sets) regex(r *regex.Regex) regex.Automaton {
	if a, ok := s.regexes[r]; ok {
		return a
	}
	a, _ := r.Automaton()
	s.regexes[r] = a
	return a
}

// Includes reports whether every subject b matches is matched by one
// of as. sure is false when it cannot tell (a regex it cannot read as
// PCRE does, or the search ran out of states); yes is then false.
func (s *Sets) Includes(b *regex.Regex, as ...*regex.Regex) (yes, sure bool) {
	ab := s.regex(b)
	if ab == nil {
		return false, false
	}
	var neg []regex.Automaton
	for _, a := range as {
		aa := s.regex(a)
		if aa == nil {
			return false, false
		}
		neg = append(neg, aa)
	}
	found, complete := regex.Search([]regex.Automaton{ab}, neg, 1, s.budget(), 1)
	if len(found) > 0 {
		return false, true
	}
	return complete, complete
}

// The modes of a level's trie: which URIs of the level it accepts.
const (
	trieRegexTried uint8 = iota // those no exact location names and whose longest prefix is not ^~: the level's regexes are tried
	trieIs                      // those whose exact location or longest prefix is x
)

// trie returns the automaton of level's exact and prefix locations in
// the given mode.
func (s *Sets) trie(level, x *Location, mode uint8) regex.Automaton {
	k := trieKey{level, x, mode}
	if t, ok := s.tries[k]; ok {
		return t
	}
	statics := level.Statics()
	es := make([]regex.TrieEntry, len(statics))
	for i, l := range statics {
		es[i] = regex.TrieEntry{Path: l.Spec.Path, Exact: l.Spec.Modifier == grammar.ModExact}
	}
	stops := func(exact, prefix int32) bool {
		return exact >= 0 || prefix >= 0 && statics[prefix].Spec.Modifier == grammar.ModPrefixNoRegex
	}
	var accept func(exact, prefix int32) bool
	switch mode {
	case trieRegexTried:
		accept = func(exact, prefix int32) bool { return !stops(exact, prefix) }
	default:
		accept = func(exact, prefix int32) bool {
			if exact >= 0 {
				return statics[exact] == x
			}
			return prefix >= 0 && statics[prefix] == x
		}
	}
	t := regex.Trie(es, accept)
	s.tries[k] = t
	return t
}

// reach returns automata whose product holds every URI the location
// search brings to x (and maybe more): URIs must be accepted by every
// automaton of pos and by none of neg. What the search of a level's
// nested locations takes first is left out, and so is any regex the
// automata cannot read, so the set may be larger than the truth but
// never smaller: it is empty only when nothing reaches x.
func (s *Sets) reach(x *Location) (pos, neg []regex.Automaton) {
	lv := x.up()
	if lv == nil {
		return []regex.Automaton{s.root()}, nil
	}
	pos = s.domain(lv)
	switch {
	case x.Spec.Named:
		return append(pos, regex.Prefixes()), nil // nothing
	case x.regex != nil:
		if a := s.regex(x.regex); a != nil {
			pos = append(pos, a)
		}
		pos = append(pos, s.trie(lv, nil, trieRegexTried))
		for _, r := range lv.regexes {
			if r == x {
				break
			}
			if a := s.regex(r.regex); a != nil {
				neg = append(neg, a)
			}
		}
	default:
		pos = append(pos, s.trie(lv, x, trieIs))
		if x.Spec.Modifier == grammar.ModNone {
			for _, r := range lv.regexes {
				if a := s.regex(r.regex); a != nil {
					neg = append(neg, a)
				}
			}
		}
	}
	return pos, neg
}

// root is the automaton of the URIs the location search of the server
// level is given: those that start with "/", or any under AnyURI.
func (s *Sets) root() regex.Automaton {
	if s.AnyURI {
		return regex.Prefixes("")
	}
	return regex.Prefixes("/")
}

// domain returns automata that accept every URI the location search
// brings to level's nested locations (and maybe more): the conditions of
// the nearest domainLevels enclosing levels, outermost first. The outer
// ones are left out: in a configuration nested thousands deep, every
// level's search would otherwise be a product of thousands of automata,
// its work growing with the square of the depth (10,000 nested regex
// locations took 115 s). Fewer conditions accept more URIs, which
// domain may.
func (s *Sets) domain(lv *Location) []regex.Automaton {
	var pos []regex.Automaton
	for range domainLevels {
		up := lv.up()
		if up == nil {
			break
		}
		// Innermost first; reversed below.
		if lv.regex != nil {
			pos = append(pos, s.trie(up, nil, trieRegexTried))
			if a := s.regex(lv.regex); a != nil {
				pos = append(pos, a)
			}
		} else {
			pos = append(pos, s.trie(up, lv, trieIs))
		}
		lv = up
	}
	pos = append(pos, s.root())
	slices.Reverse(pos)
	return pos
}

// domainLevels is how many enclosing levels domain reads: real
// configurations nest a handful (the corpus three locations deep).
const domainLevels = 8

// Shadow says why no URI reaches a location.
type Shadow struct {
	// Location is the location no URI reaches.
	Location *Location
	// Regexes are the regex locations of its level that take its URIs
	// first (earlier ones for a regex; any for a prefix location).
	Regexes []*Location
	// Stops are the exact and "^~" locations of its level that end the
	// search before the regexes for some of its URIs.
	Stops []*Location
}

// Unreachable returns the locations nested in level (not deeper) that
// no URI reaches: a regex whose every URI an exact or "^~" location or
// an earlier regex takes first, and a prefix location without nested
// locations whose every URI a regex of the level takes (unless the
// prefix is "^~", or nginx answers its path without the final slash
// with a redirect). A location it cannot decide on (a regex Go does not
// read as PCRE does, a search that runs out of states) is left out.
func (s *Sets) Unreachable(level *Location) []Shadow {
	var out []Shadow
	if len(level.regexes) == 0 {
		return nil
	}
	s.spent = 0
	for _, x := range level.Statics() {
		if x.Spec.Modifier != grammar.ModNone || x.HasNested() || x.conf.autoRedirect {
			continue
		}
		if sh, ok := s.shadow(x); ok {
			out = append(out, sh)
		}
	}
	for _, x := range level.regexes {
		if s.regex(x.regex) == nil {
			continue
		}
		if sh, ok := s.shadow(x); ok {
			out = append(out, sh)
		}
	}
	return out
}

// shadow decides whether no URI reaches x and, if so, names the
// locations that take its URIs: a smallest set of them that does, the
// regexes nginx tries first and the stops kept before the regexes.
func (s *Sets) shadow(x *Location) (Shadow, bool) {
	pos, neg := s.reach(x)
	found, complete := s.search(pos, neg)
	if len(found) > 0 || !complete {
		return Shadow{}, false
	}
	lv := x.up()
	// The URIs x matches before the level's other locations take theirs,
	// and what takes them: for a regex, the exact and "^~" locations and
	// the earlier regexes; for a prefix location, every regex.
	matched := s.domain(lv)
	var items []*Location
	var takers []regex.Automaton
	if x.regex != nil {
		matched = append(matched, s.regex(x.regex))
		for _, q := range lv.Statics() {
			if q.Spec.Modifier == grammar.ModExact || q.Spec.Modifier == grammar.ModPrefixNoRegex {
				items = append(items, q)
				takers = append(takers, s.trie(lv, q, trieIs))
			}
		}
	} else {
		matched = append(matched, s.trie(lv, x, trieIs))
	}
	for _, r := range lv.regexes {
		if r == x {
			break
		}
		if a := s.regex(r.regex); a != nil {
			items = append(items, r)
			takers = append(takers, a)
		}
	}
	// Drop what the others cover, the latest regexes first (nginx tries
	// the earlier ones first), then the stops.
	keep := make([]bool, len(items))
	for i := range keep {
		keep[i] = true
	}
	var order []int
	for i := len(items) - 1; i >= 0; i-- {
		if items[i].regex != nil {
			order = append(order, i)
		}
	}
	for i := range items {
		if items[i].regex == nil {
			order = append(order, i)
		}
	}
	for _, i := range order {
		keep[i] = false
		var rest []regex.Automaton
		for j, a := range takers {
			if keep[j] {
				rest = append(rest, a)
			}
		}
		if found, complete := s.search(matched, rest); len(found) > 0 || !complete {
			keep[i] = true
		}
	}
	sh := Shadow{Location: x}
	for i, l := range items {
		if !keep[i] {
			continue
		}
		if l.regex != nil {
			sh.Regexes = append(sh.Regexes, l)
		} else {
			sh.Stops = append(sh.Stops, l)
		}
	}
	return sh, true
}

// Examples returns up to n URIs that the location search brings to x,
// shortest first, each checked with Find: normalized paths of printable
// bytes, as a client could send them. An exact location's path is its
// only one.
func (s *Sets) Examples(x *Location, n int) []string {
	if x.Directive == nil || x.Spec.Named || n <= 0 {
		return nil
	}
	root := x.Root()
	pos, neg := s.reach(x)
	var out []string
	// Paths whose segments do not start with a dot read best; the others
	// when there are not enough of those.
	for _, nice := range []bool{true, false} {
		found, _ := regex.Search(append(pos[:len(pos):len(pos)], regex.NormalPaths(nice)), neg, n+8, s.budget(), 2)
		for _, u := range found {
			if slices.Contains(out, u) {
				continue
			}
			if got, _, why := root.Find(u); got == x && why == "" {
				out = append(out, u)
				if len(out) == n {
					return out
				}
			}
		}
	}
	return out
}

// Elsewhere returns a URI that starts with the path of the prefix
// location x but that another location takes, and that location (nil:
// the server level): a regex of x's level first (nginx tries them after
// the longest prefix, which surprises), then a longer exact or prefix
// location, then a location nested in x. ok is false when every URI of
// the prefix stays in x, as far as the search finds.
func (s *Sets) Elsewhere(x *Location) (uri string, by *Location, ok bool) {
	if x.Directive == nil || x.Spec.Named || x.regex != nil || x.Spec.Modifier == grammar.ModExact {
		return "", nil, false
	}
	root := x.Root()
	lv := x.up()
	check := func(u string) bool {
		got, _, why := root.Find(u)
		if why != "" || got == x {
			return false
		}
		uri, by = u, got
		return true
	}
	pos := append(s.domain(lv), regex.Prefixes(x.Spec.Path), regex.NormalPaths(false))
	if x.Spec.Modifier == grammar.ModNone {
		for _, r := range lv.regexes {
			a := s.regex(r.regex)
			if a == nil {
				continue
			}
			found, _ := regex.Search(append(pos[:len(pos):len(pos)], a, s.trie(lv, x, trieIs)), nil, 4, s.budget(), 1)
			for _, u := range found {
				if check(u) {
					return uri, by, true
				}
			}
		}
	}
	for _, q := range lv.Statics() {
		if q != x && len(q.Spec.Path) > len(x.Spec.Path) && q.Spec.Path[:len(x.Spec.Path)] == x.Spec.Path {
			for _, u := range s.Examples(q, 1) {
				if check(u) {
					return uri, by, true
				}
			}
		}
	}
	var nested []*Location
	nested = append(nested, x.Statics()...)
	nested = append(nested, x.regexes...)
	for _, q := range nested {
		for _, u := range s.Examples(q, 1) {
			if check(u) {
				return uri, by, true
			}
		}
	}
	return "", nil, false
}

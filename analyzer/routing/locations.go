package routing

import (
	"slices"
	"sync"

	"github.com/nginx-lint/nginx-lint/analyzer/regex"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// Location is one location block of a server, or the server level
// itself (Directive nil), with what nginx needs to route a request
// through it: the locations nested in it, arranged as nginx arranges
// them, and its configuration (conf.go).
type Location struct {
	// Directive is the location directive (nil for the server level).
	Directive *parser.Directive
	// Spec is its parsed modifier and path.
	Spec grammar.Location
	// Parent is the enclosing location, nil for the server level (whose
	// Parent is nil too; Server names it).
	Parent *Location
	// Server is the number of the server in the Table (-1 for a server
	// read by a Reader).
	Server int

	// srv is the server the location belongs to: its server level and
	// named locations.
	srv *serverRoutes

	regex *regex.Regex // for ~ and ~*

	// The nested locations as ngx_http_init_locations and
	// ngx_http_init_static_location_trees arrange them: exact and prefix
	// ones in a search tree, regexes in the order written.
	static  *treeNode
	regexes []*Location
	// inOrder asks the regexes at once when they are many.
	inOrder inOrder

	conf *level
}

// Level says which kind of block a Location is.
func (l *Location) Level() string {
	switch {
	case l.Directive == nil:
		return "server"
	case l.Spec.Named:
		return "named"
	}
	return "location"
}

// String names the location as nginx's debug log does: its modifier and
// path ("= /x", "~ \.php$", "/", "@fallback"), "server" for the server
// level.
func (l *Location) String() string {
	if l == nil || l.Directive == nil {
		return "server"
	}
	if m := l.Spec.Modifier.String(); m != "" && !l.Spec.Named {
		return m + " " + l.Spec.Path
	}
	return l.Spec.Path
}

// Regex returns the compiled regex of a ~ or ~* location, nil otherwise.
func (l *Location) Regex() *regex.Regex { return l.regex }

// treeNode is a node of nginx's static location tree
// (ngx_http_location_tree_node_t): a name that continues the parent
// node's, the exact and the prefix location of that name, and the
// locations that extend it in tree.
type treeNode struct {
	left, right, tree *treeNode
	name              string
	exact, inclusive  *Location
	autoRedirect      bool
}

// queued is an exact or prefix location on the way to the tree
// (ngx_http_location_queue_t).
type queued struct {
	name             string
	exact, inclusive *Location
	list             []*queued
}

// filenameCmp compares a and b over their first n bytes as
// ngx_filename_cmp does on Linux: byte by byte, except that the end of
// a string is lowest and '/' comes before every other byte, so that a
// path sorts right before the paths below it.
func filenameCmp(a, b string, n int) int {
	for i := 0; i < n; i++ {
		var c1, c2 int = -1, -1
		if i < len(a) {
			c1 = int(a[i])
		}
		if i < len(b) {
			c2 = int(b[i])
		}
		if c1 == c2 {
			if c1 < 0 {
				return 0
			}
			continue
		}
		if c1 < 0 || c2 < 0 {
			return c1 - c2
		}
		if c1 == '/' {
			c1 = 0
		}
		if c2 == '/' {
			c2 = 0
		}
		return c1 - c2
	}
	return 0
}

// arrange builds the tree of the exact and prefix locations of one
// level (given in the order written) as nginx does: sorted (names in
// filename order, an exact location before the prefix one of the same
// name), the two of one name joined, every prefix location's
// extensions moved below it, and each list split at its middle.
func arrange(locs []*Location) *treeNode {
	if len(locs) == 0 {
		return nil
	}
	q := make([]*queued, 0, len(locs))
	for _, l := range locs {
		e := &queued{name: l.Spec.Path}
		if l.Spec.Modifier == grammar.ModExact {
			e.exact = l
		} else {
			e.inclusive = l
		}
		q = append(q, e)
	}
	slices.SortStableFunc(q, func(a, b *queued) int {
		rc := filenameCmp(a.name, b.name, min(len(a.name), len(b.name))+1)
		if rc == 0 && a.inclusive != nil && b.exact != nil {
			return 1
		}
		if rc == 0 && a.exact != nil && b.inclusive != nil {
			return -1
		}
		return rc
	})
	// ngx_http_join_exact_locations: the exact and the prefix location
	// of one name share a node. Two of the same kind are nginx's
	// "duplicate location" error; the first is kept.
	joined := q[:0]
	for _, e := range q {
		if n := len(joined); n > 0 && joined[n-1].name == e.name {
			prev := joined[n-1]
			if prev.exact == nil {
				prev.exact = e.exact
			}
			if prev.inclusive == nil {
				prev.inclusive = e.inclusive
			}
			continue
		}
		joined = append(joined, e)
	}
	return makeTree(nest(joined), 0)
}

// nest is ngx_http_create_locations_list: the entries that follow a
// prefix location and start with its name move into its list.
func nest(q []*queued) []*queued {
	out := q[:0:0]
	for i := 0; i < len(q); {
		e := q[i]
		j := i + 1
		if e.inclusive != nil {
			for j < len(q) && len(q[j].name) >= len(e.name) && q[j].name[:len(e.name)] == e.name {
				j++
			}
			if j > i+1 {
				e.list = nest(slices.Clone(q[i+1 : j]))
			}
		}
		out = append(out, e)
		i = j
	}
	return out
}

// makeTree is ngx_http_create_locations_tree: the middle entry (by
// ngx_queue_middle, index n/2) is the node, the entries before and after
// its left and right subtrees, and its list the tree of the names that
// extend it, keyed by what follows its name.
func makeTree(q []*queued, prefix int) *treeNode {
	if len(q) == 0 {
		return nil
	}
	m := len(q) / 2
	e := q[m]
	n := &treeNode{name: e.name[prefix:], exact: e.exact, inclusive: e.inclusive}
	n.autoRedirect = e.exact != nil && e.exact.conf.autoRedirect || e.inclusive != nil && e.inclusive.conf.autoRedirect
	n.left = makeTree(q[:m], prefix)
	n.right = makeTree(q[m+1:], prefix)
	n.tree = makeTree(e.list, len(e.name))
	return n
}

// findResult is what a search of the static tree answers
// (ngx_http_core_find_static_location's return codes).
type findResult int

const (
	declined     findResult = iota // no location of the tree
	exactMatch                     // NGX_OK: an exact location
	prefixMatch                    // NGX_AGAIN: a prefix location; nested ones come next
	autoRedirect                   // NGX_DONE: the URI lacks the final slash of a proxied location
)

// findStatic searches the tree as nginx does and returns the location it
// ends at (nil when declined).
func findStatic(node *treeNode, uri string) (findResult, *Location) {
	rv := declined
	var loc *Location
	for node != nil {
		n := min(len(uri), len(node.name))
		rc := filenameCmp(uri[:n], node.name[:n], n)
		if rc != 0 {
			if rc < 0 {
				node = node.left
			} else {
				node = node.right
			}
			continue
		}
		if len(uri) > len(node.name) {
			if node.inclusive != nil {
				loc, rv = node.inclusive, prefixMatch
				uri = uri[n:]
				node = node.tree
				continue
			}
			node = node.right
			continue
		}
		if len(uri) == len(node.name) {
			if node.exact != nil {
				return exactMatch, node.exact
			}
			return prefixMatch, node.inclusive
		}
		if len(uri)+1 == len(node.name) && node.autoRedirect {
			loc, rv = node.exact, autoRedirect
			if loc == nil {
				loc = node.inclusive
			}
		}
		node = node.left
	}
	return rv, loc
}

// match is the outcome of the location search for one URI.
type match struct {
	loc *Location
	// captures of the regex location that matched, if any.
	captures *regex.Captures
	unsure   string
}

// find is ngx_http_core_find_location from level l: the longest prefix
// (or an exact match), then the locations nested in it, then, unless
// that prefix is ^~ or an exact match or a nested regex won, the
// regexes of l in order. cur is the location chosen so far.
func (l *Location) find(uri string, m *match) findResult {
	rc, loc := findStatic(l.static, uri)
	noRegex := false
	if loc != nil {
		m.loc = loc
	}
	if rc == prefixMatch {
		noRegex = loc.Spec.Modifier == grammar.ModPrefixNoRegex
		rc = loc.find(uri, m)
	}
	if rc == exactMatch || rc == autoRedirect {
		return rc
	}
	if noRegex {
		return rc
	}
	found := false
	try := func(i int) bool {
		r := l.regexes[i]
		caps, ok, why := r.regex.Match(uri)
		if why != "" {
			m.unsure = why
			found = true
		} else if ok {
			m.loc = r
			m.captures = caps
			r.find(uri, m)
			found = true
		}
		return found
	}
	l.inOrder.each(len(l.regexes), func(i int) *regex.Regex { return l.regexes[i].regex }, uri, try)
	if found {
		return exactMatch
	}
	return rc
}

// orderedFrom is the number of regexes (of a level, an address's
// server names or a map) from which they are asked as one
// regex.Ordered: a request then costs a step per byte of what is
// matched rather than a match per regex, so that the requests that tell
// a level of thousands of regexes apart (Probes, one per location) cost
// about as many steps as there are regexes.
var orderedFrom = 8

// inOrder is a list of regexes nginx tries in order until one matches,
// asked one by one while they are few and as one regex.Ordered, made on
// first use, from orderedFrom.
type inOrder struct {
	once sync.Once
	o    *regex.Ordered
}

// each calls try with the indexes of the n regexes (re(i)) that may
// match s, in order, until try returns true.
func (q *inOrder) each(n int, re func(i int) *regex.Regex, s string, try func(i int) bool) {
	if n >= orderedFrom {
		q.once.Do(func() {
			rs := make([]*regex.Regex, n)
			for i := range rs {
				if rs[i] = re(i); rs[i] == nil {
					return // not compiled: asked one by one
				}
			}
			q.o = regex.NewOrdered(rs, 0)
		})
		if q.o != nil {
			q.o.Candidates(s, try)
			return
		}
	}
	for i := range n {
		if try(i) {
			return
		}
	}
}

// Find returns the location of server level s that a URI (as
// ParseTarget normalizes it) is handled in: nil when none matches (the
// server level handles it), and whether nginx answers it with a 301 to
// the location's name plus "/" instead (a prefix location with
// proxy_pass and the like, asked without its final slash). unsure is
// set when a regex that had to be tried cannot be run the way PCRE runs
// it; the location is then the one found before.
func (l *Location) Find(uri string) (loc *Location, redirect bool, unsure string) {
	m := match{}
	rc := l.find(uri, &m)
	return m.loc, rc == autoRedirect && m.unsure == "", m.unsure
}

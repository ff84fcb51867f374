package routing

import (
	"fmt"
	"iter"

	"github.com/nginx-lint/nginx-lint/parser"
)

// Work of the request set and of its answers, in units of about a
// thirtieth of a request (some 7 million a second of CPU here, whatever
// the shape): a request costs RequestWork, a change DiffBounded hands
// on ChangeWork more (a caller may keep a report of it: diff keeps some
// 20 KB for JSON),
// and each location level an answer went through (a location's depth,
// for each step of its redirect chain) and each pair of a prefix and a
// regex that Probes tries costs one more. Both grow as the square of a
// configuration in some shapes (a prefix under which every regex not
// anchored at the start is asked, locations nested thousands deep that
// every request walks), which is what a Bound cuts.
const (
	RequestWork = 32
	ChangeWork  = 16
	// BoundFloor is the work a Bound allows whatever the size of the
	// configurations: 125,000 requests, or 80,000 that all change,
	// some 0.6 s of CPU.
	BoundFloor = 4_000_000
	// BoundPerDirective is the work a Bound allows for each directive
	// of the configurations compared (12 requests, 8 that change): the
	// rich layout of 2,000 servers compared with itself spends 4 million
	// of its 96 million, and 20,000 servers of a listen each and nothing
	// else ask 120,000 requests, all changed against a small
	// configuration, of 40,000 directives.
	BoundPerDirective = 384
)

// Bound is the work a comparison of configurations may do through
// Probes and DiffBounded or FirstChangeBounded: when it is spent, the
// request set ends early and Cut says the comparison is partial, so
// that no caller calls a cut comparison complete.
type Bound struct {
	// Limit is the work allowed; Work the work done so far.
	Limit, Work int
	// Cut is set when the request set ended because Work passed Limit:
	// requests were left unasked.
	Cut bool
	// Requests is the number of requests yielded.
	Requests int
}

// NewBound is the bound of a comparison of models: BoundFloor, and
// BoundPerDirective for each directive nginx reads in each of them.
func NewBound(models ...*Model) *Bound {
	limit := BoundFloor
	for _, m := range models {
		if m == nil || m.cfg == nil {
			continue
		}
		m.cfg.Walk(func(*parser.Directive, []*parser.Directive) bool {
			limit += BoundPerDirective
			return true
		})
	}
	return &Bound{Limit: limit}
}

// spent charges w for work about to be done and reports whether the
// bound is then spent, marking it cut: the caller leaves that work
// undone.
func (b *Bound) spent(w int) bool {
	if b == nil {
		return false
	}
	b.Work += w
	if b.Work > b.Limit {
		b.Cut = true
	}
	return b.Cut
}

// Probes is routing.Probes of models that ends, Cut set, when the
// bound is spent (by the request set's own work or by the answers
// DiffBounded charges).
func (b *Bound) Probes(models ...*Model) iter.Seq[HTTPRequest] {
	return func(yield func(HTTPRequest) bool) {
		probes(models, b, func(r HTTPRequest) bool {
			if b.spent(RequestWork) {
				return false
			}
			b.Requests++
			return yield(r)
		})
	}
}

// charge counts the location levels an answer went through.
func (b *Bound) charge(as ...*Answer) {
	if b == nil {
		return
	}
	// Charged after the work, which is done: it cuts what follows.
	w := 0
	for _, a := range as {
		for i := range a.Steps {
			for l := a.Steps[i].Location; l != nil; l = l.Parent {
				w++
			}
		}
	}
	b.Work += w
}

// String says how far a cut comparison went.
func (b *Bound) String() string {
	return fmt.Sprintf("the request set was cut after %d requests, at its bound of work (%d units for configurations of this size)", b.Requests, b.Limit)
}

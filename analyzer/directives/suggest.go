package directives

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/internal/didyoumean"
)

// maxSuggestions caps Suggest's answer: more names than this make a
// "did you mean" message harder to read, not more helpful.
const maxSuggestions = 3

// Suggest returns up to three known directive names close to name, the
// closest first (ties in alphabetical order), for "did you mean"
// messages. Closeness is the edit distance with adjacent transpositions
// counting as one edit, compared case-insensitively. Names further away
// than didyoumean.MaxEdits allows are left out, and so are names more than one edit
// further than the closest one (a near-exact match makes distant ones
// noise), so the answer is often short or empty. name itself is never
// suggested.
//
// Only names whose length is within the bound are measured, and each
// measurement stops as soon as it exceeds the bound, so a call costs
// tens of microseconds and calling it for hundreds of unknown directives
// in one config is cheap.
func Suggest(name string) []string {
	q := strings.ToLower(name)
	limit := didyoumean.MaxEdits(len(q))

	type candidate struct {
		name string
		dist int
	}
	var best [maxSuggestions]candidate
	n := 0

	// Three DP rows of up to len(q)+limit+1 cells; most names fit on the
	// stack.
	var stack [3 * 64]int
	buf := stack[:]
	if need := 3 * (len(q) + limit + 1); need > len(buf) {
		buf = make([]int, need)
	}

	for l := max(len(q)-limit, 1); l <= len(q)+limit && l < len(idx.byLen); l++ {
		for _, cand := range idx.byLen[l] {
			if cand == name {
				continue
			}
			bound := limit
			if n == maxSuggestions {
				// Only something at least as close as the current worst
				// can get in.
				bound = best[n-1].dist
			}
			d := didyoumean.Distance(q, cand, bound, buf)
			if d > bound {
				continue
			}
			c := candidate{cand, d}
			less := func(a, b candidate) bool {
				return a.dist < b.dist || a.dist == b.dist && a.name < b.name
			}
			if n == maxSuggestions {
				if !less(c, best[n-1]) {
					continue
				}
				n--
			}
			// Insertion into a list of at most three.
			i := n
			for i > 0 && less(c, best[i-1]) {
				best[i] = best[i-1]
				i--
			}
			best[i] = c
			n++
		}
	}

	for n > 0 && best[n-1].dist > best[0].dist+1 {
		n--
	}
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = best[i].name
	}
	return out
}

package directives

import "strings"

// maxSuggestions caps Suggest's answer: more names than this make a
// "did you mean" message harder to read, not more helpful.
const maxSuggestions = 3

// maxEdits is the largest edit distance Suggest accepts for a name of n
// bytes: about one edit per four characters, at least one and at most
// three. A looser bound offers unrelated names, since most short names
// are within two edits of some other name.
func maxEdits(n int) int {
	return min(max(n/4, 1), 3)
}

// Suggest returns up to three known directive names close to name, the
// closest first (ties in alphabetical order), for "did you mean"
// messages. Closeness is the edit distance with adjacent transpositions
// counting as one edit, compared case-insensitively. Names further away
// than maxEdits allows are left out, and so are names more than one edit
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
	limit := maxEdits(len(q))

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
			d := editDistance(q, cand, bound, buf)
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

// editDistance returns the optimal-string-alignment distance between a
// and b (insertions, deletions, substitutions and transpositions of
// adjacent bytes, each costing one), or bound+1 as soon as it is certain
// to exceed bound. buf must hold at least 3*(len(b)+1) ints.
//
// Bytes rather than runes are compared because directive names are
// ASCII; a non-ASCII typo only costs a little more.
func editDistance(a, b string, bound int, buf []int) int {
	if d := len(a) - len(b); d > bound || -d > bound {
		return bound + 1
	}
	w := len(b) + 1
	prev2, prev, cur := buf[:w], buf[w:2*w], buf[2*w:3*w]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		// No row's minimum is below the previous row's (a transposition
		// reaches back two rows but adds one edit), so once a whole row
		// is past the bound the answer is too.
		if rowMin > bound {
			return bound + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

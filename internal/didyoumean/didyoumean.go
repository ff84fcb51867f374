// Package didyoumean picks the known names closest to a misspelt one, for
// the "did you mean" part of messages about commands, rule names and
// settings keys. The candidate lists are small (tens of names), so every
// candidate is measured in full.
package didyoumean

import (
	"sort"
	"strings"
)

// maxSuggestions caps Closest's answer: more names make a message harder
// to read, not more helpful.
const maxSuggestions = 3

// MaxEdits is the largest edit distance accepted for a word of n bytes:
// about one edit per four characters, at least one and at most three, so
// short words are not matched to unrelated short names (most short names
// are within two edits of some other name).
func MaxEdits(n int) int { return min(max(n/4, 1), 3) }

// Closest returns up to three candidates close to name, the closest first
// (ties in the candidates' alphabetical order). A candidate is close when
// either
//
//   - its edit distance to name (insertions, deletions, substitutions and
//     adjacent transpositions, case-insensitive) is within maxEdits, as
//     "lnit" is to "lint"; or
//   - every word of name (words split at "-", "_", "." and spaces) matches
//     a distinct word of the candidate, exactly, within one edit, or as
//     its start, as "ssl-weak" matches "weak-ssl-tls": people remember
//     the words of a kebab-case name but not their order or all of them.
//
// The score is the edit distance in the first case and, in the second,
// the edits inside the matched words plus one per word of the candidate
// left unmatched; the lower of the two counts. Candidates more than one
// point behind the best are dropped (a near-exact match makes distant
// ones noise). name itself, in any case, is never suggested.
func Closest(name string, candidates []string) []string {
	q := strings.ToLower(name)
	if q == "" {
		return nil
	}
	qw := words(q)
	type scored struct {
		name  string
		score int
	}
	var found []scored
	for _, c := range candidates {
		lc := strings.ToLower(c)
		if lc == q {
			return nil // name is known: nothing to suggest
		}
		score := -1
		if d := distance(q, lc); d <= MaxEdits(len(q)) {
			score = d
		}
		if s, ok := wordScore(qw, words(lc)); ok && (score < 0 || s < score) {
			score = s
		}
		if score >= 0 {
			found = append(found, scored{c, score})
		}
	}
	sort.Slice(found, func(i, j int) bool {
		if found[i].score != found[j].score {
			return found[i].score < found[j].score
		}
		return found[i].name < found[j].name
	})
	var out []string
	for _, f := range found {
		if len(out) == maxSuggestions || f.score > found[0].score+1 {
			break
		}
		out = append(out, f.name)
	}
	return out
}

// words splits a lower-case name into its words.
func words(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == ' ' })
}

// wordScore matches every query word to a distinct candidate word and
// returns the edits spent plus the candidate words left over; ok is false
// when some query word has no match, or when no query word is long
// enough (three bytes) to mean anything on its own.
func wordScore(qw, cw []string) (score int, ok bool) {
	if len(qw) == 0 {
		return 0, false
	}
	long := false
	used := make([]bool, len(cw))
	for _, w := range qw {
		long = long || len(w) >= 3
		best, bestCost := -1, 0
		for j, c := range cw {
			if used[j] {
				continue
			}
			cost := -1
			switch {
			case w == c:
				cost = 0
			case len(w) >= 3 && strings.HasPrefix(c, w):
				cost = 1
			case len(w) >= 4 && distance(w, c) == 1:
				cost = 1
			}
			if cost >= 0 && (best < 0 || cost < bestCost) {
				best, bestCost = j, cost
			}
		}
		if best < 0 {
			return 0, false
		}
		used[best] = true
		score += bestCost
	}
	if !long {
		return 0, false
	}
	for _, u := range used {
		if !u {
			score++
		}
	}
	return score, true
}

// distance is Distance without a bound.
func distance(a, b string) int { return Distance(a, b, max(len(a), len(b)), nil) }

// Distance returns the optimal-string-alignment distance between a and b
// (insertions, deletions, substitutions and transpositions of adjacent
// bytes, each costing one), or bound+1 as soon as it is certain to exceed
// bound, so measuring a name against a long list stays cheap. buf, when
// it holds at least 3*(len(b)+1) ints, is used for the rows instead of
// allocating. Bytes rather than runes are compared because the names
// (directives, rules, commands) are ASCII; a non-ASCII typo only costs a
// little more.
func Distance(a, b string, bound int, buf []int) int {
	if d := len(a) - len(b); d > bound || -d > bound {
		return bound + 1
	}
	w := len(b) + 1
	if len(buf) < 3*w {
		buf = make([]int, 3*w)
	}
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
	return min(prev[len(b)], bound+1)
}

// Suffix words names as the end of a message: `, did you mean "a"?`,
// `, did you mean "a" or "b"?`; "" when names is empty, so a caller can
// append it unconditionally.
func Suffix(names []string) string {
	if len(names) == 0 {
		return ""
	}
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = `"` + n + `"`
	}
	list := q[0]
	if len(q) > 1 {
		list = strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
	}
	return ", did you mean " + list + "?"
}

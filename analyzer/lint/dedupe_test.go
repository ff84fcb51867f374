package lint

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/parser"
)

// TestDedupe checks dedupe, which compares neighbours in a list in
// analyzer.Run's order, against the map of every finding it replaced:
// the same findings kept, in the same order, for lists in that order and
// in any other.
func TestDedupe(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	files := []string{"/a.conf", "/b.conf"}
	codes := []string{"NL2001", "NL2002"}
	msgs := []string{"x", "y", "z", "w", "v", "u", "t", "s", "r", "q", "p", "o"}
	dropped, crowded := 0, 0
	for round := range 200 {
		var ds []*parser.Diagnostic
		// Half the rounds have a dozen messages at few places, so a place
		// has more findings than dedupe compares one by one.
		nm := 2 + 10*(round/2%2)
		for range r.IntN(80) {
			start := int32(r.IntN(4))
			ds = append(ds, &parser.Diagnostic{Path: files[r.IntN(2)], Code: codes[r.IntN(2)], Message: msgs[r.IntN(nm)],
				Range: parser.Range{Start: start, End: start + int32(r.IntN(2))}})
		}
		if round%2 == 0 {
			slices.SortStableFunc(ds, comparePlace)
		}
		want := dedupeAny(slices.Clone(ds))
		got := dedupe(slices.Clone(ds))
		if !slices.Equal(got, want) {
			t.Fatalf("round %d (sorted %v): dedupe kept %d findings, the map %d", round, round%2 == 0, len(got), len(want))
		}
		if round%2 == 0 {
			dropped += len(ds) - len(got)
			crowded = max(crowded, mostAtOnePlace(got))
		}
	}
	if dropped == 0 {
		t.Error("no sorted list had a repeat: the test checks nothing")
	}
	if crowded <= fewAtOnePlace {
		t.Errorf("at most %d findings kept at one place: the map of a crowded place is not tested", crowded)
	}
}

// mostAtOnePlace returns the most findings of ds, sorted, at one place.
func mostAtOnePlace(ds []*parser.Diagnostic) int {
	most, n := 0, 0
	for i, d := range ds {
		if i > 0 && comparePlace(ds[i-1], d) == 0 {
			n++
		} else {
			n = 1
		}
		most = max(most, n)
	}
	return most
}

// TestDedupeCrowdedPlace: 400,000 different findings at one place (a rule
// that spoke once for each port of six ranges) are kept, each once, in a
// time the old neighbour-by-neighbour comparison (8·10^10 string
// compares, minutes) could not reach; the minute allowed only
// catches that hang.
func TestDedupeCrowdedPlace(t *testing.T) {
	const n = 400_000
	ds := make([]*parser.Diagnostic, 0, n+n/2)
	for i := range n + n/2 {
		ds = append(ds, &parser.Diagnostic{Path: "/a.conf", Code: "NL2054", Message: "port " + strconv.Itoa(i%n)})
	}
	done := make(chan []*parser.Diagnostic)
	go func() { done <- dedupe(ds) }()
	select {
	case got := <-done:
		if len(got) != n {
			t.Errorf("kept %d findings, want %d", len(got), n)
		}
	case <-time.After(time.Minute):
		t.Fatal("dedupe ran for a minute")
	}
}

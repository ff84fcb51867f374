package lint

import (
	"math/rand/v2"
	"slices"
	"testing"

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
	msgs := []string{"x", "y"}
	dropped := 0
	for round := range 200 {
		var ds []*parser.Diagnostic
		for range r.IntN(40) {
			start := int32(r.IntN(4))
			ds = append(ds, &parser.Diagnostic{Path: files[r.IntN(2)], Code: codes[r.IntN(2)], Message: msgs[r.IntN(2)],
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
		}
	}
	if dropped == 0 {
		t.Error("no sorted list had a repeat: the test checks nothing")
	}
}

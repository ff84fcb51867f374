package report

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestJSONStream checks that jsonStream writes the bytes json.Encoder
// writes for the whole value, for an array at the top, under a key at
// the first level and under a key deeper down (SARIF's results), empty
// or not, with and without HTML escapes, and with a string that spells
// the empty array it looks for.
func TestJSONStream(t *testing.T) {
	type item struct {
		Text string `json:"text"`
		N    []int  `json:"n,omitempty"`
	}
	type inner struct {
		Note    string `json:"note"`
		Results []item `json:"results"`
		After   string `json:"after"`
	}
	type outer struct {
		Decoy string  `json:"decoy"`
		Runs  []inner `json:"runs"`
	}
	type flat struct {
		Diagnostics []item `json:"diagnostics"`
	}
	for _, n := range []int{0, 1, 3} {
		var items []item
		for i := range n {
			items = append(items, item{Text: "<a> & \"results\": []\n", N: make([]int, i)})
		}
		elem := func(i int) any { return items[i] }
		for _, esc := range []bool{true, false} {
			for _, c := range []struct {
				name       string
				empty, all any
				key        string
				depth      int
			}{
				{"top", []item{}, append([]item{}, items...), "", 0},
				{"flat", flat{[]item{}}, flat{append([]item{}, items...)}, "diagnostics", 1},
				{"nested", outer{"\n      \"results\": []", []inner{{"x", []item{}, "y"}}},
					outer{"\n      \"results\": []", []inner{{"x", append([]item{}, items...), "y"}}}, "results", 3},
			} {
				var want, got bytes.Buffer
				enc := json.NewEncoder(&want)
				enc.SetEscapeHTML(esc)
				enc.SetIndent("", "  ")
				if err := enc.Encode(c.all); err != nil {
					t.Fatal(err)
				}
				if err := jsonStream(&got, c.empty, c.key, c.depth, n, elem, esc); err != nil {
					t.Fatalf("%s, %d items: %v", c.name, n, err)
				}
				if got.String() != want.String() {
					t.Errorf("%s, %d items, escapeHTML %v:\n%s\nwant\n%s", c.name, n, esc, got.String(), want.String())
				}
			}
		}
	}
}

package parser

import "sort"

// sortDiagnostics orders diagnostics by position, keeping the order of
// diagnostics at the same place.
func sortDiagnostics(ds []*Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		if ds[i].FilePath() != ds[j].FilePath() {
			return ds[i].FilePath() < ds[j].FilePath()
		}
		return ds[i].Range.Start < ds[j].Range.Start
	})
}

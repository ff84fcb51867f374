package directives

import (
	"math"
	"testing"
)

// TestRowID checks that every row survives the round trip through its
// number, and that the table fits the int16 the numbers are stored in.
func TestRowID(t *testing.T) {
	if len(directiveTable) > math.MaxInt16 {
		t.Fatalf("%d rows do not fit RowID's int16", len(directiveTable))
	}
	for i := range directiveTable {
		d := &directiveTable[i]
		if id := RowID(d); int(id) != i || Row(id) != d {
			t.Fatalf("row %d (%s): RowID %d, Row(RowID) %p, want %p", i, d.Name, id, Row(id), d)
		}
		if _, _, want := Resolve(d.Name, 0); NameIDOf(int16(i)) != want {
			t.Fatalf("row %d (%s): NameIDOf %d, Resolve's id %d", i, d.Name, NameIDOf(int16(i)), want)
		}
	}
	if RowID(nil) != -1 || Row(-1) != nil {
		t.Error("nil is not -1")
	}
	defer func() {
		if recover() == nil {
			t.Error("RowID of a copy of a row did not panic")
		}
	}()
	c := directiveTable[0]
	RowID(&c)
}

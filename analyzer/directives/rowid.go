package directives

import "unsafe"

// RowID numbers d, a row of the directive table as Resolve, InContext and
// Lookup return them, so that a caller keeping a row for each of millions
// of directives (the analyzer's index) stores two bytes instead of a
// pointer. RowID(nil) is -1. It panics on a Directive that is not a row
// of the table.
func RowID(d *Directive) int16 {
	if d == nil {
		return -1
	}
	off := uintptr(unsafe.Pointer(d)) - uintptr(unsafe.Pointer(&directiveTable[0]))
	i := off / unsafe.Sizeof(directiveTable[0])
	if i >= uintptr(len(directiveTable)) || &directiveTable[i] != d {
		panic("directives.RowID: not a row of the directive table")
	}
	return int16(i)
}

// Row returns the row RowID numbered id, nil for -1.
func Row(id int16) *Directive {
	if id < 0 {
		return nil
	}
	return &directiveTable[id]
}

// NameIDOf returns the id Resolve gives the name of the row RowID
// numbered id (which must not be -1): the name of a row already resolved
// is then known without looking it up again.
func NameIDOf(id int16) int32 { return idx.rowName[id] }

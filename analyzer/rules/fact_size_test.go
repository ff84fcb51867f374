package rules

import (
	"testing"
	"unsafe"
)

// TestFactSizes pins the size of the facts a run keeps for its whole
// length, one per item of the configuration: a regexUse for each regex
// argument (a location regex on every server of a big configuration).
// A field added without thought shows up here (see the README's Memory).
func TestFactSizes(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"regexArg", unsafe.Sizeof(regexArg{}), 32},
		{"regexUse", unsafe.Sizeof(regexUse{}), 40},
	} {
		if c.got != c.want {
			t.Errorf("unsafe.Sizeof(%s{}) = %d, want %d", c.name, c.got, c.want)
		}
	}
}

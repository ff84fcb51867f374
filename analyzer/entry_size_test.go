package analyzer

import (
	"testing"
	"unsafe"
)

// TestEntrySize keeps an index entry at 16 bytes: a 100 MB configuration
// has four million of them, so 8 bytes more cost 34 MB for the whole run.
// A field added without thought shows up here (see the README's Memory).
func TestEntrySize(t *testing.T) {
	if got := unsafe.Sizeof(Entry{}); got != 16 {
		t.Errorf("unsafe.Sizeof(Entry{}) = %d, want 16", got)
	}
}

package costmodel

import (
	"testing"
	"unsafe"
)

// TestRecordSizes keeps the per-listen records at the sizes the 20,000
// server benchmark was tuned for: each byte is 20 KB per run, and slab
// chunks of 256 fill a size class exactly only at these sizes.
func TestRecordSizes(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"Instance", unsafe.Sizeof(Instance{}), 32},
		{"Addr", unsafe.Sizeof(Addr{}), 80},
		{"Port", unsafe.Sizeof(Port{}), 96},
	} {
		if c.got > c.want {
			t.Errorf("%s is %d bytes, want at most %d", c.name, c.got, c.want)
		}
	}
}

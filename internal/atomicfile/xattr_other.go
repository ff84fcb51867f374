//go:build !linux

package atomicfile

// hasXattrs is false where extended attributes are not looked at: the
// file is replaced as usual.
func hasXattrs(string) bool { return false }

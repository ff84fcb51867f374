package atomicfile

import "syscall"

// hasXattrs reports whether path carries extended attributes (POSIX
// ACLs, SELinux labels, user attributes), which a replacement file would
// not inherit.
func hasXattrs(path string) bool {
	n, err := syscall.Listxattr(path, nil)
	return err == nil && n > 0
}

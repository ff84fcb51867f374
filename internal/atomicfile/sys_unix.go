//go:build unix

package atomicfile

import (
	"io/fs"
	"os"
	"syscall"
)

var interruptSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM}

// reraise sends s to this process again; with the handler gone, the
// default action ends it, so the parent sees the signal, not an exit code.
func reraise(s os.Signal) {
	if sig, ok := s.(syscall.Signal); ok {
		syscall.Kill(os.Getpid(), sig)
	}
}

func linkCount(st fs.FileInfo) uint64 {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return uint64(s.Nlink)
	}
	return 1
}

// keepOwner gives tmp the owner and group of the file st describes.
func keepOwner(tmp *os.File, st fs.FileInfo) error {
	want, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	have, err := tmp.Stat()
	if err != nil {
		return err
	}
	if h, ok := have.Sys().(*syscall.Stat_t); ok && h.Uid == want.Uid && h.Gid == want.Gid {
		return nil
	}
	return tmp.Chown(int(want.Uid), int(want.Gid))
}

// writable asks the kernel whether the caller may write path (access(2)
// with W_OK). Root passes whatever the mode; the mode check catches that.
func writable(path string) bool {
	const wOK = 2
	return syscall.Access(path, wOK) == nil
}

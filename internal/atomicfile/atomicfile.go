package atomicfile

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrReadOnly is returned for a file that has no write permission bits
// or that the caller may not write, when Options.Force is not set.
var ErrReadOnly = errors.New("read-only file")

// ErrOutsideRoot is returned when a symbolic link leads outside
// Options.Root.
var ErrOutsideRoot = errors.New("symbolic link leads outside the tree")

// ErrChanged is returned when the file no longer holds Options.Expect:
// someone changed it after the caller read it, and writing would lose
// that edit.
var ErrChanged = errors.New("changed since it was read")

// ErrNotRegular is returned when the path (after symbolic links) names
// something other than a regular file.
var ErrNotRegular = errors.New("not a regular file")

// Options tune WriteFile.
type Options struct {
	// Root, when set, is the tree the write must stay in once symbolic
	// links are followed. Callers set it for files they found by walking
	// a directory and leave it empty for a file the user named.
	Root string
	// Force writes a read-only file.
	Force bool
	// Perm is the mode of a file that does not exist yet, before the
	// umask; 0 means 0644.
	Perm fs.FileMode
	// Expect, when not nil, is what the caller read from the file and
	// computed data from: if the file holds anything else when the write
	// starts (an editor saved it meanwhile), nothing is written and the
	// error is ErrChanged. A file that has disappeared counts as changed.
	Expect []byte
}

// maxLinks bounds a chain of symbolic links, as the kernel's ELOOP does.
const maxLinks = 40

// Resolve returns the file that a write to name changes: symbolic links
// are followed, in every directory of the path and at the end, to a real
// path. The file itself need not exist (a new file, or a dangling link's
// target), but its directory must.
func Resolve(name string) (string, error) {
	p, err := filepath.Abs(name)
	if err != nil {
		return "", err
	}
	for hops := 0; ; hops++ {
		if hops > maxLinks {
			return "", &fs.PathError{Op: "resolve", Path: name, Err: errors.New("too many levels of symbolic links")}
		}
		// Split without cleaning: a link's "dir/../x" must resolve dir
		// before "..", as the kernel does, which EvalSymlinks does too.
		dir, base := ".", p
		if i := strings.LastIndexByte(p, filepath.Separator); i >= 0 {
			dir, base = p[:i+1], p[i+1:]
		}
		if base == "" || base == "." || base == ".." {
			return filepath.EvalSymlinks(p) // a directory: the caller's Stat refuses it
		}
		realDir, err := filepath.EvalSymlinks(dir)
		if err != nil {
			if hops > 0 && errors.Is(err, fs.ErrNotExist) {
				return "", &fs.PathError{Op: "resolve", Path: name, Err: errors.New("dangling symbolic link to " + p)}
			}
			return "", err
		}
		p = filepath.Join(realDir, base)
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return p, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return p, nil
		}
		link, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = realDir + string(filepath.Separator) + link
		}
		p = link
	}
}

// within reports whether p is root or under it; both are real paths.
func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// WriteFile replaces the contents of the file name leads to with data, as
// the package documentation describes, and returns the path it wrote
// (symbolic links resolved). A file that does not exist is created with
// Options.Perm. It is WriteFiles with one file.
func WriteFile(name string, data []byte, opts Options) (string, error) {
	written, err := WriteFiles([]Change{{Name: name, Data: data, Options: opts}})
	var fe *FileError
	if errors.As(err, &fe) {
		return fe.Target, fe.Err
	}
	if err != nil {
		target, _ := Resolve(name)
		return target, err
	}
	return written[0], nil
}

// errOwner says the replacement could not be given the old owner.
var errOwner = errors.New("cannot keep the owner")

// errNoTemp says no temporary file could be made beside the target.
var errNoTemp = errors.New("cannot create a file in the directory")

// testHook, when set by a test, runs while a temporary file exists (after
// its data is written), to deliver a signal at the worst moment.
var testHook func(tmp string)

// createTemp makes a new file beside the target, hidden and named after
// it, with perm (less the umask).
func createTemp(dir, base string, perm fs.FileMode) (*os.File, error) {
	for range 100 {
		name := filepath.Join(dir, "."+base+".nginx-lint-"+strconv.FormatUint(rand.Uint64(), 36))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, errors.New("cannot create a temporary file in " + dir)
}

// overwrite makes f hold exactly data, flushed, and reads it back.
func overwrite(f *os.File, data []byte) error {
	if _, err := f.WriteAt(data, 0); err != nil {
		return err
	}
	if err := f.Truncate(int64(len(data))); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	got := make([]byte, len(data)+1)
	n, err := f.ReadAt(got, 0)
	if err != nil && err != io.EOF {
		return err
	}
	if !bytes.Equal(got[:n], data) {
		return errors.New("the file does not read back as written")
	}
	return nil
}

// syncDir flushes a directory so a rename survives a crash; failing to
// is not an error (some file systems refuse fsync on directories).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

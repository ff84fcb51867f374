package atomicfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/signal"
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
// Options.Perm.
func WriteFile(name string, data []byte, opts Options) (string, error) {
	target, err := Resolve(name)
	if err != nil {
		return "", err
	}
	if opts.Root != "" {
		root, err := filepath.Abs(opts.Root)
		if err == nil {
			root, err = filepath.EvalSymlinks(root)
		}
		if err != nil {
			return target, err
		}
		if !within(root, target) {
			return target, fmt.Errorf("%w: %s leads to %s", ErrOutsideRoot, name, target)
		}
	}
	release := holdSignals()
	defer release()

	st, err := os.Stat(target)
	if opts.Expect != nil {
		// Compared with the contents, not the size and time: an edit
		// within the file system's time granularity that keeps the size
		// is still an edit.
		cur, rerr := os.ReadFile(target)
		if errors.Is(rerr, fs.ErrNotExist) || rerr == nil && !bytes.Equal(cur, opts.Expect) {
			return target, fmt.Errorf("%s: %w", target, ErrChanged)
		}
	}
	if errors.Is(err, fs.ErrNotExist) {
		perm := opts.Perm
		if perm == 0 {
			perm = 0o644
		}
		return target, create(target, data, perm)
	}
	if err != nil {
		return target, err
	}
	if !st.Mode().IsRegular() {
		return target, fmt.Errorf("%s: %w", target, ErrNotRegular)
	}
	if !opts.Force && (st.Mode().Perm()&0o222 == 0 || !writable(target)) {
		return target, fmt.Errorf("%s: %w", target, ErrReadOnly)
	}
	if linkCount(st) <= 1 && !hasXattrs(target) {
		err := replace(target, data, st)
		if !errors.Is(err, errOwner) && !errors.Is(err, errNoTemp) {
			return target, err
		}
	}
	// Several links, extended attributes (ACLs, SELinux labels) a new
	// file would not have, an owner we cannot give, or a directory we may
	// not create files in: write into the file itself, keeping the inode.
	return target, rewrite(target, data, st, opts.Force)
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

// writeTemp writes data to a new temporary file beside target, lets
// prepare adjust it, flushes it and renames it over target.
func writeTemp(target string, data []byte, perm fs.FileMode, prepare func(*os.File) error) error {
	dir, base := filepath.Split(target)
	tmp, err := createTemp(dir, base, perm)
	if err != nil {
		return fmt.Errorf("%w: %w", errNoTemp, err)
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if testHook != nil {
		testHook(tmp.Name())
	}
	if prepare != nil {
		if err := prepare(tmp); err != nil {
			return err
		}
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return err
	}
	done = true
	syncDir(dir)
	return nil
}

// create writes a new file.
func create(target string, data []byte, perm fs.FileMode) error {
	return writeTemp(target, data, perm, nil)
}

// replace swaps in a new copy of a file that has one link, with the old
// owner, group and mode; errOwner when the owner cannot be kept.
func replace(target string, data []byte, st fs.FileInfo) error {
	return writeTemp(target, data, 0o600, func(tmp *os.File) error {
		if err := keepOwner(tmp, st); err != nil {
			return fmt.Errorf("%w: %v", errOwner, err)
		}
		// After chown, which clears the set-id bits.
		return tmp.Chmod(st.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky))
	})
}

// rewrite writes data into the existing file, so its inode (hard links,
// owner, mode, extended attributes) stays. A backup copy of the old
// contents is made first; the write is read back and compared, and on
// any failure the old contents are put back.
func rewrite(target string, data []byte, st fs.FileInfo, force bool) (err error) {
	old, err := os.ReadFile(target)
	if err != nil {
		return err
	}
	dir, base := filepath.Split(target)
	backup, err := createTemp(dir, base, 0o600)
	if err != nil {
		// A directory we may not write: keep the backup elsewhere.
		if backup, err = createTemp(os.TempDir(), base, 0o600); err != nil {
			return err
		}
	}
	keepBackup := false
	defer func() {
		backup.Close()
		if !keepBackup {
			os.Remove(backup.Name())
		}
	}()
	if _, err := backup.Write(old); err != nil {
		return err
	}
	if err := backup.Sync(); err != nil {
		return err
	}
	if testHook != nil {
		testHook(backup.Name())
	}

	f, err := os.OpenFile(target, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrPermission) && force {
		// --force on a read-only file we own: lift the bit for the write.
		if cerr := os.Chmod(target, st.Mode().Perm()|0o200); cerr == nil {
			defer os.Chmod(target, st.Mode().Perm())
			f, err = os.OpenFile(target, os.O_RDWR, 0)
		}
	}
	if err != nil {
		return err
	}
	defer f.Close()
	if werr := overwrite(f, data); werr != nil {
		if rerr := overwrite(f, old); rerr != nil {
			keepBackup = true
			return fmt.Errorf("%v; restoring the old contents failed too (%v): they are in %s", werr, rerr, backup.Name())
		}
		return werr
	}
	return nil
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

// holdSignals catches SIGINT and SIGTERM until release is called; a
// signal caught meanwhile is then delivered again, with the default
// action, so the process still ends as the user asked, only after the
// write is whole and its temporary file gone.
func holdSignals() (release func()) {
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, interruptSignals...)
	return func() {
		signal.Stop(ch)
		select {
		case s := <-ch:
			reraise(s)
		default:
		}
	}
}

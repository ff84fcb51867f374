package parser

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
)

// DefaultMaxFileSize is the per-file limit a Loader applies when its
// MaxFileSize is zero: far above any hand-written configuration, and
// generated ones of a hundred thousand servers, low enough that a stray
// log or image cannot exhaust memory. A lint peaks at about 6 bytes per
// byte of the densest configurations and 5.3 of typical ones
// (docs/robustness.md), so a file at the limit peaks near 750 MiB.
const DefaultMaxFileSize = 128 << 20

// MaxSourceSize is the largest file the parser takes, whatever limit is
// asked for: offsets in the tree are 32-bit (see Range), and 1 GiB
// leaves room for "one past the end" arithmetic. A larger file is a
// *TooLargeError when read, and a file-too-large finding (nothing parsed)
// when handed to ParseString.
const MaxSourceSize = 1 << 30

// ErrNotRegular is the error (inside a *fs.PathError) for a path that is
// a device, a FIFO, a socket or a directory. nginx reads st_size bytes of
// a configuration file, which for such a file means nothing (or, for a
// FIFO, blocking until a writer comes); nginx-lint refuses them instead
// of reading from them.
var ErrNotRegular = errors.New("not a regular file")

// TooLargeError is returned for a file over the per-file limit.
type TooLargeError struct {
	Path string
	// Size is the file's size, or -1 when it is only known to be over
	// Limit (standard input).
	Size, Limit int64
}

func (e *TooLargeError) Error() string {
	if e.Size < 0 {
		return fmt.Sprintf("%s: more than the %s limit", e.Path, FormatSize(e.Limit))
	}
	return fmt.Sprintf("%s: %s, over the %s limit", e.Path, FormatSize(e.Size), FormatSize(e.Limit))
}

// BudgetError is returned when reading a file would take a run past its
// total byte limit (ReadBudget).
type BudgetError struct {
	Path  string
	Limit int64
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("%s: reading it would pass the %s limit on all files of this run", e.Path, FormatSize(e.Limit))
}

// FormatSize writes a byte count the way the limits are given: "16 MiB".
func FormatSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// ReadConfigFile reads path as nginx reads a configuration file, and
// never in a way that can block or exhaust memory: a path that is not a
// regular file is refused (ErrNotRegular) without being opened; the file
// is opened non-blocking, checked again on the open descriptor (it may
// have been swapped since the stat), and read up to the size it has then,
// so a file of size 0 in /proc reads as empty, as in nginx, and a file
// that grows while it is read is cut where it stood. A file over max
// bytes (max ≤ 0 means DefaultMaxFileSize) is a *TooLargeError.
func ReadConfigFile(path string, max int64) ([]byte, error) {
	if max <= 0 {
		max = DefaultMaxFileSize
	}
	max = min(max, MaxSourceSize)
	// Stat first: opening some devices has effects of its own (a tape
	// rewinds, a terminal can become the controlling one).
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err = f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	size := st.Size()
	if size > max {
		return nil, &TooLargeError{Path: path, Size: size, Limit: max}
	}
	buf := make([]byte, size)
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	// A file that shrank since fstat is read as far as it goes.
	return buf[:n], nil
}

// ErrElsewhere marks a file that is on the deployment host, not here: a
// symbolic link of a checked-out tree to an absolute path that the
// checkout does not hold (Debian's modules-enabled/50-mod-stream.conf ->
// /usr/share/nginx/modules-available/mod-stream.conf, which the module's
// package installs). This machine's file of that name is not the
// deployment's, so it is never read. The loader takes an include of it as
// present but unseen: no finding, and the configuration is incomplete
// (Config.Elsewhere).
var ErrElsewhere = errors.New("a file of the deployment host that this checkout does not hold")

// ErrEmptyPipe is the error (inside a *fs.PathError) for a pipe named on
// the command line that gave nothing: its writer wrote nothing, or there
// was none when it was opened. Linting nothing must not pass a CI gate
// (a template whose expansion failed is the usual cause).
var ErrEmptyPipe = errors.New("the pipe gave nothing to read (no writer, or its writer wrote nothing)")

// IsNamedPipe reports whether path is a FIFO: a named pipe, or a pipe a
// shell hands over as /dev/fd/N (process substitution, <(command)).
func IsNamedPipe(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode()&fs.ModeNamedPipe != 0
}

// OpenNamedPipe opens path, a FIFO named on the command line, to be read
// as standard input is (ReadStream, within the same limits). Only a path
// the user names gets this: includes and files found in a directory are
// read with ReadConfigFile, which refuses pipes. Opening never waits for
// a writer (O_NONBLOCK); the reads then block as standard input's do,
// until the writer writes or closes, and with no writer they end at once
// (an empty read, which the caller reports as ErrEmptyPipe). Anything
// but a FIFO is ErrNotRegular, checked again on the open descriptor.
func OpenNamedPipe(path string) (*os.File, error) {
	if !IsNamedPipe(path) {
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || st.Mode()&fs.ModeNamedPipe == 0 {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	// Fd puts the descriptor back in blocking mode: a read waits for a
	// writer that has not written yet, rather than failing (where the
	// runtime cannot poll a FIFO, as on macOS).
	f.Fd()
	return f, nil
}

// ReadStream reads r (standard input) up to max bytes (≤ 0 means
// DefaultMaxFileSize); more is a *TooLargeError naming name.
func ReadStream(name string, r io.Reader, max int64) ([]byte, error) {
	if max <= 0 {
		max = DefaultMaxFileSize
	}
	max = min(max, MaxSourceSize)
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, &TooLargeError{Path: name, Size: -1, Limit: max}
	}
	return b, nil
}

// MaxReader is a FileSystem that can bound what it reads. The loader
// uses it when its file system offers it; any other FileSystem's result
// is checked against the limit after the read.
type MaxReader interface {
	ReadFileMax(path string, max int64) ([]byte, error)
}

// readFileMax reads path from fsys, bounded by max where fsys allows.
func readFileMax(fsys FileSystem, path string, max int64) ([]byte, error) {
	if m, ok := fsys.(MaxReader); ok {
		return m.ReadFileMax(path, max)
	}
	return fsys.ReadFile(path)
}

// ReadFileMax reads path through fsys, bounded by max (≤ 0 means
// DefaultMaxFileSize) when fsys supports it; for FileSystem wrappers.
func ReadFileMax(fsys FileSystem, path string, max int64) ([]byte, error) {
	return readFileMax(fsys, path, max)
}

// ReadBudget bounds the bytes all the loaders of one run read together,
// so a directory of large files cannot exhaust memory. A file read by
// several loaders (an include shared by two entry points) counts once.
// A nil *ReadBudget is no limit. It is safe for concurrent use.
type ReadBudget struct {
	// Max is the total in bytes.
	Max int64

	mu      sync.Mutex
	used    int64
	charged map[string]bool
}

// Charge records n bytes of path, or returns a *BudgetError (and records
// nothing) when they would pass Max.
func (b *ReadBudget) Charge(path string, n int64) error {
	if b == nil || b.Max <= 0 {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.charged[path] {
		return nil
	}
	if b.used+n > b.Max {
		return &BudgetError{Path: path, Limit: b.Max}
	}
	if b.charged == nil {
		b.charged = map[string]bool{}
	}
	b.charged[path] = true
	b.used += n
	return nil
}

// Used returns the bytes charged so far.
func (b *ReadBudget) Used() int64 {
	if b == nil {
		return 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// ReadErrorFinding words a read error as a finding: its code, name and
// message. Files that are not regular, too large or past the run's
// budget have codes of their own; the rest is include-not-found for an
// include and unreadable-file for a path given to nginx-lint.
func ReadErrorFinding(err error, include bool) (code, name, msg string) {
	var tl *TooLargeError
	var be *BudgetError
	switch {
	case errors.Is(err, ErrNotRegular):
		return CodeNotRegular, NameNotRegular, "not a regular file"
	case errors.As(err, &tl):
		if tl.Size < 0 {
			return CodeTooLarge, NameTooLarge, fmt.Sprintf("file is larger than the %s limit", FormatSize(tl.Limit))
		}
		return CodeTooLarge, NameTooLarge, fmt.Sprintf("file is %s, over the %s limit", FormatSize(tl.Size), FormatSize(tl.Limit))
	case errors.As(err, &be):
		return CodeBudget, NameBudget, fmt.Sprintf("not read: the files of this run would pass the %s total limit", FormatSize(be.Limit))
	}
	var pe *fs.PathError
	msg = err.Error()
	if errors.As(err, &pe) {
		msg = pe.Err.Error()
	}
	if include {
		return CodeIncludeNotFound, NameIncludeNotFound, msg
	}
	return CodeUnreadable, NameUnreadable, "cannot read file: " + msg
}

// ParseSize reads a byte count as the limits are written: a number with
// an optional unit, "16MiB", "16M", "512 KiB", "1GB" (K, M and G are
// powers of 1024 with or without "iB" or "B"), or plain bytes.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, fmt.Errorf("size %q: want a number of bytes with an optional unit (KiB, MiB, GiB)", s)
	}
	n, err := strconv.ParseInt(t[:i], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("size %q: %v", s, err)
	}
	var shift uint
	switch strings.ToUpper(strings.TrimSpace(t[i:])) {
	case "", "B":
	case "K", "KB", "KIB":
		shift = 10
	case "M", "MB", "MIB":
		shift = 20
	case "G", "GB", "GIB":
		shift = 30
	default:
		return 0, fmt.Errorf("size %q: unknown unit %q (want KiB, MiB or GiB)", s, strings.TrimSpace(t[i:]))
	}
	if n > math.MaxInt64>>shift {
		return 0, fmt.Errorf("size %q is too large", s)
	}
	return n << shift, nil
}

// LooksBinary reports whether src, a file found by walking a directory,
// is not a configuration: its first 8000 bytes hold a NUL byte (git's
// test) or are mostly control characters. nginx-lint skips such files
// with a finding instead of reporting every byte as a syntax error.
func LooksBinary(src []byte) bool {
	head := src[:min(len(src), 8000)]
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	ctl := 0
	for _, c := range head {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' && c != 0x1b {
			ctl++
		}
	}
	return len(head) > 0 && ctl*10 > len(head)*3
}

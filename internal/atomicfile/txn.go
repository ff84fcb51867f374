package atomicfile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
)

// Change is one file of WriteFiles: the path to write, what to write,
// and how.
type Change struct {
	Name    string
	Data    []byte
	Options Options
}

// FileError is the error of WriteFiles: the file that stopped it, as
// named and as it resolved (Target, "" when it did not), and why. Nothing
// was written.
type FileError struct {
	Name, Target string
	Err          error
}

func (e *FileError) Error() string { return e.Name + ": " + e.Err.Error() }
func (e *FileError) Unwrap() error { return e.Err }

// ErrInterrupted is returned when SIGINT or SIGTERM came before the first
// file was replaced: nothing was written (the signal is delivered again
// once WriteFiles returns).
var ErrInterrupted = errors.New("interrupted before anything was written")

// beforeApply, when set by a test, runs before each file is put in place;
// an error fails that file's step.
var beforeApply func(target string) error

// step is one file of a transaction.
type step struct {
	c      Change
	target string
	st     fs.FileInfo // nil for a new file
	// skip is set when the file already holds c.Data (another run wrote
	// it, or there was nothing to change).
	skip bool
	// tmp is the new contents, staged beside the target to be renamed
	// over it; "" when the file is rewritten in place.
	tmp string
	// old is the file's contents, for an in-place rewrite and to put it
	// back; backup is where the old file is kept once replaced (a hard
	// link to it, or a copy) until the transaction is done.
	old    []byte
	backup string
	// inPlace is set once the file was rewritten in place; done once
	// its new contents are in place either way.
	inPlace bool
	done    bool
}

// WriteFiles writes every change, as WriteFile writes one, or none of
// them, and returns the paths written (symbolic links resolved), in
// order.
//
// Every file is checked first (symbolic links, Root, Expect, a regular
// file, not read-only): the first that fails stops the transaction
// before anything is touched, as a *FileError. A file that already holds
// what it would be given counts as written (two runs of the formatter on
// one file both succeed). The new contents are then staged in temporary
// files beside their targets and flushed; only when all are staged are
// they renamed over their targets, each old file kept as a backup until
// the last is in place. If a rename or an in-place rewrite fails, the
// files already replaced get their old contents back. SIGINT and SIGTERM
// are held throughout: one that comes while files are staged abandons
// the transaction (ErrInterrupted), one that comes during the renames
// lets them finish; either way no temporary file is left, and the signal
// is delivered again before WriteFiles returns.
func WriteFiles(changes []Change) ([]string, error) {
	steps := make([]*step, 0, len(changes))
	byTarget := map[string]*step{}
	for _, c := range changes {
		s, err := check(c)
		if err != nil {
			return nil, &FileError{Name: c.Name, Target: s.target, Err: err}
		}
		if o := byTarget[s.target]; o != nil {
			if !bytes.Equal(o.c.Data, c.Data) {
				return nil, &FileError{Name: c.Name, Target: s.target, Err: fmt.Errorf("written twice with different contents (as %s too)", o.c.Name)}
			}
			s.skip = true
		}
		byTarget[s.target] = s
		steps = append(steps, s)
	}
	hold := holdSignals()
	defer hold.release()
	err := stage(steps, hold)
	if err == nil {
		err = commit(steps)
	}
	for _, s := range steps {
		if s.tmp != "" {
			os.Remove(s.tmp)
		}
		if s.backup != "" {
			os.Remove(s.backup)
		}
	}
	if err != nil {
		return nil, err
	}
	out := make([]string, len(steps))
	dirs := map[string]bool{}
	for i, s := range steps {
		out[i] = s.target
		if s.done && s.tmp != "" {
			dirs[filepath.Dir(s.target)] = true
		}
	}
	for d := range dirs {
		syncDir(d)
	}
	return out, nil
}

// check resolves and checks one change before anything is written.
func check(c Change) (*step, error) {
	opts := c.Options
	target, err := Resolve(c.Name)
	s := &step{c: c, target: target}
	if err != nil {
		return s, err
	}
	if opts.Root != "" {
		root, err := filepath.Abs(opts.Root)
		if err == nil {
			root, err = filepath.EvalSymlinks(root)
		}
		if err != nil {
			return s, err
		}
		if !within(root, target) {
			return s, fmt.Errorf("%w: %s leads to %s", ErrOutsideRoot, c.Name, target)
		}
	}
	st, err := os.Stat(target)
	if errors.Is(err, fs.ErrNotExist) {
		if opts.Expect != nil {
			return s, fmt.Errorf("%s: %w", target, ErrChanged)
		}
		return s, nil
	}
	if err != nil {
		return s, err
	}
	if !st.Mode().IsRegular() {
		return s, fmt.Errorf("%s: %w", target, ErrNotRegular)
	}
	s.st = st
	cur, err := os.ReadFile(target)
	if err != nil {
		return s, err
	}
	s.old = cur
	if !opts.Force && (st.Mode().Perm()&0o222 == 0 || !writable(target)) {
		return s, fmt.Errorf("%s: %w", target, ErrReadOnly)
	}
	if bytes.Equal(cur, c.Data) {
		// Already what we would write: whoever wrote it, there is
		// nothing to do and nothing lost.
		s.skip = true
		return s, nil
	}
	// Compared with the contents, not the size and time: an edit within
	// the file system's time granularity that keeps the size is still an
	// edit.
	if opts.Expect != nil && !bytes.Equal(cur, opts.Expect) {
		return s, fmt.Errorf("%s: %w", target, ErrChanged)
	}
	return s, nil
}

// stage writes the new contents of every file that is replaced, not
// rewritten in place, to a flushed temporary file beside it.
func stage(steps []*step, hold *held) error {
	for _, s := range steps {
		if hold.interrupted() {
			return ErrInterrupted
		}
		if s.skip {
			continue
		}
		if s.st != nil && (linkCount(s.st) > 1 || hasXattrs(s.target)) {
			// Several links, or extended attributes (ACLs, SELinux
			// labels) a new file would not have: written in place.
			continue
		}
		var prepare func(*os.File) error
		perm := s.c.Options.Perm
		if perm == 0 {
			perm = 0o644
		}
		if s.st != nil {
			perm = 0o600
			prepare = func(tmp *os.File) error {
				if err := keepOwner(tmp, s.st); err != nil {
					return fmt.Errorf("%w: %v", errOwner, err)
				}
				// After chown, which clears the set-id bits.
				return tmp.Chmod(s.st.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky))
			}
		}
		tmp, err := stageTemp(s.target, s.c.Data, perm, prepare)
		if s.st != nil && (errors.Is(err, errOwner) || errors.Is(err, errNoTemp)) {
			// An owner we cannot give, or a directory we may not create
			// files in: written in place.
			continue
		}
		if err != nil {
			return &FileError{Name: s.c.Name, Target: s.target, Err: err}
		}
		s.tmp = tmp
	}
	if hold.interrupted() {
		return ErrInterrupted
	}
	return nil
}

// stageTemp writes data to a new temporary file beside target, lets
// prepare adjust it and flushes it; it returns the file's name.
func stageTemp(target string, data []byte, perm fs.FileMode, prepare func(*os.File) error) (string, error) {
	dir, base := filepath.Split(target)
	tmp, err := createTemp(dir, base, perm)
	if err != nil {
		return "", fmt.Errorf("%w: %w", errNoTemp, err)
	}
	keep := false
	defer func() {
		if !keep {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return "", err
	}
	if testHook != nil {
		testHook(tmp.Name())
	}
	if prepare != nil {
		if err := prepare(tmp); err != nil {
			return "", err
		}
	}
	if err := tmp.Sync(); err != nil {
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	keep = true
	return tmp.Name(), nil
}

// commit puts every staged file in place, and on a failure puts back the
// old contents of those already replaced.
func commit(steps []*step) error {
	for _, s := range steps {
		if s.skip {
			continue
		}
		// The last look before the file is replaced: an edit saved since
		// it was checked is not lost.
		if exp := s.c.Options.Expect; exp != nil {
			cur, err := os.ReadFile(s.target)
			if err == nil && bytes.Equal(cur, s.c.Data) {
				// Written meanwhile by someone who computed the same
				// text (a second formatter on the same file).
				s.skip = true
				continue
			}
			if err != nil || !bytes.Equal(cur, exp) {
				undo(steps)
				return &FileError{Name: s.c.Name, Target: s.target, Err: fmt.Errorf("%s: %w", s.target, ErrChanged)}
			}
		}
		err := error(nil)
		if beforeApply != nil {
			err = beforeApply(s.target)
		}
		if err == nil {
			err = s.apply()
		}
		if err != nil {
			undo(steps)
			return &FileError{Name: s.c.Name, Target: s.target, Err: err}
		}
		s.done = true
	}
	return nil
}

// apply replaces the file of s with its staged contents, keeping the old
// file as a backup, or rewrites it in place.
func (s *step) apply() error {
	dir, base := filepath.Split(s.target)
	if s.tmp == "" {
		return s.rewriteInPlace()
	}
	if s.st != nil {
		// The old file stays reachable under a hidden name until the
		// transaction is done: a hard link, or failing that a copy.
		b, err := createTemp(dir, base, 0o600)
		if err != nil {
			return err
		}
		name := b.Name()
		b.Close()
		os.Remove(name)
		if err := os.Link(s.target, name); err != nil {
			if err := os.WriteFile(name, s.old, 0o600); err != nil {
				os.Remove(name)
				return err
			}
		}
		s.backup = name
	}
	if err := os.Rename(s.tmp, s.target); err != nil {
		return err
	}
	s.tmp = ""
	return nil
}

// rewriteInPlace writes the new contents into the existing file, so its
// inode (hard links, owner, mode, extended attributes) stays, after a
// backup copy of the old contents.
func (s *step) rewriteInPlace() error {
	dir, base := filepath.Split(s.target)
	b, err := createTemp(dir, base, 0o600)
	if err != nil {
		// A directory we may not write: keep the backup elsewhere.
		if b, err = createTemp(os.TempDir(), base, 0o600); err != nil {
			return err
		}
	}
	s.backup = b.Name()
	_, werr := b.Write(s.old)
	if werr == nil {
		werr = b.Sync()
	}
	b.Close()
	if werr != nil {
		return werr
	}
	if testHook != nil {
		testHook(s.backup)
	}
	f, err := os.OpenFile(s.target, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrPermission) && s.c.Options.Force {
		// --force on a read-only file we own: lift the bit for the write.
		if cerr := os.Chmod(s.target, s.st.Mode().Perm()|0o200); cerr == nil {
			defer os.Chmod(s.target, s.st.Mode().Perm())
			f, err = os.OpenFile(s.target, os.O_RDWR, 0)
		}
	}
	if err != nil {
		return err
	}
	defer f.Close()
	s.inPlace = true
	if werr := overwrite(f, s.c.Data); werr != nil {
		if rerr := overwrite(f, s.old); rerr != nil {
			kept := s.backup
			s.backup = "" // the only copy of the old contents now
			return fmt.Errorf("%v; restoring the old contents failed too (%v): they are in %s", werr, rerr, kept)
		}
		s.inPlace = false
		return werr
	}
	return nil
}

// undo puts back the old contents of every file already written.
func undo(steps []*step) {
	for i := len(steps) - 1; i >= 0; i-- {
		s := steps[i]
		if !s.done {
			continue
		}
		switch {
		case s.inPlace:
			if f, err := os.OpenFile(s.target, os.O_RDWR, 0); err == nil {
				if overwrite(f, s.old) != nil {
					s.backup = "" // keep it: the only copy left
				}
				f.Close()
			}
		case s.backup != "":
			if os.Rename(s.backup, s.target) == nil {
				s.backup = ""
			}
		case s.st == nil:
			os.Remove(s.target) // a file the transaction created
		}
		s.done = false
	}
}

// held catches SIGINT and SIGTERM until release.
type held struct {
	ch   chan os.Signal
	mu   sync.Mutex
	sigs []os.Signal
	stop chan struct{}
	wg   sync.WaitGroup
}

// holdSignals catches SIGINT and SIGTERM until release is called; a
// signal caught meanwhile is then delivered again, with the default
// action, so the process still ends as the user asked, only after the
// files are whole and the temporary files gone.
func holdSignals() *held {
	h := &held{ch: make(chan os.Signal, 2), stop: make(chan struct{})}
	signal.Notify(h.ch, interruptSignals...)
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		for {
			select {
			case s := <-h.ch:
				h.mu.Lock()
				h.sigs = append(h.sigs, s)
				h.mu.Unlock()
			case <-h.stop:
				return
			}
		}
	}()
	return h
}

// interrupted reports whether a signal came.
func (h *held) interrupted() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.sigs) > 0
}

// release stops catching the signals and delivers again the first one
// caught, if any.
func (h *held) release() {
	signal.Stop(h.ch)
	close(h.stop)
	h.wg.Wait()
	select {
	case s := <-h.ch:
		h.sigs = append(h.sigs, s)
	default:
	}
	if len(h.sigs) > 0 {
		reraise(h.sigs[0])
	}
}

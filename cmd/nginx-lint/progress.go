package main

import (
	"fmt"
	"io"
	"time"
)

// progress shows a long command's advance on one line of a terminal:
// "[12/108] L2c 12000, about 3m20s left", rewritten in place. Lines it
// is asked to print (results as they come) go above it. Off a terminal
// it prints only those lines, so logs and pipes get no control
// characters.
type progress struct {
	w     io.Writer
	tty   bool
	shown bool
}

func newProgress(w io.Writer, tty bool) *progress { return &progress{w: w, tty: tty} }

// step shows that done of total steps are done, the last named label,
// with left the estimated time the remaining steps need.
func (p *progress) step(done, total int, label string, left time.Duration) {
	if !p.tty {
		return
	}
	fmt.Fprintf(p.w, "\r\x1b[K[%d/%d] %s, about %s left", done, max(total, done), label, roundLeft(left))
	p.shown = true
}

// printf prints a line, above the progress line on a terminal.
func (p *progress) printf(format string, args ...any) {
	p.clear()
	fmt.Fprintf(p.w, format, args...)
}

// done removes the progress line.
func (p *progress) done() { p.clear() }

func (p *progress) clear() {
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}

// roundLeft rounds an estimate to what is worth reading: seconds under a
// minute, then ten seconds, then minutes.
func roundLeft(d time.Duration) time.Duration {
	switch {
	case d < time.Minute:
		return d.Round(time.Second)
	case d < 10*time.Minute:
		return d.Round(10 * time.Second)
	}
	return d.Round(time.Minute)
}

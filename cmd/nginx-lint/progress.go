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
	n     int // steps done
	total int // steps planned so far
	shown bool
}

func newProgress(w io.Writer, tty bool) *progress { return &progress{w: w, tty: tty} }

// add plans k more steps.
func (p *progress) add(k int) { p.total += k }

// step records one step done, named label, with left the estimated time
// the remaining steps need.
func (p *progress) step(label string, left time.Duration) {
	p.n++
	if !p.tty {
		return
	}
	fmt.Fprintf(p.w, "\r\x1b[K[%d/%d] %s, about %s left", p.n, max(p.total, p.n), label, roundLeft(left))
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

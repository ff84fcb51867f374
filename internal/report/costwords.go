package report

import (
	"fmt"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/internal/plural"
)

// The words of the startup-cost estimate. The cost report (CostText), its
// chart (CostSVG) and the editor's hover (package lsp) show the same
// model: each term is said here once, and every count goes through
// plural.Count.

// The moments the model times, by the names the reports give them.
const (
	TermTest   = "nginx -t"
	TermStart  = "start"
	TermReload = "reload"
)

// Estimate is one of the model's times.
type Estimate struct {
	// Term is TermTest, TermStart or TermReload.
	Term    string
	Seconds float64
	// Note says what the time holds where that is not plain; the cost
	// report prints it, the hover leaves it out.
	Note string
}

// Estimates are the model's three times, in the order every report
// gives them.
func Estimates(r *costmodel.Result) []Estimate {
	return []Estimate{
		{Term: TermTest, Seconds: r.TestSeconds, Note: "reading and checking the configuration: the phases above but those of a start only"},
		{Term: TermStart, Seconds: r.StartupSeconds, Note: "until the master listens: every phase above"},
		{Term: TermReload, Seconds: r.ReloadSeconds, Note: "the signaller and the master both parse; 100 ms wait"},
	}
}

// LayoutSize says how large a configuration's listen layout is:
// "41 servers, 41 listens on 2 ports".
func LayoutSize(c costmodel.Counts) string {
	return fmt.Sprintf("%s, %s on %s", plural.Count(c.Servers, "server"), plural.Count(c.Listens, "listen"), plural.Count(c.Ports, "port"))
}

// ListeningSockets says how many listening sockets nginx opens at
// nginx -t and at start, which differ by the reuseport clones:
// "3 listening sockets (4 at start)".
func ListeningSockets(c costmodel.Counts) string {
	return fmt.Sprintf("%s (%d at %s)", plural.Count(c.SocketsTest, "listening socket"), c.SocketsStart, TermStart)
}

// HashNames says how many names a server_names hash holds: "40 names".
func HashNames(h *costmodel.HashResult) string { return plural.Count(h.Names(), "name") }

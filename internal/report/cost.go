package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/internal/plural"
	"github.com/nginx-lint/nginx-lint/parser"
)

// Cost is the startup estimate of one configuration, as the cost command
// reports it.
type Cost struct {
	// Name is the configuration as the user named it (or as found in a
	// directory).
	Name   string
	Result *costmodel.Result
	// Findings are the cost rules' findings on it.
	Findings []*parser.Diagnostic
	// NoFileGiven says whether the open-file limit is the user's (flag or
	// settings) or the assumed default.
	NoFileGiven bool
}

type costJSON struct {
	File           string           `json:"file"`
	StartupSeconds float64          `json:"startup_seconds"`
	TestSeconds    float64          `json:"test_seconds"`
	ReloadSeconds  float64          `json:"reload_seconds"`
	MemoryBytes    int64            `json:"memory_bytes"`
	ReloadMemory   int64            `json:"reload_memory_bytes"`
	Servers        int              `json:"servers"`
	Sockets        costSocketsJSON  `json:"sockets"`
	Phases         []costPhaseJSON  `json:"phases"`
	Hashes         []costHashJSON   `json:"hashes"`
	Limits         []costLimitJSON  `json:"limits"`
	Contributors   []string         `json:"contributors"`
	WhatIfs        []costWhatIfJSON `json:"what_ifs"`
	Unknown        []string         `json:"not_estimated"`
	Profile        string           `json:"profile"`
	Diagnostics    []JSONDiagnostic `json:"diagnostics"`
}

type costSocketsJSON struct {
	Test  int `json:"test"`
	Start int `json:"start"`
}

type costPhaseJSON struct {
	Name    string  `json:"name"`
	Func    string  `json:"function"`
	Ops     int64   `json:"ops"`
	Seconds float64 `json:"seconds"`
	Start   bool    `json:"start_only,omitempty"`
	Assumed bool    `json:"assumed_cost,omitempty"`
	What    string  `json:"what"`
}

type costHashJSON struct {
	Address       string `json:"address"`
	Names         int    `json:"names"`
	Outcome       string `json:"outcome"`
	Message       string `json:"message,omitempty"`
	FixMaxSize    int    `json:"fix_max_size,omitempty"`
	FixBucketSize int    `json:"fix_bucket_size,omitempty"`
}

type costLimitJSON struct {
	Name string `json:"name"`
	Need int    `json:"need"`
	Have int    `json:"have"`
	OK   bool   `json:"ok"`
}

type costWhatIfJSON struct {
	Change string  `json:"change"`
	Saving float64 `json:"saving_seconds"`
	Note   string  `json:"note,omitempty"`
}

// CostJSON prints one estimate as an indented JSON object; files are
// named relative to dir (DisplayPath).
func CostJSON(w io.Writer, c Cost, dir string) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(costJSONOf(c, dir))
}

// CostJSONList prints estimates as an indented JSON array.
func CostJSONList(w io.Writer, cs []Cost, dir string) error {
	out := []costJSON{}
	for _, c := range cs {
		out = append(out, costJSONOf(c, dir))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func costJSONOf(c Cost, dir string) costJSON {
	r, ds := c.Result, c.Findings
	out := costJSON{File: c.Name, StartupSeconds: r.StartupSeconds, TestSeconds: r.TestSeconds, ReloadSeconds: r.ReloadSeconds,
		MemoryBytes: r.MemoryBytes, ReloadMemory: r.ReloadMemoryBytes, Servers: r.Counts.Servers,
		Sockets: costSocketsJSON{r.Counts.SocketsTest, r.Counts.SocketsStart}, Profile: r.Profile.Source,
		Phases: []costPhaseJSON{}, Hashes: []costHashJSON{}, Limits: []costLimitJSON{}, WhatIfs: []costWhatIfJSON{},
		Contributors: r.Contributors(5), Unknown: r.Unknown, Diagnostics: []JSONDiagnostic{}}
	if out.Unknown == nil {
		out.Unknown = []string{}
	}
	for _, p := range r.Phases {
		out.Phases = append(out.Phases, costPhaseJSON{p.Name, p.Func, p.Ops, p.Seconds, p.StartOnly, p.Assumed, p.What})
	}
	for _, h := range r.Hashes {
		fm, fb := h.Fix()
		out.Hashes = append(out.Hashes, costHashJSON{h.Addr.Key, h.Names(),
			h.Outcome.String(), h.Message, fm, fb})
	}
	for _, l := range r.Limits {
		out.Limits = append(out.Limits, costLimitJSON{l.Name, l.Need, l.Have, l.OK})
	}
	for _, wi := range r.WhatIfs() {
		out.WhatIfs = append(out.WhatIfs, costWhatIfJSON{wi.Title, wi.Saving, wi.Note})
	}
	for _, d := range ds {
		out.Diagnostics = append(out.Diagnostics, toJSON(d, dir))
	}
	return out
}

// CostText prints one estimate; the findings' files are named relative
// to dir (DisplayPath).
func CostText(w io.Writer, cost Cost, dir string) error {
	r, ds := cost.Result, cost.Findings
	c := r.Counts
	fmt.Fprintf(w, "%s: %s and %s\n", cost.Name, LayoutSize(c), plural.Count(c.Addrs, "address"))
	fmt.Fprintf(w, "costs measured on: %s\n\n", r.Profile.Source)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "phase\toperations\testimate\tshare\t")
	for _, p := range r.Phases {
		share := 0.0
		if r.StartupSeconds > 0 {
			share = 100 * p.Seconds / r.StartupSeconds
		}
		name := p.Name
		if p.Assumed {
			name += " *"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%.1f%%\t\n", name, p.Ops, costmodel.Seconds(p.Seconds), share)
	}
	tw.Flush()
	fmt.Fprintln(w, "(* assumed cost, not measured on the reference machine)")
	// What each phase counts, one line each, aligned as the table.
	width := 0
	for _, p := range r.Phases {
		width = max(width, len([]rune(p.Name)))
	}
	fmt.Fprintln(w, "\nwhat each phase counts (nginx's function):")
	for _, p := range r.Phases {
		fmt.Fprintf(w, "  %-*s  %s (%s)\n", width, p.Name, p.What, p.Func)
	}
	fmt.Fprintln(w)
	for _, e := range Estimates(r) {
		fmt.Fprintf(w, "%-9s ≈ %s", e.Term, costmodel.Seconds(e.Seconds))
		if e.Note != "" {
			fmt.Fprintf(w, " (%s)", e.Note)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%-9s ≈ %s, %s during a %s (the master's and workers' configuration; old and new at once while reloading)\n", "memory", Megabytes(r.MemoryBytes), Megabytes(r.ReloadMemoryBytes), TermReload)
	fmt.Fprintf(w, "\nsockets: %d at %s, %d at %s", c.SocketsTest, TermTest, c.SocketsStart, TermStart)
	if c.SocketsStart > c.SocketsTest {
		fmt.Fprintf(w, " (reuseport sockets cloned for %s)", plural.Count(c.Workers, "worker"))
	}
	fmt.Fprintln(w, " (the listening sockets nginx opens: one per address unless a wildcard listen on the port serves it)")
	if len(r.Hashes) > 0 {
		fmt.Fprintln(w, "\nserver_names hashes (one per address with names, sized at start; a failing one stops nginx):")
		for _, h := range r.Hashes {
			fmt.Fprintf(w, "  %s: %s, %s", h.Addr.Key, HashNames(h), h.Outcome)
			if h.Outcome == costmodel.HashOK {
				fmt.Fprintf(w, " (%s)\n", plural.Count(h.Size, "bucket"))
				continue
			}
			fmt.Fprintf(w, ": %s\n", h.Message)
			if fm, fb := h.Fix(); fm > 0 || fb > 0 {
				fmt.Fprintf(w, "    smallest fix: server_names_hash_max_size %d or server_names_hash_bucket_size %d\n", fm, fb)
			}
		}
	}
	fmt.Fprintln(w, "\nlimits (what nginx needs at start against what it is allowed):")
	for _, l := range r.Limits {
		state := "ok"
		have := strconv.Itoa(l.Have)
		assumed := l.Name == "open files" && !cost.NoFileGiven
		if assumed {
			have += " (assumed, systemd's default; --nofile or host: nofile gives the real limit)"
		}
		switch {
		case !l.OK && assumed:
			state = "over the assumed limit: nginx cannot start if it is the real one"
		case !l.OK:
			state = "EXCEEDED: nginx cannot start"
		}
		fmt.Fprintf(w, "  %s: need %d, have %s: %s\n", l.Name, l.Need, have, state)
	}
	fmt.Fprintln(w, "\nlargest costs (the phases above, in words):")
	for _, s := range r.Contributors(5) {
		fmt.Fprintf(w, "  - %s\n", s)
	}
	if len(r.Unknown) > 0 {
		fmt.Fprintln(w, "\nnot estimated (work the model counts but cannot price):")
		for _, s := range r.Unknown {
			fmt.Fprintf(w, "  - %s\n", s)
		}
	}
	if wis := r.WhatIfs(); len(wis) > 0 {
		fmt.Fprintln(w, "\nwhat if (changes to the listen layout or hash sizes, and the start time each saves):")
		for i, wi := range wis {
			if i == 5 {
				break
			}
			fmt.Fprintf(w, "  - %s: saves ≈ %s at %s (%s)\n", wi.Title, costmodel.Seconds(wi.Saving), TermStart, wi.Note)
		}
	}
	if len(ds) > 0 {
		fmt.Fprintln(w)
		return writeText(w, ds, dir, false, false, nil)
	}
	return nil
}

// Megabytes words a size in bytes as the reports give memory: "12 MB".
func Megabytes(b int64) string { return fmt.Sprintf("%.0f MB", float64(b)/1e6) }

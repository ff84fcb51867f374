package report

import (
	"fmt"
	"io"
	"net/netip"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/routing"
)

// RequestURL writes a probe as the URL a client would ask for.
func RequestURL(r routing.HTTPRequest) string {
	scheme := "http"
	if r.HTTPS {
		scheme = "https"
	}
	host := r.Host
	if r.NoHost || host == "" {
		host = "(no Host)"
	}
	return scheme + "://" + host + r.Target
}

// Diff is what nginx-lint diff reports, in the shape of its JSON.
type Diff struct {
	Old      string `json:"old"`
	New      string `json:"new"`
	Requests int    `json:"requests"`
	Changed  int    `json:"changed"`
	// Partial is set when some configuration's comparison was cut
	// (ConfigDiff.Partial): requests were left unasked, and no change
	// among them can be ruled out.
	Partial        bool         `json:"partial,omitempty"`
	Configurations []ConfigDiff `json:"configurations"`
}

// ConfigDiff is one configuration's changes (a directory holds several).
type ConfigDiff struct {
	Name     string `json:"name"`
	Requests int    `json:"requests"`
	// Partial says why the comparison was cut ("" when it was not).
	Partial string   `json:"partial,omitempty"`
	Changes []Change `json:"changes"`
}

// writePartial says which comparisons were cut, first, so that no
// reader takes a partial diff for a whole one.
func writePartial(w io.Writer, rep Diff, md bool) {
	for _, cd := range rep.Configurations {
		if cd.Partial == "" {
			continue
		}
		if md {
			fmt.Fprintf(w, "**Partial comparison** of `%s`: %s; the requests past it were not compared.\n\n", cd.Name, cd.Partial)
		} else {
			fmt.Fprintf(w, "partial comparison of %s: %s; the requests past it were not compared\n", TerminalSafe(cd.Name), cd.Partial)
		}
	}
}

// Change is one request answered differently, with both answers.
type Change struct {
	URL    string   `json:"url"`
	What   []string `json:"what"`
	Before Route    `json:"before"`
	After  Route    `json:"after"`
}

// summary is one answer in a line: the server, the location (or the
// locations and redirects on the way) and the handler.
func summary(j Route) string {
	if j.Server == nil {
		return "refused"
	}
	s := "server " + orDash(j.Server.Name)
	if len(j.Chain) > 1 {
		for i, st := range j.Chain {
			if i > 0 {
				uri := st.URI
				if st.Args != "" {
					uri += "?" + st.Args
				}
				s += " -" + j.Chain[i-1].How + "-> " + uri
			}
			if st.Location != nil {
				s += " in " + st.Location.Name
			} else {
				s += " in no location"
			}
		}
	} else if j.Location != nil {
		s += ", location " + j.Location.Name
	} else {
		s += ", no location"
	}
	return s + ": " + j.Handler.Text
}

func orDash(s string) string {
	if s == "" {
		return `""`
	}
	return s
}

func where(p *Place) string {
	if p == nil {
		return ""
	}
	return fmt.Sprintf("%s:%d", p.File, p.Line)
}

// changeGroup is the changes of one target on one address whose
// answers read alike, for requests with different Hosts.
type changeGroup struct {
	first Change
	also  []string
}

// groups gathers the changes that differ only by a Host the same
// servers answer alike (an unknown Host and none, often).
func groups(cd ConfigDiff) []*changeGroup {
	var out []*changeGroup
	byKey := map[string]*changeGroup{}
	for _, c := range cd.Changes {
		key := c.Before.Request.Local + " " + c.Before.Request.Target + " " + summary(c.Before) + placeOf(c.Before) + " | " + summary(c.After) + placeOf(c.After)
		if g := byKey[key]; g != nil {
			h := "Host " + c.Before.Request.Host
			if c.Before.Request.NoHost {
				h = "no Host"
			}
			g.also = append(g.also, h)
			continue
		}
		g := &changeGroup{first: c}
		byKey[key] = g
		out = append(out, g)
	}
	return out
}

// local is where a request arrives, in words.
func local(r Request) string {
	if ap, err := netip.ParseAddrPort(r.Local); err == nil && routing.Unlisted(ap.Addr()) {
		return fmt.Sprintf("any address of port %d", ap.Port())
	}
	return orDash(r.Local)
}

// WriteDiffText writes the changes for a person, at most max requests
// (0: all), those that differ only by an alike-answered Host as one.
func WriteDiffText(w io.Writer, rep Diff, max int) error {
	writePartial(w, rep, false)
	if rep.Changed == 0 {
		_, err := fmt.Fprintf(w, "no change: %d requests answered alike\n", rep.Requests)
		return err
	}
	fmt.Fprintf(w, "%d of %d requests change\n", rep.Changed, rep.Requests)
	shown := 0
	for _, cd := range rep.Configurations {
		if len(cd.Changes) == 0 {
			continue
		}
		if len(rep.Configurations) > 1 {
			fmt.Fprintf(w, "\n%s: %d of %d requests change\n", cd.Name, len(cd.Changes), cd.Requests)
		}
		gs := groups(cd)
		for i, g := range gs {
			if max > 0 && shown == max {
				fmt.Fprintf(w, "\n... and %d more (--max 0 shows all)\n", len(gs)-i)
				break
			}
			shown++
			c := g.first
			fmt.Fprintf(w, "\n%s %s (on %s)\n", c.Before.Request.Method, TerminalSafe(c.URL), local(c.Before.Request))
			if len(g.also) > 0 {
				fmt.Fprintf(w, "  also    %s\n", TerminalSafe(strings.Join(g.also, ", ")))
			}
			fmt.Fprintf(w, "  before  %s", TerminalSafe(summary(c.Before)))
			if p := placeOf(c.Before); p != "" {
				fmt.Fprintf(w, " (%s)", p)
			}
			fmt.Fprintf(w, "\n  after   %s", TerminalSafe(summary(c.After)))
			if p := placeOf(c.After); p != "" {
				fmt.Fprintf(w, " (%s)", p)
			}
			fmt.Fprintf(w, "\n  changed %s\n", strings.Join(c.What, ", "))
		}
	}
	return nil
}

// placeOf is where an answer's location (or server) is written.
func placeOf(j Route) string {
	if j.Location != nil {
		return where(j.Location)
	}
	return where(j.Server)
}

// WriteDiffMarkdown writes the changes as a Markdown table for a
// pull-request comment.
func WriteDiffMarkdown(w io.Writer, rep Diff, max int) error {
	writePartial(w, rep, true)
	if rep.Changed == 0 {
		_, err := fmt.Fprintf(w, "**nginx-lint diff**: no change, %d requests answered alike.\n", rep.Requests)
		return err
	}
	fmt.Fprintf(w, "**nginx-lint diff**: %d of %d requests change.\n\n", rep.Changed, rep.Requests)
	fmt.Fprintf(w, "| Request | Before | After | Changed |\n|---|---|---|---|\n")
	shown := 0
	for _, cd := range rep.Configurations {
		gs := groups(cd)
		for i, g := range gs {
			if max > 0 && shown == max {
				fmt.Fprintf(w, "\n…and %d more.\n", len(gs)-i)
				break
			}
			shown++
			c := g.first
			req := c.Before.Request.Method + " " + c.URL
			if len(g.also) > 0 {
				req += " (also " + strings.Join(g.also, ", ") + ")"
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s |\n", mdCell(req), mdCell(summary(c.Before)+" "+placeOf(c.Before)),
				mdCell(summary(c.After)+" "+placeOf(c.After)), strings.Join(c.What, ", "))
		}
	}
	return nil
}

// mdCell is s as code in a Markdown table cell.
func mdCell(s string) string {
	s = strings.NewReplacer("|", `\|`, "`", "'", "\n", " ").Replace(s)
	return "`" + s + "`"
}

// RenameFiles replaces the prefix from of the files the answer names
// (nginx-lint diff --git names a revision's files REV:path).
func (j *Route) RenameFiles(from, to string) {
	fix := func(p *Place) {
		if p != nil && strings.HasPrefix(p.File, from) {
			p.File = to + p.File[len(from):]
		}
	}
	fix(j.Server)
	fix(j.Location)
	fix(j.Handler.Directive)
	for i := range j.Chain {
		fix(j.Chain[i].Location)
		fix(j.Chain[i].Directive)
	}
	if u := j.Handler.Upstream; u != nil && strings.HasPrefix(u.File, from) {
		u.File = to + u.File[len(from):]
	}
}

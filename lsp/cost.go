package lsp

import (
	"fmt"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/internal/plural"
	"github.com/nginx-lint/nginx-lint/internal/report"
	"github.com/nginx-lint/nginx-lint/parser"
)

// costHover describes, in Markdown, what a listen or server_name directive
// costs when nginx starts: its socket and port for a listen, the names
// hash of its addresses for a server_name (in the innermost server of
// stack); "" for other directives.
func costHover(d *view, dir *parser.Directive, stack []*parser.Directive) string {
	switch dir.Name().Value {
	case "listen", "server_name":
	default:
		return ""
	}
	if d.unit == nil || d.unitFile == nil {
		return ""
	}
	r := d.unit.CostModel()
	if r == nil {
		return ""
	}
	// The model is of the configuration analysed, maybe the nginx.conf
	// that includes the document: its directives are matched by where
	// they are in the document, not by identity.
	at := func(x *parser.Directive) bool {
		return x != nil && x.File == d.unitFile && x.Name().Range.Start == dir.Name().Range.Start
	}
	var b strings.Builder
	if dir.Name().Value == "listen" {
		listenCost(&b, r, at)
	} else {
		var server *parser.Directive
		for i := len(stack) - 1; i >= 0 && server == nil; i-- {
			if stack[i].Name().Value == "server" {
				server = stack[i]
			}
		}
		if server != nil {
			start := server.Name().Range.Start
			namesCost(&b, r, func(x *parser.Directive) bool {
				return x != nil && x.File == d.unitFile && x.Name().Range.Start == start
			})
		}
	}
	if b.Len() == 0 {
		return ""
	}
	b.WriteString("- whole configuration: ")
	for i, e := range report.Estimates(r) {
		term := e.Term
		if term == report.TermTest {
			term = "`" + term + "`" // a command
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s ≈ %s", term, costmodel.Seconds(e.Seconds))
	}
	fmt.Fprintf(&b, "; %s\n", report.ListeningSockets(r.Counts))
	return "**Startup cost** (estimated; `nginx-lint cost` has the details)\n\n" + b.String()
}

// listenCost writes the address and port a listen lands on.
func listenCost(b *strings.Builder, r *costmodel.Result, isDir func(*parser.Directive) bool) {
	for _, p := range r.Ports {
		for _, a := range p.Addrs {
			for i := range a.Instances {
				if l := a.Instances[i].Listen; l != nil && isDir(l.Directive) {
					// A port range lands on several ports; the first
					// tells the story.
					addrCost(b, r, a)
					return
				}
			}
		}
	}
}

// addrCost writes what an address of a listen costs: its socket, and the
// address scan of its port.
func addrCost(b *strings.Builder, r *costmodel.Result, a *costmodel.Addr) {
	p := a.Port
	socket := "its own listening socket"
	if !a.Socket {
		socket = "served by the wildcard socket " + p.Wildcard.Key
	}
	fmt.Fprintf(b, "- `%s`: %s, %s\n", a.Key, plural.Count(a.ServerCount(), "server"), socket)
	fmt.Fprintf(b, "- %s: %s", p.Name(), plural.Count(len(p.Addrs), "address"))
	if p.AddrCompares > 0 {
		fmt.Fprintf(b, "; nginx compares each new listen with the addresses before it: %s ≈ %s",
			plural.Count(p.AddrCompares, "compare"), costmodel.Seconds(r.AddrScanSeconds(p)))
	}
	b.WriteString("\n")
}

// namesCost writes the server_names hash of every address the server
// (the server_name's block, which isServer matches) listens on.
func namesCost(b *strings.Builder, r *costmodel.Result, isServer func(*parser.Directive) bool) {
	for _, h := range r.Hashes {
		mine := false
		for s := range h.Addr.Servers() {
			if isServer(s.Directive) {
				mine = true
				break
			}
		}
		if !mine {
			continue
		}
		fmt.Fprintf(b, "- names hash of `%s`: %s", h.Addr.Key, report.HashNames(h))
		switch h.Outcome {
		case costmodel.HashOK:
			fmt.Fprintf(b, ", %s of %d bytes: fits\n", plural.Count(h.Size, "bucket"), h.BucketSize)
		default:
			fmt.Fprintf(b, ": %s", h.Message)
			if maxSize, bucket := h.Fix(); maxSize > 0 {
				fmt.Fprintf(b, " (`server_names_hash_max_size %d;` avoids it)", maxSize)
			} else if bucket > 0 {
				fmt.Fprintf(b, " (`server_names_hash_bucket_size %d;` avoids it)", bucket)
			}
			b.WriteString("\n")
		}
	}
}

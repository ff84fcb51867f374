package lsp

import (
	"context"
	"fmt"
	"strings"
	"sync"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/internal/report"
	"github.com/nginx-lint/nginx-lint/parser"
)

// This file holds inlay hints (protocol 3.17, which glsp's 3.16 types
// lack, so the types are here): after each listen, the socket nginx
// serves it from; after each server's "{", its share of the startup
// estimate. They are for big configurations, where the layout of the
// listens decides how slowly nginx starts: below a number of server
// blocks the server sends none (inlayHints.minServers, and
// inlayHints.enabled to turn them off).

// DefaultInlayHintServers is the fewest server blocks a configuration
// needs for inlay hints, unless the editor's settings say otherwise.
const DefaultInlayHintServers = 100

// inlayOptions are the editor's settings of the inlay hints:
//
//	{"inlayHints": {"enabled": false}}   // or "inlay-hints"
//	{"inlayHints": {"minServers": 1}}    // or "min-servers"
//	{"inlayHints": false}                // the same as enabled: false
type inlayOptions struct {
	off        bool
	minServers int // 0: DefaultInlayHintServers
}

// parseInlayOptions reads the value of the inlayHints key.
func parseInlayOptions(v any) (inlayOptions, error) {
	var o inlayOptions
	switch v := v.(type) {
	case nil:
		return o, nil
	case bool:
		o.off = !v
		return o, nil
	case map[string]any:
		for k, x := range v {
			switch k {
			case "enabled":
				b, ok := x.(bool)
				if !ok {
					return o, fmt.Errorf("inlayHints.enabled: want true or false")
				}
				o.off = !b
			case "minServers", "min-servers":
				n, ok := x.(float64)
				if !ok || n < 0 || n != float64(int(n)) {
					return o, fmt.Errorf("inlayHints.%s: want a whole number of server blocks, 0 or more", k)
				}
				o.minServers = int(n)
				if n == 0 {
					o.minServers = -1 // every configuration
				}
			}
		}
		return o, nil
	}
	return o, fmt.Errorf("inlayHints: want true, false or {\"enabled\": ..., \"minServers\": ...}")
}

// threshold is the fewest server blocks that get hints.
func (o inlayOptions) threshold() int {
	switch {
	case o.minServers < 0:
		return 0
	case o.minServers == 0:
		return DefaultInlayHintServers
	}
	return o.minServers
}

// serverCapabilities are glsp's with those of protocol 3.17 it lacks.
type serverCapabilities struct {
	protocol.ServerCapabilities
	InlayHintProvider any `json:"inlayHintProvider,omitempty"`
}

// initializeResult is the answer to initialize, with serverCapabilities.
type initializeResult struct {
	Capabilities serverCapabilities                   `json:"capabilities"`
	ServerInfo   *protocol.InitializeResultServerInfo `json:"serverInfo,omitempty"`
}

// sharesCache keeps the servers' shares of the last cost model asked
// for: each request on a text asks for the same, and a configuration of
// 20,000 servers takes some 10 ms to split.
type sharesCache struct {
	mu     sync.Mutex
	r      *costmodel.Result
	shares []costmodel.Share
}

// of returns the shares of r.
func (c *sharesCache) of(r *costmodel.Result) []costmodel.Share {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.r != r {
		c.r, c.shares = r, r.Shares()
	}
	return c.shares
}

// inlayHintParams are textDocument/inlayHint's params.
type inlayHintParams struct {
	TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	Range        protocol.Range                  `json:"range"`
}

// inlayHint is an InlayHint of protocol 3.17.
type inlayHint struct {
	Position     protocol.Position       `json:"position"`
	Label        string                  `json:"label"`
	Kind         int                     `json:"kind,omitempty"`
	Tooltip      *protocol.MarkupContent `json:"tooltip,omitempty"`
	PaddingLeft  bool                    `json:"paddingLeft,omitempty"`
	PaddingRight bool                    `json:"paddingRight,omitempty"`
	// Data says what the hint is of, for inlayHint/resolve.
	Data *hintData `json:"data,omitempty"`
}

// hintData is what a hint is of: the directive (listen or server) whose
// name starts at Offset in the version of the document.
type hintData struct {
	URI     protocol.DocumentUri `json:"uri"`
	Version protocol.Integer     `json:"version"`
	Offset  int32                `json:"offset"`
}

// inlayHintOptions is the capability: the tooltips, which take longer
// to write than the labels (40,000 of them on the 19,900-server file),
// come with inlayHint/resolve, for the hints a person points at.
func inlayHintOptions() map[string]any { return map[string]any{"resolveProvider": true} }

// inlayHint answers textDocument/inlayHint: the hints of the listens and
// servers in the range, when the configuration the document is read in
// is big enough.
func (s *Server) inlayHint(_ context.Context, p *inlayHintParams) ([]inlayHint, error) {
	v := s.viewOf(p.TextDocument.URI)
	if v == nil || v.unit == nil || v.unitFile == nil {
		return nil, nil
	}
	s.mu.Lock()
	opts := s.init.inlay
	s.mu.Unlock()
	if opts.off {
		return []inlayHint{}, nil
	}
	r := v.unit.CostModel()
	if r == nil || r.Counts.Servers < opts.threshold() {
		return []inlayHint{}, nil
	}
	from, to := offset(v.file, p.Range.Start), offset(v.file, p.Range.End)
	return inlayHints(v, r, s.shares.of(r), from, to), nil
}

// inlayHints makes the hints of the directives of the view's document
// between from and to. The model is of the configuration analysed (maybe
// the nginx.conf including the document): its directives are matched to
// the document's by where they are.
func inlayHints(v *view, r *costmodel.Result, all []costmodel.Share, from, to int) []inlayHint {
	out := []inlayHint{}
	in := func(off int32) bool { return int(off) >= from && int(off) <= to }
	uf := v.unitFile
	// Each listen's address, by the offset of its name.
	listens := map[int32]*costmodel.Addr{}
	for _, port := range r.Ports {
		for _, a := range port.Addrs {
			for i := range a.Instances {
				l := a.Instances[i].Listen
				if l == nil || l.Directive.File != uf || !in(l.Directive.Name().Range.Start) {
					continue
				}
				if _, ok := listens[l.Directive.Name().Range.Start]; !ok {
					listens[l.Directive.Name().Range.Start] = a
				}
			}
		}
	}
	var shares map[int32]costmodel.Share
	eachDirectiveIn(v.file.Directives, from, to, func(d *parser.Directive) {
		switch {
		case d.Name().Value == "listen" && len(d.Args()) > 0:
			a, ok := listens[d.Name().Range.Start]
			if !ok {
				return
			}
			out = append(out, inlayHint{
				Position: position(v.file, int(d.Args()[len(d.Args())-1].Range.End)), Label: socketLabel(a),
				Kind: 1, PaddingLeft: true, Data: &hintData{v.uri, v.version, d.Name().Range.Start},
			})
		case d.Name().Value == "server" && d.Block != nil && d.LBrace() >= 0 && in(d.LBrace()):
			if shares == nil {
				// The shares of the servers in the range, by where they
				// are.
				shares = map[int32]costmodel.Share{}
				for _, sh := range all {
					if sd := sh.Server.Directive; sd.File == uf && sd.LBrace() >= 0 && in(sd.LBrace()) {
						shares[sd.Name().Range.Start] = sh
					}
				}
			}
			sh, ok := shares[d.Name().Range.Start]
			if !ok {
				return
			}
			out = append(out, inlayHint{
				Position: position(v.file, int(d.LBrace())+1), Label: shareLabel(r, sh), PaddingLeft: true,
				Data: &hintData{v.uri, v.version, d.Name().Range.Start},
			})
		}
	})
	return out
}

// inlayHintResolve adds its tooltip to a hint: what the listen's
// address costs, or what the server's share is made of. A hint of a text
// that has changed since keeps its label only.
func (s *Server) inlayHintResolve(_ context.Context, h *inlayHint) (*inlayHint, error) {
	if h.Data == nil {
		return h, nil
	}
	v := s.viewOf(h.Data.URI)
	if v == nil || v.unit == nil || v.unitFile == nil || v.version != h.Data.Version {
		return h, nil
	}
	r := v.unit.CostModel()
	if r == nil {
		return h, nil
	}
	at := h.Data.Offset
	var tip strings.Builder
	for _, port := range r.Ports {
		for _, a := range port.Addrs {
			for i := range a.Instances {
				if l := a.Instances[i].Listen; l != nil && l.Directive.File == v.unitFile && l.Directive.Name().Range.Start == at && tip.Len() == 0 {
					addrCost(&tip, r, a)
				}
			}
		}
	}
	if tip.Len() == 0 {
		for _, sh := range s.shares.of(r) {
			if sd := sh.Server.Directive; sd.File == v.unitFile && sd.Name().Range.Start == at {
				tip.WriteString(shareTooltip(r, sh))
				break
			}
		}
	}
	if tip.Len() > 0 {
		h.Tooltip = &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: tip.String()}
	}
	return h, nil
}

// eachDirectiveIn calls fn for the directives of dirs (blocks' bodies
// included, outermost first) that reach into [from, to], skipping the
// blocks outside it whole: an editor asks for the lines in view.
func eachDirectiveIn(dirs []*parser.Directive, from, to int, fn func(*parser.Directive)) {
	for _, d := range dirs {
		r := d.Range()
		if d.Block != nil && d.RBrace() < 0 {
			r.End = int32(len(d.File.Src)) // an unclosed block runs to the end
		}
		if int(r.End) < from || int(r.Start) > to {
			continue
		}
		fn(d)
		if d.Block != nil {
			eachDirectiveIn(d.Block.Directives, from, to, fn)
		}
	}
}

// socketLabel says which listening socket serves an address: its own,
// or the port's wildcard one.
func socketLabel(a *costmodel.Addr) string {
	if a.Socket {
		return "socket " + a.Key
	}
	return "via the socket " + a.Port.Wildcard.Key
}

// shareLabel is a server's share of the startup estimate.
func shareLabel(r *costmodel.Result, sh costmodel.Share) string {
	return fmt.Sprintf("≈ %s of %s ≈ %s", costmodel.Seconds(sh.Seconds), report.TermStart, costmodel.Seconds(r.StartupSeconds))
}

// shareTooltip lists what a server's share is made of, dearest first.
func shareTooltip(r *costmodel.Result, sh costmodel.Share) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**This server's share of the startup estimate**: %s", costmodel.Seconds(sh.Seconds))
	if r.StartupSeconds > 0 {
		fmt.Fprintf(&b, " (%.2g%% of %s ≈ %s)", 100*sh.Seconds/r.StartupSeconds, report.TermStart, costmodel.Seconds(r.StartupSeconds))
	}
	b.WriteString("\n\n")
	for _, p := range r.Phases {
		if p.StartOnly {
			continue
		}
		if n := sh.Ops(p.Key); n > 0 {
			fmt.Fprintf(&b, "- %s (`%s`): %d ≈ %s\n", p.Name, p.Func, n, costmodel.Seconds(float64(n)*r.Profile.Cost(p.Key)))
		}
	}
	b.WriteString("\n`nginx-lint cost` has the whole estimate")
	return b.String()
}

package lsp

import (
	"context"
	"fmt"
	"strings"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/internal/report"
)

// This file holds the code lens: above "http {", the times the startup
// cost model estimates for nginx -t, a start and a reload of the
// configuration, worded as every other report of the model words them
// (internal/report's costwords.go).

// codeLens answers textDocument/codeLens with the estimate on the http
// block of the configuration, when the document holds it.
func (s *Server) codeLens(_ context.Context, p *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	v := s.viewOf(p.TextDocument.URI)
	out := []protocol.CodeLens{}
	if v == nil || v.unit == nil || v.unitFile == nil {
		return out, nil
	}
	r := v.unit.CostModel()
	if r == nil || r.HTTPBlock == nil || r.HTTPBlock.File != v.unitFile {
		return out, nil
	}
	// The same text parsed once more: the same offsets.
	rng := rangeOf(v.file, r.HTTPBlock.Name().Range)
	// A command with no name: a line of text, not an action.
	return append(out, protocol.CodeLens{Range: rng, Command: &protocol.Command{Title: costLens(r)}}), nil
}

// costLens is the lens's text: "estimated: nginx -t ≈ 1.20 s · start ≈
// 1.31 s · reload ≈ 2.50 s (19,900 servers, ...)".
func costLens(r *costmodel.Result) string {
	var parts []string
	for _, e := range report.Estimates(r) {
		parts = append(parts, fmt.Sprintf("%s ≈ %s", e.Term, costmodel.Seconds(e.Seconds)))
	}
	return fmt.Sprintf("estimated: %s (%s)", strings.Join(parts, " · "), report.LayoutSize(r.Counts))
}

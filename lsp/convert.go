package lsp

import (
	"unicode/utf16"
	"unicode/utf8"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/nginx-lint/nginx-lint/internal/report"
	"github.com/nginx-lint/nginx-lint/parser"
)

// This file holds every conversion between the core's byte offsets and the
// protocol's UTF-16 positions, so no handler does its own arithmetic.

// position converts a byte offset of f into a protocol position.
func position(f *parser.File, off int) protocol.Position {
	p := f.Position(off)
	return protocol.Position{Line: protocol.UInteger(p.Line - 1), Character: protocol.UInteger(f.UTF16Column(off))}
}

// rangeOf converts a byte range of f into a protocol range.
func rangeOf(f *parser.File, r parser.Range) protocol.Range {
	return protocol.Range{Start: position(f, int(r.Start)), End: position(f, int(r.End))}
}

// offset converts a protocol position into a byte offset of f.
func offset(f *parser.File, p protocol.Position) int {
	return f.OffsetUTF16(int(p.Line), int(p.Character))
}

// offsetOf converts a protocol position into a byte offset of raw text,
// for applying incremental edits before the text is parsed.
func offsetOf(text string, p protocol.Position) int {
	off := 0
	for line := protocol.UInteger(0); line < p.Line; line++ {
		i := indexNewline(text[off:])
		if i < 0 {
			return len(text)
		}
		off += i + 1
	}
	for n := protocol.UInteger(0); n < p.Character && off < len(text) && text[off] != '\n'; {
		r, size := utf8.DecodeRuneInString(text[off:])
		n += protocol.UInteger(utf16.RuneLen(r))
		off += size
	}
	return off
}

func indexNewline(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return i
		}
	}
	return -1
}

func severity(s parser.Severity) protocol.DiagnosticSeverity {
	switch s {
	case parser.Error:
		return protocol.DiagnosticSeverityError
	case parser.Warning:
		return protocol.DiagnosticSeverityWarning
	}
	return protocol.DiagnosticSeverityInformation
}

// referenceURL is where a rule's documentation page lives.
func referenceURL(name string) string { return report.RuleURL(name) }

func toProtocolDiagnostic(d *parser.Diagnostic) protocol.Diagnostic {
	sev := severity(d.Severity)
	source := Name
	msg := d.Message
	if d.Detail != "" {
		msg += "\n" + d.Detail
	}
	out := protocol.Diagnostic{
		Severity:        &sev,
		Code:            &protocol.IntegerOrString{Value: d.Code},
		CodeDescription: &protocol.CodeDescription{HRef: referenceURL(d.Name)},
		Source:          &source,
		Message:         msg,
	}
	if d.File != nil {
		out.Range = rangeOf(d.File, d.Range)
	}
	for _, r := range d.Related {
		if r.File == nil {
			continue
		}
		out.RelatedInformation = append(out.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: pathToURI(r.File.Path), Range: rangeOf(r.File, r.Range)},
			Message:  r.Message,
		})
	}
	return out
}

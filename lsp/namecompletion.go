package lsp

import (
	"sort"
	"strings"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/symbols"
	"github.com/nginx-lint/nginx-lint/parser"
)

// This file completes the names a directive expects of what the
// configuration defines: an upstream in the address of a *_pass
// ("proxy_pass http://b|"), a named location where try_files, error_page
// or post_action take one ("@|"), and a shared memory zone of the right
// kind (limit_req zone=|, limit_conn |, proxy_cache |).

// nameItems returns the names to offer at off, an argument of dir
// (whose blocks are stack, whose context ctx); ok is false where dir
// expects no such name, so other completions apply.
func nameItems(v *view, dir *parser.Directive, stack []*parser.Directive, ctx directives.Context, off int) ([]protocol.CompletionItem, bool) {
	f := v.file
	// The argument at the cursor and what is typed of it.
	arg, start := len(dir.Args()), off
	for i, a := range dir.Args() {
		if off >= int(a.Range.Start) && off <= int(a.Range.End) {
			arg, start = i, int(a.Range.Start)
			break
		}
		if off < int(a.Range.Start) {
			arg = i
			break
		}
	}
	typed := f.Src[start:off]
	if strings.ContainsAny(typed, "\"'$ \t\n") {
		return nil, false // quoted or a variable: not a plain name
	}
	stream := ctx&directives.StreamContexts != 0
	name := dir.Name().Value
	switch {
	case directives.IsPass(name) && arg == 0:
		// The host part of the address, as symbols.ParsePass reads it
		// (with a letter added: an empty host is no address to it).
		probe := parser.NewDirective(dir.Name(), []parser.Word{{Value: typed + "x"}})
		pa, ok := symbols.ParsePass(probe, stream)
		if !ok || !pa.NoPort || !strings.HasSuffix(typed+"x", pa.Text) {
			return nil, false
		}
		host := strings.TrimSuffix(pa.Text, "x")
		return upstreamItems(v, stream, rangeOf(f, parser.Span(off-len(host), off))), true
	case (name == "try_files" || name == "error_page" || name == "post_action") && strings.HasPrefix(typed, "@"):
		return namedLocationItems(v, stack, rangeOf(f, parser.Span(start, off))), true
	}
	if definer, prefix := zoneUse(name, arg, typed); definer != "" {
		edit := rangeOf(f, parser.Span(start+len(prefix), off))
		items := zoneItems(v, definer, stream, edit)
		// The word may be a value instead (proxy_cache off).
		kind := protocol.CompletionItemKindEnumMember
		for _, x := range zoneUses[name].values {
			items = append(items, protocol.CompletionItem{Label: x, Kind: &kind, TextEdit: protocol.TextEdit{Range: edit, NewText: x}})
		}
		return items, true
	}
	return nil, false
}

// upstreamItems lists the upstream blocks of http {} (of stream {} when
// stream is set), written as they are defined.
func upstreamItems(v *view, stream bool, edit protocol.Range) []protocol.CompletionItem {
	tab := v.symbols()
	kind := protocol.CompletionItemKindModule
	out := []protocol.CompletionItem{}
	for _, sym := range tab.Symbols(symbols.Upstream) {
		def, ok := tab.FirstDefinition(sym)
		if sym.Stream != stream || !ok || def.Opaque {
			continue
		}
		label := def.File.Src[def.Range.Start:def.Range.End]
		detail := "upstream " + label
		out = append(out, protocol.CompletionItem{Label: label, Kind: &kind, Detail: &detail,
			TextEdit: protocol.TextEdit{Range: edit, NewText: label}})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Label < out[j].Label })
	return out
}

// namedLocationItems lists the named locations of the server the cursor
// is in (nginx looks a named location up in the current server only),
// or of the whole configuration for a fragment outside any server.
func namedLocationItems(v *view, stack []*parser.Directive, edit protocol.Range) []protocol.CompletionItem {
	var server *parser.Directive
	for i := len(stack) - 1; i >= 0 && server == nil; i-- {
		if stack[i].Name().Value == "server" {
			server = stack[i]
		}
	}
	names := map[string]bool{}
	if server != nil {
		namedLocations(v.config, server.Block.Directives, names)
	} else {
		tab := v.symbols()
		for _, sym := range tab.Symbols(symbols.NamedLocation) {
			if tab.Defined(sym) {
				names[sym.Name] = true
			}
		}
	}
	kind := protocol.CompletionItemKindReference
	out := []protocol.CompletionItem{}
	for n := range names {
		label := "@" + n
		out = append(out, protocol.CompletionItem{Label: label, Kind: &kind, FilterText: &label,
			TextEdit: protocol.TextEdit{Range: edit, NewText: label}})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Label < out[j].Label })
	return out
}

// namedLocations adds the names of the "location @name" blocks of dirs
// (a server's body, its includes read in place).
func namedLocations(c *parser.Config, dirs []*parser.Directive, into map[string]bool) {
	for _, d := range dirs {
		switch {
		case d.Name().Value == "location" && len(d.Args()) == 1 && len(d.Args()[0].Value) > 1 && d.Args()[0].Value[0] == '@':
			into[d.Args()[0].Value[1:]] = true
		case d.Name().Value == "include":
			for _, f := range c.Included(d) {
				namedLocations(c, f.Directives, into)
			}
		}
	}
}

// zoneUses are the directives that name a zone, the argument that does
// (-1: any argument after the prefix "zone="), the directive that gives
// such a zone its size, and the other values the argument takes ("off":
// ngx_http_proxy_cache and its fastcgi, scgi and uwsgi twins).
var zoneUses = map[string]struct {
	arg     int
	definer string
	values  []string
}{
	"limit_req":     {-1, "limit_req_zone", nil},
	"limit_conn":    {0, "limit_conn_zone", nil},
	"proxy_cache":   {0, "proxy_cache_path", []string{"off"}},
	"fastcgi_cache": {0, "fastcgi_cache_path", []string{"off"}},
	"scgi_cache":    {0, "scgi_cache_path", []string{"off"}},
	"uwsgi_cache":   {0, "uwsgi_cache_path", []string{"off"}},
}

// zoneUse says whether argument arg of name, typed so far, names a
// zone: the directive that defines such zones, and the prefix before the
// name ("zone=").
func zoneUse(name string, arg int, typed string) (definer, prefix string) {
	u, ok := zoneUses[name]
	switch {
	case !ok:
		return "", ""
	case u.arg < 0 && strings.HasPrefix(typed, "zone="):
		return u.definer, "zone="
	case u.arg == arg && u.arg >= 0:
		return u.definer, ""
	}
	return "", ""
}

// zoneItems lists the zones that definer gives a size to, in http {} or
// stream {} as stream says (nginx keeps one list of zones, but a
// limit_conn of http cannot use a zone of stream's: its module's tag
// differs).
func zoneItems(v *view, definer string, stream bool, edit protocol.Range) []protocol.CompletionItem {
	tab := v.symbols()
	kind := protocol.CompletionItemKindValue
	seen := map[string]bool{}
	out := []protocol.CompletionItem{}
	for _, sym := range tab.Symbols(symbols.Zone) {
		for _, def := range tab.Definitions(sym) {
			d := tab.Directive(def)
			if s, known := streamOf(d); d.Name().Value != definer || known && s != stream || seen[sym.Name] {
				continue
			}
			seen[sym.Name] = true
			detail := sourceLine(d)
			out = append(out, protocol.CompletionItem{Label: sym.Name, Kind: &kind, Detail: &detail,
				TextEdit: protocol.TextEdit{Range: edit, NewText: sym.Name}})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Label < out[j].Label })
	return out
}

// streamOf reports whether d is written inside a stream block of its
// file; known is false for a directive at the top of a file, which may
// be included into either.
func streamOf(d *parser.Directive) (stream, known bool) {
	dirs, depth := d.File.Directives, 0
	for {
		var next *parser.Directive
		for _, x := range dirs {
			if x == d {
				return stream, depth > 0
			}
			if x.Block != nil && x.Range().Start <= d.Name().Range.Start && (x.RBrace() < 0 || x.RBrace() >= d.Name().Range.Start) {
				next = x
				break
			}
		}
		if next == nil {
			return false, false
		}
		stream = stream || next.Name().Value == "stream"
		dirs, depth = next.Block.Directives, depth+1
	}
}

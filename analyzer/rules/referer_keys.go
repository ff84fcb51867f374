package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// refererFinding is a host of valid_referers that nginx's hash of
// referers refuses (ngx_http_add_referer): a conflicting one, or an
// invalid hostname or wildcard.
type refererFinding struct {
	d       *parser.Directive
	w       parser.Word
	message string
	kind    refererKind
	// merged is set for a conflict with a server name that "server_names"
	// brings, which nginx finds when it merges the block.
	merged bool
}

// refererKind says which rule reports a refererFinding.
type refererKind uint8

const (
	refererInvalid  refererKind = iota // invalid-parameter
	refererConflict                    // duplicate-directive
	refererEmpty                       // setting-conflict
)

// refererFindings replays ngx_http_valid_referers and the referer
// module's merge for every block with valid_referers, once per run.
func refererFindings(p *analyzer.Pass) []refererFinding { return refererResult.Get(p, struct{}{}) }

var refererResult = &analyzer.Result[struct{}, []refererFinding]{
	Name:    "valid_referers keys",
	Compute: func(p *analyzer.Pass, _ struct{}) []refererFinding { return collectRefererFindings(p.Index()) },
}

func collectRefererFindings(ix *analyzer.Index) []refererFinding {
	var out []refererFinding
	// The directives of one block share the block's keys, in order.
	blocks := map[int32]*refererKeys{}
	var order []int32
	firstNames := map[int32]parser.Word{}
	for _, i := range ix.Named("valid_referers") {
		e := &ix.Entries[i]
		k := blocks[e.Parent]
		if k == nil {
			k = newRefererKeys()
			blocks[e.Parent] = k
			order = append(order, e.Parent)
		}
		d := e.Directive
		for _, w := range d.Args {
			v := w.Value
			switch {
			case v == "none" || v == "blocked":
				if k.anyAt == nil {
					k.anyAt, k.anyWord = d, w
				}
				continue
			case v == "" || v[0] == '~':
				continue
			case v == "server_names":
				if _, ok := firstNames[e.Parent]; !ok {
					firstNames[e.Parent] = w
					k.namesAt = d
				}
				continue
			}
			host, _, _ := strings.Cut(v, "/")
			if msg := k.add(host); msg != "" {
				kind := refererInvalid
				if strings.HasPrefix(msg, "conflicting") {
					kind = refererConflict
				}
				out = append(out, refererFinding{d: d, w: w, message: msg, kind: kind})
			}
		}
	}
	// The merge adds the server's names to a block that says
	// "server_names" (regexes apart), after its own keys; then "none" or
	// "blocked" needs a name or wildcard beside it (a regex does not
	// count).
	for _, b := range order {
		k := blocks[b]
		w, ok := firstNames[b]
		if ok {
			for _, name := range serverNamesAround(ix, b) {
				if msg := k.add(name); msg != "" {
					out = append(out, refererFinding{d: k.namesAt, w: w, message: msg, kind: refererConflict, merged: true})
				}
			}
		}
		if k.anyAt != nil && len(k.exact)+len(k.head)+len(k.tail) == 0 {
			out = append(out, refererFinding{d: k.anyAt, w: k.anyWord, kind: refererEmpty,
				message: `the "none" or "blocked" referers are specified in the "valid_referers" directive without any valid referer`})
		}
	}
	return out
}

// serverNamesAround returns the names of the server block that holds
// entry b (or is it), without regexes; "" when the server
// names none, as nginx then gives it the empty name.
func serverNamesAround(ix *analyzer.Index, b int32) []string {
	for b >= 0 && ix.Entries[b].Directive.Name.Value != "server" {
		b = ix.Entries[b].Parent
	}
	if b < 0 {
		return nil
	}
	var names []string
	set := false
	for j, end := b+1, ix.End(b); j < end; j++ {
		e := &ix.Entries[j]
		if e.Parent != b || e.Directive.Name.Value != "server_name" {
			continue
		}
		set = true
		for _, a := range e.Directive.Args {
			if a.Value != "" && a.Value[0] == '~' {
				continue
			}
			names = append(names, a.Value) // add folds case as nginx does
		}
	}
	if !set {
		names = append(names, "")
	}
	return names
}

// refererKeys is a keys array of ngx_hash_add_key with
// NGX_HASH_WILDCARD_KEY: the exact names, the "*.example.com" and
// ".example.com" names (by their part after the prefix) and the
// "www.example.*" names (by their part before it).
type refererKeys struct {
	exact, head, tail map[string]bool
	namesAt           *parser.Directive
	// anyAt and anyWord are the first "none" or "blocked".
	anyAt   *parser.Directive
	anyWord parser.Word
}

func newRefererKeys() *refererKeys {
	return &refererKeys{exact: map[string]bool{}, head: map[string]bool{}, tail: map[string]bool{}}
}

// add adds key as ngx_hash_add_key does and returns nginx's message when
// it refuses the key, "" when it takes it.
func (k *refererKeys) add(key string) string {
	sn := grammar.ParseServerName(key)
	if !sn.ValidHashKey() {
		return `invalid hostname or wildcard "` + key + `"`
	}
	conflict := func(shown string) string { return `conflicting parameter "` + shown + `"` }
	d := sn.Domain
	switch sn.Kind {
	case grammar.NameDotWildcard:
		// ".example.com" is example.com and *.example.com at once.
		if k.exact[d] || k.head[d] {
			return conflict("." + d)
		}
		k.exact[d], k.head[d] = true, true
	case grammar.NameWildcardHead:
		if k.head[d] {
			return conflict("*." + d)
		}
		k.head[d] = true
	case grammar.NameWildcardTail:
		if k.tail[d] {
			return conflict(d + ".*")
		}
		k.tail[d] = true
	default:
		if k.exact[d] {
			return conflict(d)
		}
		k.exact[d] = true
	}
	return ""
}

// reportReferers reports the findings of one kind.
func reportReferers(p *analyzer.Pass, kind refererKind) {
	for _, f := range refererFindings(p) {
		if f.kind != kind {
			continue
		}
		diag := p.Reportf(f.d.File, f.w.Range, "%s", f.message)
		switch {
		case kind == refererEmpty:
			diag.Detail = "with \"none\" or \"blocked\" nginx needs a host name or wildcard in the block's valid_referers (a regex does not count); add the hosts to allow"
		case f.merged:
			if r := mergeReportedAt(p.Index()); r != nil {
				diag.Related = append(diag.Related, *r)
			}
			diag.Detail = "\"server_names\" adds the server's names to valid_referers, and one of them is already there; nginx finds it when it merges the block"
		case kind == refererConflict:
			diag.Detail = "valid_referers already has this host (names are compared without case, a URI part after \"/\" aside, and \".example.com\" stands for example.com and *.example.com); remove one"
		default:
			diag.Detail = "valid_referers takes a host name, \"*.example.com\", \".example.com\" or \"www.example.*\": one \"*\" at most, only at either end, and no empty label"
		}
	}
}

package referer

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// Problem is a host of valid_referers that nginx refuses: one its hash
// of referers refuses (ngx_http_add_referer: a conflicting one, or an
// invalid hostname or wildcard), or "none" or "blocked" without any host.
type Problem struct {
	Directive *parser.Directive
	Word      parser.Word
	// Message is nginx's.
	Message string
	Kind    Kind
	// Merged is set for a conflict with a server name that "server_names"
	// brings, which nginx finds when it merges the block.
	Merged bool
}

// Kind is what a Problem is.
type Kind uint8

// The kinds of problems.
const (
	// Invalid is an invalid hostname or wildcard (nginx's "invalid
	// hostname or wildcard").
	Invalid Kind = iota
	// Conflict is a host the block already has ("conflicting
	// parameter").
	Conflict
	// Empty is "none" or "blocked" without any host beside it.
	Empty
)

// Problems replays ngx_http_valid_referers and the referer module's
// merge for every block with valid_referers, once per run.
func Problems(p *analyzer.Pass) []Problem { return result.Get(p, struct{}{}) }

var result = &analyzer.Result[struct{}, []Problem]{
	Name:    "valid_referers keys",
	Compute: func(p *analyzer.Pass, _ struct{}) []Problem { return collect(p.Index()) },
}

func collect(ix *analyzer.Index) []Problem {
	var out []Problem
	// The directives of one block share the block's keys, in order.
	blocks := map[int32]*keys{}
	var order []int32
	firstNames := map[int32]parser.Word{}
	for _, i := range ix.Named("valid_referers") {
		e := &ix.Entries[i]
		k := blocks[e.Parent]
		if k == nil {
			k = &keys{taken: map[grammar.HashKey]bool{}}
			blocks[e.Parent] = k
			order = append(order, e.Parent)
		}
		d := e.Directive
		for _, w := range d.Args() {
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
				kind := Invalid
				if strings.HasPrefix(msg, "conflicting") {
					kind = Conflict
				}
				out = append(out, Problem{Directive: d, Word: w, Message: msg, Kind: kind})
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
					out = append(out, Problem{Directive: k.namesAt, Word: w, Message: msg, Kind: Conflict, Merged: true})
				}
			}
		}
		if k.anyAt != nil && len(k.taken) == 0 {
			out = append(out, Problem{Directive: k.anyAt, Word: k.anyWord, Kind: Empty,
				Message: `the "none" or "blocked" referers are specified in the "valid_referers" directive without any valid referer`})
		}
	}
	return out
}

// serverNamesAround returns the names of the server block that holds
// entry b (or is it), without regexes; "" when the server
// names none, as nginx then gives it the empty name.
func serverNamesAround(ix *analyzer.Index, b int32) []string {
	for b >= 0 && ix.Entries[b].Directive.Name().Value != "server" {
		b = ix.Entries[b].Parent
	}
	if b < 0 {
		return nil
	}
	var names []string
	set := false
	for j, end := b+1, ix.End(b); j < end; j++ {
		e := &ix.Entries[j]
		if e.Parent != b || e.Directive.Name().Value != "server_name" {
			continue
		}
		set = true
		for _, a := range e.Directive.Args() {
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

// keys is a keys array of ngx_hash_add_key with NGX_HASH_WILDCARD_KEY
// (grammar.HashKeys): the exact names, the "*.example.com" and
// ".example.com" names (by their part after the prefix) and the
// "www.example.*" names (by their part before it).
type keys struct {
	taken   map[grammar.HashKey]bool
	namesAt *parser.Directive
	// anyAt and anyWord are the first "none" or "blocked".
	anyAt   *parser.Directive
	anyWord parser.Word
}

// add adds key as ngx_hash_add_key does and returns nginx's message when
// it refuses the key, "" when it takes it.
func (k *keys) add(key string) string {
	sn := grammar.ParseServerName(key)
	if !sn.ValidHashKey() {
		return `invalid hostname or wildcard "` + key + `"`
	}
	hks, n := sn.HashKeys()
	if sn.Hostname {
		// Only server_name expands "$hostname": here it is a host like
		// any other.
		hks, n = [2]grammar.HashKey{{Table: '=', Name: sn.Name}}, 1
	}
	// nginx stops at the first conflict, so what it would take after one
	// is what it takes once the conflict is fixed: the host's keys all
	// or none (".a.com" after "*.a.com" leaves a.com free).
	for _, hk := range hks[:n] {
		if k.taken[hk] {
			return `conflicting parameter "` + shown(sn) + `"`
		}
	}
	for _, hk := range hks[:n] {
		k.taken[hk] = true
	}
	return ""
}

// shown is a host as nginx prints it in "conflicting parameter": lower
// case, a URI part cut.
func shown(sn grammar.ServerName) string {
	switch sn.Kind {
	case grammar.NameDotWildcard:
		return "." + sn.Domain
	case grammar.NameWildcardHead:
		return "*." + sn.Domain
	case grammar.NameWildcardTail:
		return sn.Domain + ".*"
	}
	return sn.Domain
}

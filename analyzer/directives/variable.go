package directives

import (
	"cmp"
	"slices"
	"strings"
	"sync"
)

// Variable is one row of the embedded-variable table: a variable as one
// module registers it. http and stream versions of a variable
// ($remote_addr) are separate rows. The tables are shared, so callers
// must not modify a Variable or its slices.
type Variable struct {
	// Name is the variable name in lower case without the "$". For a
	// prefix family it is the prefix: "arg_" for $arg_*.
	Name string
	// Prefix marks a family of variables such as $arg_name or
	// $http_name, where any name starting with the prefix is valid.
	Prefix bool
	// Module is the module name the nginx.org docs use, or the source
	// module when undocumented.
	Module string
	// Stream marks variables of the stream modules; the others belong
	// to http.
	Stream bool
	// URL is the reference documentation anchor, when there is one.
	URL string
	// SourceModules are the modules that register the variable in the
	// nginx source; empty when it was not found there.
	SourceModules []string
	// Tags are the data's notes tags; the first is always the origin.
	Tags Tags
	// ThirdParty marks variables of the third-party modules nginx-lint
	// knows (modvars.tsv): defined only where the module is loaded.
	ThirdParty bool
}

// String returns the variable as the docs write it: "$host", or "$arg_*"
// for a prefix family.
func (v *Variable) String() string {
	if v.Prefix {
		return "$" + v.Name + "*"
	}
	return "$" + v.Name
}

// varIndex holds the variable lookup structures.
type varIndex struct {
	all   []*Variable
	exact map[string][]*Variable
	// prefixes holds the prefix families, longest prefix first, because
	// nginx resolves a name to the longest matching prefix.
	prefixes []*Variable
}

var vidx = buildVarIndex()

func buildVarIndex() *varIndex {
	x := &varIndex{exact: make(map[string][]*Variable, len(variableTable))}
	for i := range variableTable {
		v := &variableTable[i]
		x.all = append(x.all, v)
		if v.Prefix {
			x.prefixes = append(x.prefixes, v)
		} else {
			x.exact[v.Name] = append(x.exact[v.Name], v)
		}
	}
	// http rows first, so that LookupVariable prefers them.
	for name, rows := range x.exact {
		slices.SortStableFunc(rows, httpFirst)
		x.exact[name] = slices.Clip(rows)
	}
	slices.SortStableFunc(x.prefixes, func(a, b *Variable) int {
		return cmp.Or(cmp.Compare(len(b.Name), len(a.Name)), httpFirst(a, b))
	})
	return x
}

// httpFirst orders http rows before stream rows and keeps the rest of
// the order, for use with a stable sort.
func httpFirst(a, b *Variable) int {
	switch {
	case a.Stream == b.Stream:
		return 0
	case a.Stream:
		return 1
	default:
		return -1
	}
}

// normalizeVariable strips one leading "$" and lower-cases the name:
// nginx compares variable names case-insensitively.
func normalizeVariable(name string) string {
	return strings.ToLower(strings.TrimPrefix(name, "$"))
}

// LookupVariable returns the embedded variable called name, with or
// without its "$" and in any case, as nginx matches names
// case-insensitively. A name with its own row wins over a prefix family;
// otherwise the longest matching prefix wins ($upstream_http_x is
// $upstream_http_*, not $http_*), and an empty suffix matches too, as in
// nginx. When both an http and a stream row match, the http row is
// returned; use LookupVariables to get both.
//
// User-defined variables (set, map, geo, js_set, ...) and regex captures
// ($1) are not in the table.
func LookupVariable(name string) (*Variable, bool) {
	n := normalizeVariable(name)
	if n == "" {
		return nil, false
	}
	if rows := vidx.exact[n]; len(rows) > 0 {
		return rows[0], true
	}
	for _, v := range vidx.prefixes {
		if strings.HasPrefix(n, v.Name) {
			return v, true
		}
	}
	return nil, false
}

// LookupVariables returns every row that defines name: for each of http
// and stream, the row with that exact name, or else the longest matching
// prefix family. http rows come first. It returns nil for an unknown
// name.
func LookupVariables(name string) []*Variable {
	n := normalizeVariable(name)
	if n == "" {
		return nil
	}
	var out []*Variable
	var haveHTTP, haveStream bool
	for _, v := range vidx.exact[n] {
		out = append(out, v)
		haveHTTP = haveHTTP || !v.Stream
		haveStream = haveStream || v.Stream
	}
	for _, v := range vidx.prefixes {
		if (v.Stream && haveStream) || (!v.Stream && haveHTTP) || !strings.HasPrefix(n, v.Name) {
			continue
		}
		out = append(out, v)
		haveHTTP = haveHTTP || !v.Stream
		haveStream = haveStream || v.Stream
	}
	slices.SortStableFunc(out, httpFirst)
	return out
}

// AllVariables returns every row of the variable table, in table order.
func AllVariables() []*Variable {
	return slices.Clone(vidx.all)
}

// moduleNames is every module the tables name, for KnownModule.
var moduleNames = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{
		// Shared objects of modules without directives or variables of
		// their own: the Nginx Development Kit (Debian's
		// libnginx-mod-http-ndk), which set-misc and lua build on.
		"ndk_http_module": true,
		// The objects of nginx's dynamic module groups.
		"ngx_stream_module": true, "ngx_mail_module": true,
	}
	for _, d := range idx.all {
		out[d.Module] = true
		for _, m := range d.SourceModules {
			out[m] = true
		}
	}
	for _, v := range vidx.all {
		out[v.Module] = true
		for _, m := range v.SourceModules {
			out[m] = true
		}
	}
	return out
})

// KnownModule reports whether name is a module the tables know: one of
// nginx's, or of the third-party modules whose directives and variables
// they list. name is a source name (ngx_http_echo_module), as the base
// name of the shared object a load_module line loads usually is; the
// spelling without "_filter" of a filter module counts too
// (ngx_http_xslt_module.so holds ngx_http_xslt_filter_module).
func KnownModule(name string) bool {
	m := moduleNames()
	if m[name] {
		return true
	}
	if base, ok := strings.CutSuffix(name, "_module"); ok {
		return m[base+"_filter_module"]
	}
	return false
}

package lsp

import (
	"fmt"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/script"
	"github.com/nginx-lint/nginx-lint/analyzer/symbols"
	"github.com/nginx-lint/nginx-lint/parser"
)

// The editor's own readings of words and blocks: what a completion
// replaces, how the outline names a server, which names a rename may
// give. They hold no nginx meaning beyond the script scanner's (script),
// so they live here rather than beside the symbol table.

// validName says why name (without "$" or "@") cannot name a symbol of
// kind k, "" when it can: a variable's name is what nginx's script
// compiler reads as one (letters, digits and _); another name must stay
// one word that nginx does not read otherwise.
func validName(k symbols.Kind, name string) string {
	if name == "" {
		return "the new name is empty"
	}
	switch k {
	case symbols.Variable:
		for i := 0; i < len(name); i++ {
			if !script.IsNameChar(name[i]) {
				return fmt.Sprintf("%q is not a variable name (letters, digits and _)", name)
			}
		}
	default:
		if strings.ContainsAny(name, " \t\r\n;{}\"'\\$#/:@") {
			return fmt.Sprintf("%q is not a valid %s name (no spaces, quotes or ; { } $ # / : @)", name, k)
		}
	}
	return ""
}

// serverLabel names a server block by what it serves: the first name of
// its server_name, else its first listen address ("" for neither).
func serverLabel(d *parser.Directive) string {
	listen := ""
	if d.Block == nil {
		return ""
	}
	for _, c := range d.Block.Directives {
		switch {
		case c.Name().Value == "server_name" && len(c.Args()) > 0 && c.Args()[0].Value != "":
			return c.Args()[0].Value
		case c.Name().Value == "listen" && len(c.Args()) > 0 && listen == "":
			listen = c.Args()[0].Value
		}
	}
	return listen
}

// serverDetail lists a server block's names (server_name) and addresses
// (the first argument of each listen), in that order.
func serverDetail(d *parser.Directive) string {
	if d.Block == nil {
		return ""
	}
	var names, listens []string
	for _, c := range d.Block.Directives {
		switch c.Name().Value {
		case "server_name":
			names = append(names, c.ArgValues()...)
		case "listen":
			if len(c.Args()) > 0 {
				listens = append(listens, c.Args()[0].Value)
			}
		}
	}
	return strings.TrimSpace(strings.Join(names, " ") + " " + strings.Join(listens, " "))
}

// typedWord returns where the word that ends at off of src starts (what
// a completion replaces) and, when the word is a variable being typed,
// the offset of its "$" (-1 otherwise). A word runs over the characters
// of variable names and "$", ".", "-" and "{" ("${name").
func typedWord(src string, off int) (start, dollar int) {
	start = off
	for start > 0 && (script.IsNameChar(src[start-1]) || strings.IndexByte("$.-{", src[start-1]) >= 0) {
		start--
	}
	dollar = strings.LastIndexByte(src[start:off], '$')
	if dollar >= 0 {
		dollar += start
	}
	return start, dollar
}

package parser_test

import (
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/parser"
)

// TestDirectiveWords checks the directive's compact layout against what
// it stands for: a name read back from the source when it is written as
// it reads, kept whole when it is not (quoted, escaped, built outside a
// file), and arguments past what the compact count holds.
func TestDirectiveWords(t *testing.T) {
	many := strings.Repeat(" a", 70000)
	src := "listen 80;\n\"ser\\ver\" x;\n'root' /srv;\nserver_name" + many + ";\n"
	f := parser.ParseString("t.conf", src, nil)
	if len(f.Directives) != 4 {
		t.Fatalf("%d directives, want 4", len(f.Directives))
	}
	for i, c := range []struct {
		name, raw string
		args      int
	}{
		{"listen", "listen", 1},
		{"ser\\ver", `"ser\ver"`, 1},
		{"root", "'root'", 1},
		{"server_name", "server_name", 70000},
	} {
		d := f.Directives[i]
		if n := d.Name(); n.Value != c.name || n.Raw(f) != c.raw {
			t.Errorf("directive %d: name %q written %q, want %q written %q", i, n.Value, n.Raw(f), c.name, c.raw)
		}
		args := d.Args()
		if len(args) != c.args || cap(args) != c.args {
			t.Errorf("directive %s: %d arguments (capacity %d), want %d", c.name, len(args), cap(args), c.args)
			continue
		}
		last := args[len(args)-1]
		if last.Raw(f) != last.Value || last.Range.End != d.Semicolon() {
			t.Errorf("directive %s: last argument %q at %v, want its text before the \";\" at %d", c.name, last.Value, last.Range, d.Semicolon())
		}
	}

	// Changing a word in place changes the tree; SetArgs and SetName
	// replace, and a directive copied before keeps what it had.
	d := f.Directives[0]
	d.Args()[0].Value = "81"
	if got := f.Directives[0].Args()[0].Value; got != "81" {
		t.Errorf("argument changed in place reads %q", got)
	}
	old := *d
	d.SetName(parser.Word{Value: "port"})
	d.SetArgs([]parser.Word{{Value: "a"}, {Value: "b"}})
	if d.Name().Value != "port" || len(d.Args()) != 2 || d.Args()[1].Value != "b" {
		t.Errorf("after SetName and SetArgs: %q %v", d.Name().Value, d.ArgValues())
	}
	if old.Name().Value != "listen" || len(old.Args()) != 1 {
		t.Errorf("the copy made before reads %q %v", old.Name().Value, old.ArgValues())
	}
	d.SetArgs(nil)
	if d.Args() != nil {
		t.Errorf("no arguments read as %#v, want nil", d.Args())
	}

	n := parser.NewDirective(parser.Word{Value: "return"}, []parser.Word{{Value: "404"}})
	if n.Name().Value != "return" || !n.ArgIs("404") {
		t.Errorf("NewDirective: %q %v", n.Name().Value, n.ArgValues())
	}
	if n := parser.NewDirective(parser.Word{Value: "x"}, nil); n.Args() != nil {
		t.Errorf("NewDirective without arguments: %#v, want nil", n.Args())
	}
}

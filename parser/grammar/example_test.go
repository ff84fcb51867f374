package grammar_test

import (
	"fmt"

	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

func ExampleParseListen() {
	l, err := grammar.ParseListen([]string{"[::]:443", "ssl", "default_server", "backlog=1024"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(l.Kind, l.Key, l.Has(grammar.ParamSSL), l.Backlog(), l.ForcesOwnSocket())

	_, err = grammar.ParseListen([]string{"127.0.0.1:99999"})
	fmt.Println(err)

	l, _ = grammar.ParseListen([]string{"53", "udp"})
	for _, e := range l.Check(grammar.ContextHTTP) {
		fmt.Println(e.Arg, e)
	}
	// Output:
	// ipv6 [::]:443 true 1024 true
	// invalid port in "127.0.0.1:99999"
	// 1 invalid parameter "udp"
}

func ExampleParseServerName() {
	for _, name := range []string{"*.Example.com", ".example.org", `~^www\d+\.`, "_", "www.*.example.com"} {
		sn := grammar.ParseServerName(name)
		fmt.Println(sn.Kind, sn.Domain, sn.Placeholder, sn.Validate())
	}
	// Output:
	// wildcard-head example.com false <nil>
	// dot-wildcard example.org false <nil>
	// regex  false <nil>
	// exact _ true <nil>
	// exact www.*.example.com false invalid server name or wildcard "www.*.example.com"
}

func ExampleParseLocation() {
	loc, _ := grammar.ParseLocation([]string{`~*\.(png|jpg)$`})
	fmt.Printf("%q %q regex=%v caseless=%v glued=%v\n", loc.Modifier, loc.Path, loc.IsRegex, loc.CaseInsensitive, loc.Glued)
	_, err := grammar.ParseLocation([]string{"~~", "/x"})
	fmt.Println(err)
	// Output:
	// "~*" "\\.(png|jpg)$" regex=true caseless=true glued=true
	// invalid location modifier "~~"
}

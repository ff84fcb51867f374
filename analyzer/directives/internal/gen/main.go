// Command gen writes analyzer/directives/tables_gen.go from the nginx
// directive and variable TSV files in nginx-lint's shared data directory.
//
// The data directory sits next to the repository on developer and CI
// machines but is not part of a user's clone, which is why the generated
// file is checked in. Run it through go generate:
//
//	go generate ./analyzer/directives
//
// or directly from the repository root, where the flag defaults apply:
//
//	go run ./analyzer/directives/internal/gen [-data ../shared/data] [-out analyzer/directives/tables_gen.go]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/nginx-lint/nginx-lint/analyzer/directives/internal/tablegen"
)

func main() {
	data := flag.String("data", "../shared/data", "directory holding the nginx-*.tsv files")
	out := flag.String("out", "analyzer/directives/tables_gen.go", "file to write")
	flag.Parse()
	if flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "gen: unexpected arguments:", flag.Args())
		os.Exit(2)
	}

	src, err := tablegen.Generate(*data)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	// Leave an unchanged file alone so that its modification time does
	// not make build tools think something changed.
	if old, err := os.ReadFile(*out); err == nil && bytes.Equal(old, src) {
		return
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

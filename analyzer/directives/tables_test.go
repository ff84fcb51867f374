package directives

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer/directives/internal/tablegen"
)

// dataDir is the shared data directory as seen from this package, the
// same path the go:generate line in doc.go uses.
const dataDir = "../../../shared/data"

// requireData returns dataDir, or skips the test when the directory is
// missing. It is missing in a user's clone, where the checked-in tables
// are all there is; on CI (CI=true) it must be present, so there a
// missing directory fails the test instead of silently skipping it.
func requireData(t *testing.T) string {
	t.Helper()
	_, err := os.Stat(filepath.Join(dataDir, tablegen.DirectivesFile))
	switch {
	case err == nil:
		return dataDir
	case !errors.Is(err, fs.ErrNotExist):
		t.Fatal(err)
	case os.Getenv("CI") == "true":
		t.Fatalf("CI=true but the shared data directory is missing: %v", err)
	}
	t.Skipf("skipping: shared data directory %s not found (it sits next to the repository on developer and CI machines, not in a user's clone)", dataDir)
	return ""
}

func TestTablesUpToDate(t *testing.T) {
	dir := requireData(t)
	want, err := tablegen.Generate(dir, "handlers.tsv")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("tables_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(got, want) {
		return
	}
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < max(len(gl), len(wl)); i++ {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Fatalf("tables_gen.go is stale; run go generate ./analyzer/directives\nfirst difference at line %d:\n have: %s\n want: %s", i+1, g, w)
		}
	}
}

// readTSV is a deliberately separate reading of a data file, so that
// TestTablesMatchData checks the generator against an independent
// interpretation of the README rather than against itself.
func readTSV(t *testing.T, dir, file string) []map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		t.Fatal(err)
	}
	var header []string
	var rows []map[string]string
	for _, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		if strings.HasPrefix(line, "# ") {
			continue
		}
		cells := strings.Split(line, "\t")
		if header == nil {
			header = cells
			continue
		}
		row := map[string]string{}
		for i, h := range header {
			row[h] = cells[i]
		}
		rows = append(rows, row)
	}
	return rows
}

// TestTablesMatchData compares every compiled row with its TSV row
// through the package's own parsers and String methods, which also
// checks that the generator's spelling of contexts and argument rules
// agrees with Context and ArgRule.
func TestTablesMatchData(t *testing.T) {
	dir := requireData(t)
	var rows []map[string]string
	core := readTSV(t, dir, tablegen.DirectivesFile)
	releases, err := tablegen.ReadChanges(tablegen.ChangesFile)
	if err != nil {
		t.Fatal(err)
	}
	changed := tablegen.SinceFromChanges(releases)
	third := readTSV(t, dir, tablegen.ThirdPartyFile)
	rows = append(append(rows, core...), third...)
	// nginx-lint's own tables of further third-party modules, in this
	// package's directory.
	rows = append(rows, readTSV(t, ".", tablegen.ModulesFile)...)
	all := All()
	if len(all) != len(rows) {
		t.Fatalf("All() has %d rows, data has %d", len(all), len(rows))
	}
	for i, r := range rows {
		d := all[i]
		if d.Name != r["name"] || d.Module != r["module"] {
			t.Fatalf("row %d: have (%s, %s), data has (%s, %s)", i, d.Name, d.Module, r["name"], r["module"])
		}
		ctx, err := ParseContexts(r["contexts"])
		if err != nil {
			t.Errorf("%s/%s: %v", d.Name, d.Module, err)
		}
		if d.Contexts != ctx || d.Contexts.String() != r["contexts"] {
			t.Errorf("%s/%s: contexts %q, data %q", d.Name, d.Module, d.Contexts, r["contexts"])
		}
		args := d.Args.String()
		if d.Block && d.ArgsKnown {
			args = "BLOCK+" + args
		}
		if args != r["args"] || d.ArgsKnown != (r["args"] != "") {
			t.Errorf("%s/%s: args %q (known %v), data %q", d.Name, d.Module, args, d.ArgsKnown, r["args"])
		}
		if rule, ok := ParseArgRule(strings.TrimPrefix(r["args"], "BLOCK+")); !ok || rule != d.Args {
			t.Errorf("%s/%s: ParseArgRule(%q) = %v, %v; table has %v", d.Name, d.Module, r["args"], rule, ok, d.Args)
		}
		if d.Block != (r["block"] == "yes") {
			t.Errorf("%s/%s: block %v, data %q", d.Name, d.Module, d.Block, r["block"])
		}
		if r["since"] == "" && i < len(core) {
			// Whole new modules: the generator knows their version from
			// nginx's source history.
			r["since"] = tablegen.SinceFromSource(d.Name)
		}
		if r["since"] == "" && i < len(core) {
			// Directives of releases after the source: changes.xml.
			r["since"] = changed[d.Name]
		}
		for col, have := range map[string]string{
			"syntax":     d.Syntax,
			"default":    d.Default,
			"since":      d.Since,
			"url":        d.URL,
			"src_module": strings.Join(d.SourceModules, ","),
			"notes":      strings.Join(d.Tags, ";"),
		} {
			if have != r[col] {
				t.Errorf("%s/%s: %s %q, data %q", d.Name, d.Module, col, have, r[col])
			}
		}
		if d.ThirdParty != (i >= len(core)) {
			t.Errorf("%s/%s: ThirdParty = %v", d.Name, d.Module, d.ThirdParty)
		}
	}

	vrows := readTSV(t, dir, tablegen.VariablesFile)
	nginxVars := len(vrows)
	vrows = append(vrows, readTSV(t, ".", tablegen.ModVarsFile)...)
	vars := AllVariables()
	if len(vars) != len(vrows) {
		t.Fatalf("AllVariables() has %d rows, data has %d", len(vars), len(vrows))
	}
	for i, r := range vrows {
		v := vars[i]
		if v.String() != r["name"] || v.Module != r["module"] || v.URL != r["url"] ||
			strings.Join(v.SourceModules, ",") != r["src_module"] || strings.Join(v.Tags, ";") != r["notes"] {
			t.Errorf("variable row %d: have %+v, data %v", i, *v, r)
		}
		if v.Stream != strings.HasPrefix(v.Module, "ngx_stream_") {
			t.Errorf("%s/%s: Stream = %v", v, v.Module, v.Stream)
		}
		if v.ThirdParty != (i >= nginxVars) {
			t.Errorf("%s/%s: ThirdParty = %v", v, v.Module, v.ThirdParty)
		}
	}
}

package main

import (
	"bytes"
	"net/netip"
	"os"
	"path/filepath"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
)

func TestRunStdout(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"-layout", "l2c", "-n", "3"}, &out); err != nil {
		t.Fatal(err)
	}
	want := layout.Generate(layout.Options{Layout: layout.Layout{Listen: layout.IPPerServer, Naming: layout.UniqueNames}, N: 3})
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("stdout differs from layout.Generate:\n%s", out.Bytes())
	}
}

func TestRunFiles(t *testing.T) {
	dir := t.TempDir()
	one := filepath.Join(dir, "one.conf")
	if err := run([]string{"-layout", "L1a", "-n", "5", "-port", "30000", "-ip", "127.0.0.9", "-workers", "-1", "-worker-connections", "64", "-o", one}, nil); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(one)
	if err != nil {
		t.Fatal(err)
	}
	want := layout.Generate(layout.Options{
		Layout: layout.Layout{Listen: layout.PortPerServer, Naming: layout.NoName}, N: 5,
		BasePort: 30000, BaseIP: netip.MustParseAddr("127.0.0.9"),
		WorkerProcesses: -1, WorkerConnections: 64,
	})
	if !bytes.Equal(got, want) {
		t.Errorf("-o output differs from layout.Generate:\n%s", got)
	}

	all := filepath.Join(dir, "all")
	if err := run([]string{"-all", all, "-n", "2"}, nil); err != nil {
		t.Fatal(err)
	}
	for _, name := range layout.Names() {
		if _, err := os.Stat(filepath.Join(all, name+".conf")); err != nil {
			t.Error(err)
		}
	}
}

func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "x.conf")
	for _, args := range [][]string{
		{},
		{"-n", "3"},
		{"-layout", "L9z", "-n", "3"},
		{"-layout", "L1a"},
		{"-layout", "L1a", "-n", "3", "-ip", "10.0.0.1"},
		{"-layout", "L1a", "-n", "3", "-ip", "nonsense"},
		{"-layout", "L1a", "-n", "3", "extra"},
		{"-all", dir, "-layout", "L1a", "-n", "3"},
		{"-layout", "L1a", "-n", "0", "-o", out},
	} {
		if err := run(args, &bytes.Buffer{}); err == nil {
			t.Errorf("run(%q) succeeded", args)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("invalid options left an output file behind")
	}
}

func TestRunRich(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"-layout", "L2c", "-n", "4", "-rich"}, &out); err != nil {
		t.Fatal(err)
	}
	want := layout.Generate(layout.Rich(layout.Options{Layout: layout.Layout{Listen: layout.IPPerServer, Naming: layout.UniqueNames}, N: 4}))
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("-rich output differs from layout.Rich:\n%s", out.Bytes())
	}
}

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/netip"
	"os"
	"path/filepath"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
	"github.com/nginx-lint/nginx-lint/internal/atomicfile"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return // the flag package has printed the usage
		}
		fmt.Fprintln(os.Stderr, "nginx-lint-gen:", err)
		os.Exit(2)
	}
}

// run is main without the process exit so it can be tested.
func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("nginx-lint-gen", flag.ContinueOnError)
	name := fs.String("layout", "", "layout to write: one of L1a ... L3c")
	n := fs.Int("n", 0, "number of server blocks")
	out := fs.String("o", "", "output file (default standard output)")
	all := fs.String("all", "", "write all nine layouts into this directory as <layout>.conf")
	port := fs.Int("port", layout.DefaultBasePort, "first port")
	ip := fs.String("ip", layout.DefaultBaseIP.String(), "first loopback IP")
	workers := fs.Int("workers", 1, "worker_processes (negative for auto)")
	conns := fs.Int("worker-connections", 0, "worker_connections (0 sizes it for the listen addresses, negative leaves events empty)")
	rich := fs.Bool("rich", false, "give every server the constructs lint rules look at (returns, allow/deny, if, regex locations, add_header, maps, ssl, ...): for linting, not for nginx -t")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	base, err := netip.ParseAddr(*ip)
	if err != nil {
		return fmt.Errorf("-ip: %w", err)
	}
	opts := layout.Options{
		N:                 *n,
		BasePort:          *port,
		BaseIP:            base,
		WorkerProcesses:   *workers,
		WorkerConnections: *conns,
	}

	if *all != "" {
		if *name != "" || *out != "" {
			return errors.New("-all cannot be combined with -layout or -o")
		}
		if err := os.MkdirAll(*all, 0o755); err != nil {
			return err
		}
		for _, l := range layout.All() {
			opts.Layout = l
			if err := writeFile(filepath.Join(*all, l.String()+".conf"), opts); err != nil {
				return err
			}
		}
		return nil
	}

	if *name == "" {
		return errors.New("-layout or -all is required")
	}
	if opts.Layout, err = layout.ParseName(*name); err != nil {
		return err
	}
	if *rich {
		opts = layout.Rich(opts)
	}
	if *out == "" {
		return layout.Write(stdout, opts)
	}
	return writeFile(*out, opts)
}

// writeFile validates before writing, and writes through a temporary
// file renamed into place, so neither a bad flag nor an interrupted run
// leaves an empty or truncated config behind.
func writeFile(path string, opts layout.Options) error {
	if err := opts.Validate(); err != nil {
		return err
	}
	_, err := atomicfile.WriteFile(path, layout.Generate(opts), atomicfile.Options{})
	return err
}

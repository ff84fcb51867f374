package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer/advisories"
	"github.com/nginx-lint/nginx-lint/analyzer/buildinfo"
	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/parser"
)

type buildInfoCmd struct {
	File   string `arg:"" optional:"" name:"file" help:"Saved \"nginx -V\" output, or \"-\" for standard input."`
	Nginx  string `help:"Run this nginx binary with -V instead of reading a file." placeholder:"PATH"`
	Format string `enum:"text,json" default:"text" help:"Output format: ${enum}."`
}

// readBuildInfo gets "nginx -V" output from a file, stdin or a binary.
func readBuildInfo(e *env, file, nginx string) (*buildinfo.Info, error) {
	var out []byte
	var err error
	switch {
	case nginx != "":
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		out, err = exec.CommandContext(ctx, nginx, "-V").CombinedOutput()
		if err != nil {
			return nil, fmt.Errorf("%s -V: %v", nginx, err)
		}
	case file == "-":
		out, err = io.ReadAll(e.stdin)
	case file != "":
		out, err = parser.ReadConfigFile(file, 0)
	default:
		return nil, &lint.UsageError{Msg: "give a file with nginx -V output, \"-\", or --nginx PATH"}
	}
	if err != nil {
		return nil, err
	}
	return buildinfo.Parse(string(out))
}

// Run is called by kong when the command is chosen (run); the exit
// code goes to e.
func (cmd buildInfoCmd) Run(e *env) error { return e.exit(cmd.run(e)) }

func (cmd buildInfoCmd) run(e *env) (int, error) {
	info, err := readBuildInfo(e, cmd.File, cmd.Nginx)
	if err != nil {
		return exitError, err
	}
	findings := info.Audit()
	var known []advisories.PatternAdvisory
	if info.Variant == "nginx" {
		known = advisories.ByPatternIn(info.Version)
	}
	if cmd.Format == "json" {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return exitClean, enc.Encode(struct {
			*buildinfo.Info
			Findings   []buildinfo.Finding          `json:"findings"`
			Advisories []advisories.PatternAdvisory `json:"advisories"`
		}{info, findings, known})
	}
	w := e.stdout
	fmt.Fprintf(w, "%s %s\n", info.Variant, info.Version)
	if info.Compiler != "" {
		fmt.Fprintf(w, "compiler:     %s\n", info.Compiler)
	}
	if info.OpenSSL != "" {
		fmt.Fprintf(w, "TLS library:  %s\n", info.OpenSSL)
	}
	fmt.Fprintf(w, "optimisation: %s\n", info.Optimization)
	fmt.Fprintf(w, "modules:      %d static, %d dynamic, %d default ones removed, %d third-party\n",
		len(info.Static), len(info.Dynamic), len(info.Without), len(info.ThirdParty))
	if len(info.Dynamic) > 0 {
		fmt.Fprintf(w, "dynamic:      %s\n", strings.Join(info.Dynamic, " "))
	}
	if len(info.Without) > 0 {
		fmt.Fprintf(w, "removed:      %s\n", strings.Join(info.Without, " "))
	}
	for _, f := range findings {
		fmt.Fprintf(w, "%s: %s\n    %s\n", f.Severity, f.Message, f.Detail)
	}
	// The flaws this version has that a configuration pattern reaches:
	// lint with --nginx-build to see whether the configuration has it.
	for _, a := range known {
		fmt.Fprintf(w, "advisory: %s (fixed in %s) is reached by %s; \"nginx-lint --nginx-build\" reports the configurations that have it\n",
			a.ID, a.Fixed, a.Pattern)
	}
	return exitClean, nil
}

package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/internal/didyoumean"
	"github.com/nginx-lint/nginx-lint/internal/report"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/crossplane"
)

// Exit codes, kept apart so CI scripts can tell findings from breakage.
const (
	exitClean    = 0
	exitFindings = 1
	exitError    = 2
	exitUsage    = 3
)

// defaultConfig is linted when no path is given.
const defaultConfig = "/etc/nginx/nginx.conf"

// env carries the process's streams, so tests can run the command in process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// isTerminal reports whether stdout is a terminal (for --color auto).
	isTerminal bool
	// stderrTerminal reports whether stderr is a terminal (for progress
	// lines).
	stderrTerminal bool
	// code is the exit code the command chose: kong's Run methods
	// return only an error.
	code int
	// unread is set when route or diff answered for a configuration
	// nginx cannot read (its first error is printed): the run exits 1.
	unread bool
}

// exit records a command's exit code and passes its error on, for a Run
// method over a run that returns both.
func (e *env) exit(code int, err error) error {
	e.code = code
	return err
}

// server is a command that serves until told to stop (the language
// server) rather than one run over some input.
type server interface{ serves() }

type cli struct {
	Version   kong.VersionFlag `help:"Print the version and exit."`
	Lint      lintCmd          `cmd:"" default:"withargs" help:"Lint configuration files (the default command)."`
	Parse     parseCmd         `cmd:"" help:"Print the parse tree of a configuration."`
	Fmt       fmtCmd           `cmd:"" help:"Format configuration files."`
	Rules     rulesCmd         `cmd:"" help:"List the rules."`
	Explain   explainCmd       `cmd:"" help:"Print a rule's documentation."`
	BuildInfo buildInfoCmd     `cmd:"" name:"build-info" help:"Audit an nginx build from its \"nginx -V\" output."`
	LSP       lspCmd           `cmd:"" name:"lsp" help:"Run the language server (for editors) on standard input and output."`
	Cost      costCmd          `cmd:"" help:"Estimate nginx's startup and reload cost of a configuration."`
	Calibrate calibrateCmd     `cmd:"" help:"Time the local nginx on generated layouts and write a cost profile."`
	Route     routeCmd         `cmd:"" help:"Say which server and location answer URLs, through which redirects, with what."`
	Diff      diffCmd          `cmd:"" help:"List the requests two configurations answer differently (server, location, redirects, handler)."`
	Init      initCmd          `cmd:"" help:"Write a commented .nginx-lint.yaml for the configuration in a directory, with the target nginx read from the local one."`
	Schema    schemaCmd        `cmd:"" help:"Print the JSON Schema of .nginx-lint.yaml (for editors and SchemaStore)."`
	Help      helpCmd          `cmd:"" help:"Show help for nginx-lint or one of its commands."`
	VersionC  versionCmd       `cmd:"" name:"version" help:"Print the version."`
}

// helpCmd is "nginx-lint help [COMMAND]", the same as --help.
type helpCmd struct {
	Command []string `arg:"" optional:"" name:"command" help:"The command to describe."`
}

// Run prints the same text as --help, through the same path.
func (cmd *helpCmd) Run(e *env) error {
	e.code = run(append(slices.Clone(cmd.Command), "--help"), e.stdin, e.stdout, e.stderr)
	return nil
}

// versionCmd is "nginx-lint version", the same as --version.
type versionCmd struct{}

// Run prints what --version prints.
func (versionCmd) Run(e *env) error {
	e.code = run([]string{"--version"}, e.stdin, e.stdout, e.stderr)
	return nil
}

// AfterApply refuses a --context nginx-lint does not know, with the
// closest names, before any command that reads configurations runs
// (kong calls it once the flags are set).
func (f loadFlags) AfterApply() error {
	if f.Context == "" {
		return nil
	}
	if _, ok := analyzer.ContextAncestors(f.Context); ok {
		return nil
	}
	names := analyzer.ContextNames()
	return &lint.UsageError{Msg: fmt.Sprintf("--context: unknown context %q%s (one of %s)", f.Context,
		didyoumean.Suffix(didyoumean.Closest(f.Context, names)), strings.Join(names, ", "))}
}

// unknownCommand returns the message for a first word that is meant as a
// command but misspelt: not a command, not an existing path, not shaped
// like a path, and close to a command's name. Anything else is left to
// be read as a path to lint, as before.
func unknownCommand(word string, model *kong.Node) string {
	if word == "" || word == "-" || strings.HasPrefix(word, "-") || strings.ContainsAny(word, `./\`) {
		return ""
	}
	var names []string
	for _, c := range model.Children {
		if c.Name == word {
			return ""
		}
		names = append(names, c.Name)
	}
	if _, err := os.Lstat(word); err == nil {
		return ""
	}
	s := didyoumean.Closest(word, names)
	if len(s) == 0 {
		return ""
	}
	return fmt.Sprintf("unknown command %q%s", word, didyoumean.Suffix(s))
}

type loadFlags struct {
	Prefix string `short:"p" help:"nginx configuration prefix: relative include paths resolve against it (default: the main file's directory, as nginx -c does)."`
	// Checked by check, not by a kong enum: an enum's empty default would
	// show as an empty first choice in the help.
	Context      string `help:"Lint a fragment as if included in this context: ${contexts}. Default: inferred from its top-level directives." placeholder:"CONTEXT"`
	MaxFileSize  string `name:"max-file-size" help:"Read at most this much of any one file, e.g. 128MiB (default: max-file-size in .nginx-lint.yaml, else 128MiB); a larger file is a file-too-large finding." placeholder:"SIZE"`
	MaxTotalSize string `name:"max-total-size" default:"256MiB" help:"Read at most this much in all (a directory of large files cannot exhaust memory); files past it are total-size-limit findings." placeholder:"SIZE"`
}

// workspace is the lint session the reading flags describe; the commands
// add their own.
func (f loadFlags) workspace(e *env) (*lint.Workspace, error) {
	w := &lint.Workspace{Prefix: f.Prefix, Context: f.Context, Stdin: e.stdin, Cache: &lint.Cache{},
		Warn: func(msg string) { fmt.Fprintf(e.stderr, "nginx-lint: warning: %s\n", report.TerminalSafe(msg)) }}
	if f.MaxFileSize != "" {
		n, err := parser.ParseSize(f.MaxFileSize)
		if err != nil || n <= 0 {
			return nil, &lint.UsageError{Msg: "--max-file-size: " + sizeError(f.MaxFileSize, err)}
		}
		w.MaxFileSize = n
	}
	n, err := parser.ParseSize(f.MaxTotalSize)
	if err != nil || n <= 0 {
		return nil, &lint.UsageError{Msg: "--max-total-size: " + sizeError(f.MaxTotalSize, err)}
	}
	w.MaxTotalSize = n
	return w, nil
}

func sizeError(s string, err error) string {
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("size %q must be positive", s)
}

type lintCmd struct {
	loadFlags
	Paths       []string `arg:"" optional:"" name:"path" help:"Files to lint; \"-\" reads standard input (a config or nginx -T output). Default: ${default_config} if it exists."`
	Format      string   `short:"f" enum:"${formats}" default:"text" help:"Output format: ${enum}."`
	Color       string   `enum:"auto,always,never" default:"auto" help:"Color the text output: ${enum}. With auto, FORCE_COLOR or CLICOLOR_FORCE (not empty, not 0) turn color on, NO_COLOR (not empty) turns it off."`
	FailLevel   string   `enum:"error,warning,info,none" default:"error" help:"Exit with 1 when a finding is at least this severe: ${enum}. The default, error, blocks what nginx refuses, as the pre-commit hook and the Action do."`
	MinSeverity string   `name:"min-severity" enum:"info,warning,error" default:"info" help:"Show only the findings at least this severe: ${enum} (in every output; the exit code still follows --fail-level over all of them)."`
	Strict      bool     `help:"Report every unknown directive as an error, also one that a module the configuration loads and nginx-lint does not know could define."`
	Disable     []string `help:"Rules (by name or code) not to run." placeholder:"RULE"`
	Only        []string `help:"Run only these rules (by name or code, comma-separated or repeated), whatever the settings say; the syntax and file findings (NL1xxx) stay on, and --disable still applies." placeholder:"RULE"`
	Output      []string `sep:"none" placeholder:"FORMAT=FILE" help:"Also write the findings in FORMAT (${format_list}) to FILE, whatever --format prints, e.g. --format github --output sarif=nginx-lint.sarif; repeatable. Written whole once the lint is done (also on exit 1 or 2), not at all on a usage error."`
	Quiet       bool     `short:"q" help:"Print only the findings, one line each: no source line, detail or summary, and with --fix no \"fixed\" lines."`
	settingsFlags
	Baseline      string `help:"Report only findings not recorded in this baseline file." placeholder:"FILE"`
	WriteBaseline string `help:"Record the current findings in this baseline file and exit 0." placeholder:"FILE"`
	Fix           bool   `help:"Apply the suggested fixes of the findings (after suppression and baseline) to the files, then report what remains."`
	Diff          bool   `help:"With or without --fix: print the fixes as a unified diff and change no file; exit 1 when there is something to fix."`
	Force         bool   `help:"With --fix, also write read-only files."`
	// Environment-dependent checks, for linting on the host itself.
	CheckFiles bool `name:"check-files" help:"Check this machine: files nginx loads at startup (certificates, keys, ...) that do not exist, certificates (expiry, key, chain, names, weak keys), and host names nginx resolves that do not resolve here."`
}

// settingsFlags choose the settings file and the target nginx build, for
// lint and cost alike.
type settingsFlags struct {
	Config   string `help:"Settings file to use instead of the .nginx-lint.yaml found upward from each linted file." placeholder:"FILE"`
	NoConfig bool   `help:"Use no settings file."`
	// The target build, for unknown-directive.
	NginxBuild string `name:"nginx-build" help:"Lint for the nginx this saved \"nginx -V\" output describes: directives of modules it lacks, or newer than its version, are unknown." placeholder:"FILE"`
	Nginx      string `help:"Lint for this nginx binary (asks it with -V)." placeholder:"PATH"`
	Version    string `name:"nginx-version" help:"Lint for this nginx version, every module possible (over the settings' nginx-build and nginx-version; --nginx-build and --nginx win over it)." placeholder:"X.Y.Z"`
}

// apply sets w's settings and target build from the flags.
func (f settingsFlags) apply(e *env, w *lint.Workspace) error {
	if f.Config != "" && f.NoConfig {
		return &lint.UsageError{Msg: "--config and --no-config together"}
	}
	w.NoSettings = f.NoConfig
	if f.Config != "" {
		var err error
		if w.Settings, err = lint.LoadSettings(f.Config); err != nil {
			return err
		}
	}
	w.Version = f.Version
	if f.Version != "" && !regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+$`).MatchString(f.Version) {
		return &lint.UsageError{Msg: "--nginx-version " + f.Version + ": not a version such as 1.22.1"}
	}
	if f.NginxBuild != "" || f.Nginx != "" {
		if f.NginxBuild != "" && f.Nginx != "" {
			return &lint.UsageError{Msg: "--nginx-build and --nginx together"}
		}
		var err error
		if w.Build, err = readBuildInfo(e, f.NginxBuild, f.Nginx); err != nil {
			return err
		}
	}
	return nil
}

type parseCmd struct {
	loadFlags
	Path            string `arg:"" name:"file" help:"Main configuration file, or \"-\" for standard input."`
	Format          string `enum:"crossplane" default:"crossplane" help:"Output format: ${enum}."`
	SingleFile      bool   `help:"Do not follow include directives."`
	IncludeComments bool   `help:"Emit comments as \"#\" directives."`
	Indent          int    `default:"2" help:"JSON indentation (0: one line)."`
}

// run is the whole program: parse flags, do the work, return the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, isTerminal: isTerminal(stdout), stderrTerminal: isTerminal(stderr)}
	var c cli
	exited := -1
	k, err := kong.New(&c,
		kong.Name("nginx-lint"),
		kong.Description("Lint nginx configurations: syntax exactly as nginx reads it, includes, and more."),
		kong.Writers(stdout, stderr),
		kong.Exit(func(code int) { exited = code }),
		kong.Vars{"default_config": defaultConfig, "version": currentVersion().Line(),
			"contexts": strings.Join(analyzer.ContextNames(), ", "),
			// The output formats, from their one registry.
			"formats": strings.Join(report.Names(), ","), "format_list": strings.Join(report.Names(), ", ")},
		kong.UsageOnError(),
	)
	if err != nil {
		fmt.Fprintf(stderr, "nginx-lint: %v\n", err)
		return exitError
	}
	if len(args) > 0 {
		if msg := unknownCommand(args[0], k.Model.Node); msg != "" {
			fmt.Fprintf(stderr, "nginx-lint: %s\n", msg)
			return exitUsage
		}
	}
	ctx, err := k.Parse(args)
	if exited >= 0 {
		// --help and friends print and ask to exit.
		if exited != 0 {
			return exitUsage
		}
		return exitClean
	}
	if err != nil {
		fmt.Fprintf(stderr, "nginx-lint: %v\n", err)
		return exitUsage
	}
	if _, ok := ctx.Selected().Target.Addr().Interface().(server); !ok {
		batchGC()
	}
	// The chosen command's Run method (each command's file), given e.
	if err := ctx.Run(e); err != nil {
		fmt.Fprintf(stderr, "nginx-lint: %v\n", err)
		var ue *lint.UsageError
		if errors.As(err, &ue) {
			return exitUsage
		}
		return exitError
	}
	return e.code
}

// Run is called by kong when the command is chosen (run); the exit
// code goes to e.
func (cmd *parseCmd) Run(e *env) error { return e.exit(cmd.run(e)) }

func (cmd *parseCmd) run(e *env) (int, error) {
	w, err := cmd.workspace(e)
	if err != nil {
		return 0, err
	}
	// The tree as nginx reads the file: no settings file applies.
	w.NoSettings, w.Loader = true, &parser.Loader{NoIncludes: cmd.SingleFile, Faithful: true}
	rep, err := w.Load([]lint.Target{lint.FileTarget(cmd.Path)})
	if err != nil {
		return 0, err
	}
	if len(rep.Unreadable) > 0 {
		return exitError, rep.Unreadable[0].Err
	}
	if len(rep.Units) == 0 {
		return exitError, fmt.Errorf("%s: nothing to parse", cmd.Path)
	}
	bigInputGC(rep.Read) // the heap in proportion to the input, as for lint
	c := rep.Units[0].Config
	// Streamed: the payload built and encoded whole took ninety times the
	// file's size.
	// A file outside the configuration's tree is listed with its status
	// and error lines, not its text (lint.Tree).
	status, err := crossplane.Write(e.stdout, c, crossplane.Options{SingleFile: cmd.SingleFile, IncludeComments: cmd.IncludeComments, Check: analyzer.ArgCountError, Kinds: analyzer.Kinds,
		Withheld: rep.Units[0].Tree.Redactor},
		strings.Repeat(" ", max(cmd.Indent, 0)))
	if err != nil {
		return exitError, err
	}
	if status != "ok" {
		return exitFindings, nil
	}
	return exitClean, nil
}

// batchGC trades memory for time in a one-shot run: the parse tree of a big
// configuration is alive until the process ends, so collecting it often
// gains nothing. With GOGC=400 linting 19,900 servers takes about 20 ms
// less for about 3 MB more. A GOGC set by the user wins; the language
// server, which lives long, keeps Go's default.
func batchGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(400)
	}
}

// bigInputGC undoes batchGC once a run has read more than 32 MiB: the
// parse tree is then several hundred MB, and GOGC=400 would let the heap
// grow to five times that (a 110 MB configuration peaked at 2.3 GB with
// it, 2.0 GB without).
func bigInputGC(read int64) {
	if _, set := os.LookupEnv("GOGC"); !set && read > 32<<20 {
		debug.SetGCPercent(100)
	}
	memoryLimit(read) // memory.go
}

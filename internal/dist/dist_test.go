package dist

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// distEnv asks for the cross-platform tests (TestCrossCompile,
// TestVetEverywhere). They build and vet the module for every released
// operating system: on a cold build cache, on two cores, that is about
// eight minutes, most of the README's "go test ./..." when they ran
// there. .ci/run gives them a step of their own.
const distEnv = "NGINX_LINT_DIST"

// requireDist runs the calling test only when $NGINX_LINT_DIST is 1; else
// it skips, saying how to run it. The README's test command leaves the
// cross-platform builds out, and .ci/run runs them in a step of their own
// (NGINX_LINT_DIST=1 go test ./internal/dist), which fails if a target
// does not build.
func requireDist(t *testing.T) {
	t.Helper()
	switch v := os.Getenv(distEnv); v {
	case "1":
		return
	case "", "0":
		t.Skipf("skipping the cross-platform builds (minutes on a cold cache): %s=1 go test ./internal/dist runs them (.ci/run does, in a step of its own)", distEnv)
	default:
		t.Fatalf("$%s=%q: want 1 (run the cross-platform builds) or 0 (another step runs them)", distEnv, v)
	}
}

// root is the repository root, where the distribution files live.
var root = filepath.Join("..", "..")

func readYAML(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// goreleaser is the part of .goreleaser.yaml the tests check.
type goreleaser struct {
	Version int `yaml:"version"`
	Builds  []struct {
		ID      string   `yaml:"id"`
		Main    string   `yaml:"main"`
		Env     []string `yaml:"env"`
		GOOS    []string `yaml:"goos"`
		GOARCH  []string `yaml:"goarch"`
		Flags   []string `yaml:"flags"`
		LDFlags []string `yaml:"ldflags"`
	} `yaml:"builds"`
	Archives []struct {
		IDs []string `yaml:"ids"`
	} `yaml:"archives"`
}

// releaseTargets reads the GOOS/GOARCH pairs .goreleaser.yaml builds.
func releaseTargets(t *testing.T) (goreleaser, [][2]string) {
	t.Helper()
	var g goreleaser
	readYAML(t, ".goreleaser.yaml", &g)
	var out [][2]string
	for _, b := range g.Builds {
		for _, os := range b.GOOS {
			for _, arch := range b.GOARCH {
				out = append(out, [2]string{os, arch})
			}
		}
	}
	return g, out
}

func TestGoreleaserConfig(t *testing.T) {
	g, targets := releaseTargets(t)
	if g.Version != 2 || len(g.Builds) != 1 {
		t.Fatalf("version %d, %d builds", g.Version, len(g.Builds))
	}
	b := g.Builds[0]
	want := [][2]string{{"linux", "amd64"}, {"linux", "arm64"}, {"darwin", "amd64"}, {"darwin", "arm64"}, {"windows", "amd64"}, {"windows", "arm64"}}
	for _, w := range want {
		if !slices.Contains(targets, w) {
			t.Errorf("target %s/%s missing from %v", w[0], w[1], targets)
		}
	}
	if len(targets) != len(want) {
		t.Errorf("targets %v, want the six of linux/darwin/windows × amd64/arm64", targets)
	}
	if st, err := os.Stat(filepath.Join(root, b.Main)); err != nil || !st.IsDir() {
		t.Errorf("main %q: %v", b.Main, err)
	}
	if !slices.Contains(b.Env, "CGO_ENABLED=0") || !slices.Contains(b.Flags, "-trimpath") {
		t.Errorf("env %v, flags %v: want CGO_ENABLED=0 and -trimpath", b.Env, b.Flags)
	}
	if len(b.LDFlags) != 1 || !strings.Contains(b.LDFlags[0], "-X main.version={{ .Version }}") {
		t.Errorf("ldflags %v", b.LDFlags)
	}
	if len(g.Archives) == 0 || !slices.Contains(g.Archives[0].IDs, b.ID) {
		t.Errorf("archives %+v do not take build %q", g.Archives, b.ID)
	}
}

// TestVersionStamp: the variable the release and Docker builds set with
// -X main.version is the one --version prints.
func TestVersionStamp(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "nginx-lint")
	build := exec.Command("go", "build", "-ldflags", "-X main.version=v9.8.7-stamp", "-o", bin, "./cmd/nginx-lint")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil || !strings.Contains(string(out), "v9.8.7-stamp") {
		t.Errorf("--version: %v %q", err, out)
	}
}

// TestCrossCompile builds every release target (into /dev/null: no
// artifact is kept). It compiles the module six times over, most of the
// README test command's time on a cold build cache, so it runs only when
// asked (requireDist).
func TestCrossCompile(t *testing.T) {
	requireDist(t)
	_, targets := releaseTargets(t)
	for _, tg := range targets {
		t.Run(tg[0]+"-"+tg[1], func(t *testing.T) {
			cmd := exec.Command("go", "build", "-trimpath", "-o", os.DevNull, "./cmd/nginx-lint")
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "GOOS="+tg[0], "GOARCH="+tg[1], "CGO_ENABLED=0")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("GOOS=%s GOARCH=%s go build: %v\n%s", tg[0], tg[1], err, out)
			}
		})
	}
}

// TestCIRunsCrossBuilds: since the README's test command skips the
// cross-platform builds, .ci/run must run them in a step of its own,
// after that command, with a -run pattern that selects each of them.
func TestCIRunsCrossBuilds(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	main, dist := -1, -1
	var pattern string
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "go test ./...":
			main = i
		case strings.HasPrefix(line, distEnv+"=1 go test ./internal/dist"):
			dist = i
			if m := regexp.MustCompile(`-run '([^']*)'`).FindStringSubmatch(line); m != nil {
				pattern = m[1]
			} else if strings.Contains(line, "-run") {
				pattern = "unparsed"
			}
		}
	}
	if main < 0 || dist < main {
		t.Fatalf(".ci/run: README command at line %d, cross-build step at line %d; want go test ./... then %s=1 go test ./internal/dist", main+1, dist+1, distEnv)
	}
	if pattern != "" {
		re, err := regexp.Compile(pattern)
		if err != nil {
			t.Fatalf(".ci/run: -run %q: %v", pattern, err)
		}
		for _, name := range []string{"TestCrossCompile", "TestVetEverywhere"} {
			if !re.MatchString(name) {
				t.Errorf(".ci/run: -run %q does not select %s", pattern, name)
			}
		}
	}
}

// action is the part of action.yml the tests check.
type action struct {
	Name   string `yaml:"name"`
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]any `yaml:"outputs"`
	Runs    struct {
		Using string `yaml:"using"`
		Steps []struct {
			ID    string            `yaml:"id"`
			Uses  string            `yaml:"uses"`
			Shell string            `yaml:"shell"`
			Run   string            `yaml:"run"`
			Env   map[string]string `yaml:"env"`
		} `yaml:"steps"`
	} `yaml:"runs"`
}

func TestActionDefinition(t *testing.T) {
	var a action
	readYAML(t, "action.yml", &a)
	if a.Name == "" || a.Runs.Using != "composite" {
		t.Fatalf("name %q, using %q", a.Name, a.Runs.Using)
	}
	for _, in := range []string{"path", "sarif-file", "fail-level", "args"} {
		if _, ok := a.Inputs[in]; !ok {
			t.Errorf("no input %q", in)
		}
	}
	if _, ok := a.Outputs["sarif-file"]; !ok {
		t.Error("no output sarif-file")
	}
	builds, lints := 0, 0
	for _, s := range a.Runs.Steps {
		if s.Run == "" {
			continue
		}
		if s.Shell == "" {
			t.Errorf("step %q: a composite run step needs a shell", s.ID)
		}
		// Inputs pasted into a script are shell injection; they must come
		// through env.
		if strings.Contains(s.Run, "${{") {
			t.Errorf("step %q interpolates an expression into its script", s.ID)
		}
		if strings.Contains(s.Run, "go build") && strings.Contains(s.Run, "./cmd/nginx-lint") {
			builds++
		}
		if strings.Contains(s.Run, "--format sarif") {
			lints++
		}
	}
	if builds != 1 || lints != 1 {
		t.Errorf("%d build steps, %d lint steps with --format sarif", builds, lints)
	}
}

// TestActionLintStep runs the Action's lint step as the runner would, on
// a clean and a broken configuration: the SARIF file is written either
// way, the exit code follows fail-level.
func TestActionLintStep(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("skipping: no bash")
	}
	var a action
	readYAML(t, "action.yml", &a)
	var script string
	var env map[string]string
	for _, s := range a.Runs.Steps {
		if s.ID == "lint" {
			script, env = s.Run, s.Env
		}
	}
	if script == "" {
		t.Fatal("no step with id lint")
	}
	tmp := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(tmp, "nginx-lint"), "./cmd/nginx-lint")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	run := func(path string) (code string, sarif map[string]any) {
		t.Helper()
		ghOut := filepath.Join(tmp, "github-output")
		os.Remove(ghOut)
		sarifPath := filepath.Join(tmp, "out.sarif")
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "RUNNER_TEMP="+tmp, "GITHUB_OUTPUT="+ghOut)
		// The step's env, with the inputs' defaults and our path.
		for k, v := range env {
			switch k {
			case "INPUT_PATH":
				v = path
			case "INPUT_SARIF":
				v = sarifPath
			case "INPUT_FAIL_LEVEL":
				v = a.Inputs["fail-level"].Default
			case "INPUT_ARGS":
				v = a.Inputs["args"].Default
			}
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		_ = cmd.Run() // the exit code is read from GITHUB_OUTPUT
		outs, err := os.ReadFile(ghOut)
		if err != nil {
			t.Fatalf("no GITHUB_OUTPUT: %v", err)
		}
		sc := bufio.NewScanner(bytes.NewReader(outs))
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "exit-code="); ok {
				code = v
			}
		}
		if code == "" || cmd.ProcessState.ExitCode() != atoi(code) {
			t.Errorf("%s: step exit %d, exit-code output %q", path, cmd.ProcessState.ExitCode(), code)
		}
		b, err := os.ReadFile(sarifPath)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &sarif); err != nil {
			t.Fatalf("%s: SARIF is not JSON: %v\n%s", path, err, b)
		}
		return code, sarif
	}
	results := func(s map[string]any) int {
		runs, _ := s["runs"].([]any)
		if len(runs) != 1 {
			t.Fatalf("SARIF runs %v", s["runs"])
		}
		rs, _ := runs[0].(map[string]any)["results"].([]any)
		return len(rs)
	}
	code, s := run("testdata/cli/clean.conf")
	if code != "0" || s["version"] != "2.1.0" || results(s) != 0 {
		t.Errorf("clean: exit-code %s, version %v, %d results", code, s["version"], results(s))
	}
	code, s = run("testdata/examples/nginx.conf testdata/cli/clean.conf")
	if code != "1" || results(s) != 1 {
		t.Errorf("broken: exit-code %s, %d results", code, results(s))
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return -1
		}
		n = 10*n + int(c-'0')
	}
	return n
}

// TestDockerfile checks the image's shape: a Go build stage without cgo,
// then a distroless (or scratch) stage holding only the binary, run as
// the entry point; and a Go image no older than go.mod asks for.
func TestDockerfile(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	type stage struct {
		from  string
		lines []string
	}
	var stages []stage
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(line, "FROM ") {
			stages = append(stages, stage{from: strings.Fields(line)[1]})
			continue
		}
		if len(stages) == 0 {
			t.Fatalf("instruction before FROM: %q", line)
		}
		stages[len(stages)-1].lines = append(stages[len(stages)-1].lines, line)
	}
	if len(stages) != 2 {
		t.Fatalf("%d stages, want build and final", len(stages))
	}
	build, final := stages[0], stages[1]
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	goVer := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(gomod)
	if goVer == nil || !strings.HasPrefix(build.from, "golang:"+string(goVer[1])) {
		t.Errorf("build stage %q, go.mod wants go %s", build.from, goVer)
	}
	buildRun := strings.Join(build.lines, "\n")
	if !strings.Contains(buildRun, "CGO_ENABLED=0 go build") || !strings.Contains(buildRun, "./cmd/nginx-lint") ||
		!strings.Contains(buildRun, "-X main.version=") {
		t.Errorf("build stage:\n%s", buildRun)
	}
	if !strings.HasPrefix(final.from, "gcr.io/distroless/static") && final.from != "scratch" {
		t.Errorf("final stage from %q, want distroless/static or scratch", final.from)
	}
	var copies []string
	entry := ""
	for _, l := range final.lines {
		switch strings.Fields(l)[0] {
		case "COPY":
			copies = append(copies, l)
		case "ENTRYPOINT":
			entry = l
		case "RUN":
			t.Errorf("final stage runs %q: it has no shell", l)
		}
	}
	if len(copies) != 1 || !strings.HasPrefix(copies[0], "COPY --from=build ") {
		t.Fatalf("final stage copies %q, want the binary only", copies)
	}
	dst := strings.Fields(copies[0])[3]
	if entry != `ENTRYPOINT ["`+dst+`"]` {
		t.Errorf("entry point %q, binary copied to %q", entry, dst)
	}
}

// TestVetEverywhere vets the whole module, tests included, for each
// operating system released: a test that calls a Unix-only function
// (syscall.Mkfifo) without a build constraint compiles here and breaks
// "go test" for a contributor on Windows or macOS.
func TestVetEverywhere(t *testing.T) {
	requireDist(t)
	_, targets := releaseTargets(t)
	seen := map[string]bool{}
	for _, tg := range targets {
		if seen[tg[0]] || tg[0] == runtime.GOOS {
			continue
		}
		seen[tg[0]] = true
		t.Run(tg[0], func(t *testing.T) {
			cmd := exec.Command("go", "vet", "./...")
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "GOOS="+tg[0], "GOARCH="+tg[1], "CGO_ENABLED=0")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("GOOS=%s go vet ./...: %v\n%s", tg[0], err, out)
			}
		})
	}
}

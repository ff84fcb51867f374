package dist

import (
	"bytes"
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
	// Built as the release, the Docker image and the Action build it
	// (no cgo, -trimpath), which also lets TestActionLintStep's build
	// reuse the compiled packages: only the link differs.
	build := exec.Command("go", "build", "-trimpath", "-ldflags", "-X main.version=v9.8.7-stamp", "-o", bin, "./cmd/nginx-lint")
	build.Dir = root
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
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

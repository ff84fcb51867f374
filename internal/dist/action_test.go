package dist

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// action is the part of action.yml the tests check.
type action struct {
	Name   string `yaml:"name"`
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Value string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	ID    string            `yaml:"id"`
	Name  string            `yaml:"name"`
	If    string            `yaml:"if"`
	Uses  string            `yaml:"uses"`
	With  map[string]string `yaml:"with"`
	Shell string            `yaml:"shell"`
	Run   string            `yaml:"run"`
	Env   map[string]string `yaml:"env"`
}

func readAction(t *testing.T) action {
	t.Helper()
	var a action
	readYAML(t, "action.yml", &a)
	return a
}

// step returns the step with id, or the one that uses an action whose
// name starts with uses.
func (a action) step(t *testing.T, id, uses string) actionStep {
	t.Helper()
	for _, s := range a.Runs.Steps {
		if (id != "" && s.ID == id) || (uses != "" && strings.HasPrefix(s.Uses, uses)) {
			return s
		}
	}
	t.Fatalf("action.yml: no step %q%q", id, uses)
	return actionStep{}
}

var stepOutput = regexp.MustCompile(`steps\.([a-z-]+)\.outputs\.([a-z-]+)`)

// TestActionDefinition checks what action.yml promises: its inputs and
// outputs, each output written by the step it names, no expression
// pasted into a script, and the build cached under one key and path.
func TestActionDefinition(t *testing.T) {
	a := readAction(t)
	if a.Name == "" || a.Runs.Using != "composite" {
		t.Fatalf("name %q, using %q", a.Name, a.Runs.Using)
	}
	for _, in := range []string{"path", "sarif-file", "annotations", "fail-level", "args", "go-version"} {
		if _, ok := a.Inputs[in]; !ok {
			t.Errorf("no input %q", in)
		}
	}
	if a.Inputs["annotations"].Default != "true" || a.Inputs["sarif-file"].Default == "" {
		t.Errorf("annotations and SARIF are not both on by default: %+v", a.Inputs)
	}
	scripts := map[string]string{}
	for _, s := range a.Runs.Steps {
		if s.Run == "" {
			continue
		}
		scripts[s.ID] = s.Run
		if s.Shell == "" {
			t.Errorf("step %q: a composite run step needs a shell", s.ID)
		}
		// Inputs pasted into a script are shell injection; they must come
		// through env.
		if strings.Contains(s.Run, "${{") {
			t.Errorf("step %q interpolates an expression into its script", s.ID)
		}
	}
	for _, out := range []string{"sarif-file", "sarif-written", "exit-code", "installed", "executable"} {
		o, ok := a.Outputs[out]
		m := stepOutput.FindStringSubmatch(o.Value)
		if !ok || m == nil {
			t.Errorf("output %q: value %q", out, o.Value)
			continue
		}
		if !strings.Contains(scripts[m[1]], m[2]+"=") {
			t.Errorf("output %q: step %q does not write %q", out, m[1], m[2])
		}
	}
	// The cache: restored and saved under the locate step's key and path;
	// Go set up and the build run only when neither the release nor the
	// cache gave a binary; saved only after a build.
	restore, save := a.step(t, "", "actions/cache/restore@"), a.step(t, "", "actions/cache/save@")
	if restore.ID != "cache" || restore.With["key"] != save.With["key"] || restore.With["path"] != save.With["path"] ||
		!strings.Contains(restore.With["key"], "steps.locate.outputs.key") || !strings.Contains(restore.With["path"], "steps.locate.outputs.dir") {
		t.Errorf("cache restore %+v, save %+v", restore, save)
	}
	build, setup := a.step(t, "build", ""), a.step(t, "", "actions/setup-go@")
	for _, s := range []actionStep{build, setup, save} {
		if !strings.Contains(s.If, "steps.download.outputs.ok != 'true'") || !strings.Contains(s.If, "steps.cache.outputs.cache-hit != 'true'") {
			t.Errorf("step %q runs when a binary is there: if %q", s.Name, s.If)
		}
	}
	// The save step must not run after a failed build: no status function
	// (always(), failure()) in its condition, so success() applies.
	if strings.Contains(save.If, "()") || !strings.Contains(restore.If, "steps.download.outputs.ok != 'true'") {
		t.Errorf("save if %q, restore if %q", save.If, restore.If)
	}
	if !strings.Contains(build.Run, "go build") || !strings.Contains(build.Run, "./cmd/nginx-lint") {
		t.Errorf("build step: %q", build.Run)
	}
	lint := a.step(t, "lint", "")
	if !strings.Contains(lint.Run, "--format github") || !strings.Contains(lint.Run, `--output "sarif=`) {
		t.Errorf("the lint step does not write annotations and SARIF in one run:\n%s", lint.Run)
	}
}

// TestActionScriptsShellcheck runs shellcheck on every script of the
// Action, as bash with -eo pipefail runs it (GitHub's "shell: bash").
func TestActionScriptsShellcheck(t *testing.T) {
	if _, err := exec.LookPath("shellcheck"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("shellcheck is missing under CI=true (.ci/run installs it)")
		}
		t.Skip("skipping: shellcheck is not installed (apt-get install shellcheck)")
	}
	a := readAction(t)
	dir := t.TempDir()
	n := 0
	for _, s := range a.Runs.Steps {
		if s.Run == "" {
			continue
		}
		n++
		p := filepath.Join(dir, s.ID+".sh")
		if err := os.WriteFile(p, []byte("#!/bin/bash\nset -eo pipefail\n"+s.Run), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command("shellcheck", "--severity=info", p).CombinedOutput(); err != nil {
			t.Errorf("step %q: shellcheck: %v\n%s", s.Name, err, out)
		}
	}
	if n < 4 {
		t.Errorf("%d scripts checked", n)
	}
}

// runner runs the Action's scripts as a GitHub runner would: bash with
// -eo pipefail, the step's environment, RUNNER_* and GITHUB_OUTPUT.
type runner struct {
	t    *testing.T
	temp string // RUNNER_TEMP
}

func newRunner(t *testing.T) *runner {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("skipping: no bash to run the Action's steps")
	}
	return &runner{t: t, temp: t.TempDir()}
}

// stepRun is one run of a step: its standard output, the outputs it
// wrote and its exit code.
type stepRun struct {
	stdout  string
	outputs map[string]string
	code    int
}

func (r *runner) run(s actionStep, dir string, env map[string]string) stepRun {
	r.t.Helper()
	ghOut := filepath.Join(r.temp, "github-output")
	os.Remove(ghOut)
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", s.Run)
	cmd.Dir = dir
	arch := map[string]string{"amd64": "X64", "arm64": "ARM64"}[runtime.GOARCH]
	cmd.Env = append(os.Environ(), "RUNNER_TEMP="+r.temp, "GITHUB_OUTPUT="+ghOut, "RUNNER_OS=Linux", "RUNNER_ARCH="+arch)
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	_ = cmd.Run()
	res := stepRun{stdout: stdout.String(), outputs: map[string]string{}, code: cmd.ProcessState.ExitCode()}
	if b, err := os.ReadFile(ghOut); err == nil {
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), "="); ok {
				res.outputs[k] = v
			}
		}
	}
	if stderr.Len() > 0 {
		r.t.Logf("step %q stderr:\n%s", s.Name, stderr.String())
	}
	return res
}

// TestActionLocateStep: the ref and repository come from the checkout's
// path when GitHub leaves them empty; only an exact release tag is one
// to download; the cache key follows the Go source and module files and
// nothing else.
func TestActionLocateStep(t *testing.T) {
	a := readAction(t)
	locate := a.step(t, "locate", "")
	r := newRunner(t)
	actions := filepath.Join(t.TempDir(), "_actions", "nginx-lint", "nginx-lint")
	write := func(dir, name, text string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tree := func(ref string) string {
		dir := filepath.Join(actions, ref)
		write(dir, "go.mod", "module x\n")
		write(dir, "go.sum", "")
		write(dir, "cmd/nginx-lint/main.go", "package main\n")
		write(dir, "cmd/nginx-lint/main_test.go", "package main\n")
		write(dir, "README.md", "x\n")
		write(dir, "parser/testdata/a.go", "x\n")
		write(dir, "editors/vscode/x.go", "x\n")
		return dir
	}
	locateIn := func(dir string, env map[string]string) map[string]string {
		t.Helper()
		e := map[string]string{"ACTION_PATH": dir, "ACTION_REF": "", "ACTION_REPOSITORY": "", "GO_VERSION": "1.26"}
		for k, v := range env {
			e[k] = v
		}
		res := r.run(locate, dir, e)
		if res.code != 0 {
			t.Fatalf("locate step exit %d", res.code)
		}
		return res.outputs
	}

	release := tree("v1.2.3")
	out := locateIn(release, nil)
	arch := map[string]string{"amd64": "X64", "arm64": "ARM64"}[runtime.GOARCH]
	if out["tag"] != "v1.2.3" || out["repository"] != "nginx-lint/nginx-lint" ||
		out["exe"] != filepath.Join(r.temp, "nginx-lint-bin", "nginx-lint") || out["dir"] != filepath.Join(r.temp, "nginx-lint-bin") ||
		!regexp.MustCompile(`^nginx-lint-Linux-`+arch+`-go1\.26-[0-9a-f]{20}$`).MatchString(out["key"]) {
		t.Fatalf("release tag checkout: %v", out)
	}
	key := out["key"]
	// Tests, docs, test data and the editors do not change the binary.
	for _, f := range []string{"cmd/nginx-lint/main_test.go", "README.md", "parser/testdata/a.go", "editors/vscode/x.go"} {
		write(release, f, "changed\n")
		if got := locateIn(release, nil)["key"]; got != key {
			t.Errorf("editing %s changed the key", f)
		}
	}
	// The source and the module files do.
	for _, f := range []string{"cmd/nginx-lint/main.go", "go.sum", "parser/new.go"} {
		write(release, f, "changed "+f+"\n")
		got := locateIn(release, nil)["key"]
		if got == key {
			t.Errorf("editing %s left the key %s", f, key)
		}
		key = got
	}
	if got := locateIn(release, map[string]string{"GO_VERSION": "1.27"})["key"]; !strings.Contains(got, "-go1.27-") {
		t.Errorf("Go version not in the key: %s", got)
	}

	for _, tc := range []struct {
		ref, envRef, envRepo, tag, repo string
	}{
		{"main", "", "", "", "nginx-lint/nginx-lint"},
		{"v1", "", "", "", "nginx-lint/nginx-lint"},
		{"v2.0.0-rc.1", "", "", "v2.0.0-rc.1", "nginx-lint/nginx-lint"},
		{"0123456789abcdef0123456789abcdef01234567", "", "", "", "nginx-lint/nginx-lint"},
		// GitHub's values win when it gives them.
		{"v1.2.3", "v1.4.0", "me/fork", "v1.4.0", "me/fork"},
	} {
		out := locateIn(tree(tc.ref), map[string]string{"ACTION_REF": tc.envRef, "ACTION_REPOSITORY": tc.envRepo})
		if out["tag"] != tc.tag || out["repository"] != tc.repo {
			t.Errorf("ref %s (GitHub: %q %q): tag %q repository %q, want %q %q", tc.ref, tc.envRef, tc.envRepo, out["tag"], out["repository"], tc.tag, tc.repo)
		}
	}
	// A Windows runner's path has backslashes. Here it is one directory
	// name, relative to the step's working directory, so that the step
	// can enter it.
	winParent := t.TempDir()
	winPath := `D:\a\_actions\nginx-lint\nginx-lint\v1.2.3`
	write(filepath.Join(winParent, winPath), "go.mod", "module x\n")
	if res := r.run(locate, winParent, map[string]string{"ACTION_PATH": winPath, "ACTION_REF": "", "ACTION_REPOSITORY": "", "GO_VERSION": "1.26"}); res.code != 0 ||
		res.outputs["tag"] != "v1.2.3" || res.outputs["repository"] != "nginx-lint/nginx-lint" {
		t.Errorf("Windows path: exit %d, %v", res.code, res.outputs)
	}

	// A local action (uses: ./) is no release: it is built. GitHub gives
	// the action's path absolute.
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	if out := locateIn(abs, nil); out["tag"] != "" || !strings.Contains(out["key"], "-go1.26-") {
		t.Errorf("this checkout: %v", out)
	}
}

// TestActionDownloadStep serves a release as GitHub does (archive and
// checksums.txt under /OWNER/REPO/releases/download/TAG/) and runs the
// download step against it: a matching archive gives the binary; a
// tampered one, a missing one, or a binary of another version give
// nothing (the build takes over), and the step never fails.
func TestActionDownloadStep(t *testing.T) {
	for _, tool := range []string{"curl", "tar"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is missing under CI=true (.ci/run installs it)", tool)
			}
			t.Skipf("skipping: no %s for the download step", tool)
		}
	}
	a := readAction(t)
	download := a.step(t, "download", "")
	arch := runtime.GOARCH
	if arch != "amd64" && arch != "arm64" {
		t.Skipf("skipping: no release for %s", arch)
	}
	name := "nginx-lint_1.2.3_linux_" + arch + ".tar.gz"
	archive := func(version string) []byte {
		var buf bytes.Buffer
		gz := gzip.NewWriter(&buf)
		tw := tar.NewWriter(gz)
		for _, f := range []struct{ name, text string }{
			{"LICENSE", "x\n"},
			// A stand-in binary: the step runs it for its version.
			{"nginx-lint", "#!/bin/sh\necho 'nginx-lint " + version + " (test)'\n"},
		} {
			if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: 0o755, Size: int64(len(f.text))}); err != nil {
				t.Fatal(err)
			}
			if _, err := tw.Write([]byte(f.text)); err != nil {
				t.Fatal(err)
			}
		}
		if err := tw.Close(); err != nil {
			t.Fatal(err)
		}
		if err := gz.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	type release struct{ archive, checksums []byte }
	var served *release
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		prefix := "/nginx-lint/nginx-lint/releases/download/v1.2.3/"
		switch {
		case served == nil:
			http.NotFound(w, req)
		case req.URL.Path == prefix+name:
			w.Write(served.archive)
		case req.URL.Path == prefix+"checksums.txt":
			w.Write(served.checksums)
		default:
			http.NotFound(w, req)
		}
	}))
	defer srv.Close()
	checksums := func(b []byte) []byte {
		sum := sha256.Sum256(b)
		return fmt.Appendf(nil, "%s  nginx-lint_1.2.3_darwin_arm64.tar.gz\n%s  %s\n", strings.Repeat("0", 64), hex.EncodeToString(sum[:]), name)
	}

	r := newRunner(t)
	dir := filepath.Join(r.temp, "nginx-lint-bin")
	exe := filepath.Join(dir, "nginx-lint")
	env := map[string]string{"TAG": "v1.2.3", "REPOSITORY": "nginx-lint/nginx-lint", "DIR": dir, "EXE": exe, "GITHUB_SERVER_URL": srv.URL}
	good := archive("1.2.3")
	for _, tc := range []struct {
		name string
		rel  *release
		ok   bool
	}{
		{"the release", &release{good, checksums(good)}, true},
		{"a tampered archive", &release{archive("1.2.3"), checksums(append(slices.Clone(good), 0))}, false},
		{"no release", nil, false},
		{"another version inside", &release{archive("9.9.9"), checksums(archive("9.9.9"))}, false},
	} {
		os.RemoveAll(dir)
		served = tc.rel
		res := r.run(download, r.temp, env)
		if res.code != 0 {
			t.Errorf("%s: the step failed (exit %d): it must fall back to the build", tc.name, res.code)
		}
		_, err := os.Stat(exe)
		if got := res.outputs["ok"] == "true"; got != tc.ok || (err == nil) != tc.ok {
			t.Errorf("%s: ok=%q, binary there: %v; want %v\n%s", tc.name, res.outputs["ok"], err == nil, tc.ok, res.stdout)
		}
	}
}

// TestActionLintStep builds nginx-lint with the Action's build step, then
// runs its lint step as the runner would: annotations on stdout and the
// SARIF file from one run; the readable report in a log group with
// workflow commands stopped around it; outputs that say whether a SARIF
// was written, which it is not on a usage error (exit 3), a stale one
// removed.
func TestActionLintStep(t *testing.T) {
	a := readAction(t)
	r := newRunner(t)
	exe := filepath.Join(r.temp, "nginx-lint-bin", "nginx-lint")
	if res := r.run(a.step(t, "build", ""), root, map[string]string{"EXE": exe}); res.code != 0 {
		t.Fatalf("the build step failed: exit %d", res.code)
	}
	lint := a.step(t, "lint", "")
	sarifPath := filepath.Join(r.temp, "out.sarif")
	type run struct {
		stepRun
		sarif map[string]any
	}
	// lintWith runs the step on path with the inputs' defaults but for
	// inputs. The SARIF file is removed first, unless stale: a report
	// left by an earlier run.
	lintWith := func(path string, inputs map[string]string, stale ...bool) run {
		t.Helper()
		if len(stale) == 0 {
			os.Remove(sarifPath)
		}
		env := map[string]string{"NGINX_LINT": exe, "INSTALLED": "build"}
		for k := range lint.Env {
			switch k {
			case "INPUT_PATH":
				env[k] = path
			case "INPUT_SARIF":
				env[k] = sarifPath
			case "INPUT_ANNOTATIONS":
				env[k] = a.Inputs["annotations"].Default
			case "INPUT_FAIL_LEVEL":
				env[k] = a.Inputs["fail-level"].Default
			case "INPUT_ARGS":
				env[k] = a.Inputs["args"].Default
			}
		}
		for k, v := range inputs {
			env[k] = v
		}
		res := run{stepRun: r.run(lint, root, env)}
		if code := res.outputs["exit-code"]; code != fmt.Sprint(res.code) {
			t.Errorf("%s: step exit %d, exit-code output %q", path, res.code, code)
		}
		if res.outputs["installed"] != "build" {
			t.Errorf("%s: installed %q", path, res.outputs["installed"])
		}
		written := res.outputs["sarif-written"] == "true"
		if b, err := os.ReadFile(sarifPath); err == nil {
			if !written || res.outputs["sarif-file"] != env["INPUT_SARIF"] {
				t.Errorf("%s: a SARIF file is there, outputs %v", path, res.outputs)
			}
			if err := json.Unmarshal(b, &res.sarif); err != nil {
				t.Errorf("%s: SARIF is not JSON: %v", path, err)
			}
		} else if written || res.outputs["sarif-file"] != "" {
			t.Errorf("%s: no SARIF file, outputs %v", path, res.outputs)
		}
		return res
	}
	results := func(s map[string]any) []string {
		runs, _ := s["runs"].([]any)
		if len(runs) != 1 {
			t.Fatalf("SARIF runs %v", s["runs"])
		}
		var ids []string
		rs, _ := runs[0].(map[string]any)["results"].([]any)
		for _, r := range rs {
			ids = append(ids, fmt.Sprint(r.(map[string]any)["ruleId"]))
		}
		return ids
	}

	res := lintWith("testdata/cli/clean.conf", nil)
	if res.code != 0 || res.sarif["version"] != "2.1.0" || len(results(res.sarif)) != 0 || strings.Contains(res.stdout, "::error") || strings.Contains(res.stdout, "::group::") {
		t.Errorf("clean: exit %d, SARIF %v\n%s", res.code, res.sarif["version"], res.stdout)
	}

	res = lintWith("testdata/examples/nginx.conf testdata/cli/clean.conf", nil)
	annotation := "::error file=testdata/examples/nginx.conf,line=18,col=9,"
	if res.code != 1 || !slices.Equal(results(res.sarif), []string{"NL1001"}) || !strings.Contains(res.stdout, annotation) {
		t.Errorf("broken: exit %d, results %v\n%s", res.code, results(res.sarif), res.stdout)
	}
	log := stoppedCommands(t, res.stdout)
	if !strings.Contains(log, "testdata/examples/nginx.conf:18:9: error: unexpected \"}\"") || !strings.Contains(res.stdout, "::group::") {
		t.Errorf("broken: no readable report in the log:\n%s", res.stdout)
	}

	// The defaults block exactly what the command line's default blocks:
	// a directive no module defines (nginx refuses it) fails the step, a
	// warning alone is annotated and passes.
	dir := t.TempDir()
	for _, c := range []struct {
		name, conf, annotation string
		want                   int
	}{
		{"unknown.conf", "events {}\nhttp {\n    server {\n        frobnicate on;\n    }\n}\n", "::error file=", 1},
		{"warning.conf", "events {}\nhttp {\n    server {\n        ssl_protocols TLSv1 TLSv1.2;\n    }\n}\n", "::warning file=", 0},
	} {
		conf := filepath.Join(dir, c.name)
		if err := os.WriteFile(conf, []byte(c.conf), 0o644); err != nil {
			t.Fatal(err)
		}
		res := lintWith(conf, nil)
		cli := exec.Command(exe, conf)
		cli.Run()
		if res.code != c.want || cli.ProcessState.ExitCode() != c.want || !strings.Contains(res.stdout, c.annotation) {
			t.Errorf("%s: the step exits %d, the command line %d, want %d and a %q annotation\n%s",
				c.name, res.code, cli.ProcessState.ExitCode(), c.want, c.annotation, res.stdout)
		}
	}

	// Without annotations: the report in the log only, SARIF as before.
	res = lintWith("testdata/examples/nginx.conf", map[string]string{"INPUT_ANNOTATIONS": "false"})
	if res.code != 1 || len(results(res.sarif)) != 1 || strings.Contains(commandsOutside(res.stdout), "::error file=") ||
		!strings.Contains(stoppedCommands(t, res.stdout), "nginx.conf:18:9: error") {
		t.Errorf("annotations false: exit %d\n%s", res.code, res.stdout)
	}

	// No sarif-file: annotations alone (a repository without code scanning).
	res = lintWith("testdata/examples/nginx.conf", map[string]string{"INPUT_SARIF": ""})
	if res.code != 1 || res.sarif != nil || !strings.Contains(res.stdout, annotation) {
		t.Errorf("no SARIF: exit %d, outputs %v\n%s", res.code, res.outputs, res.stdout)
	}

	// An unreadable path (exit 2): the SARIF says so.
	res = lintWith("testdata/cli/no-such.conf", nil)
	if res.code != 2 || !slices.Equal(results(res.sarif), []string{"NL1005"}) || !strings.Contains(res.stdout, "::error title=nginx-lint::an input could not be read") {
		t.Errorf("unreadable: exit %d, outputs %v\n%s", res.code, res.outputs, res.stdout)
	}

	// A usage error (exit 3): no SARIF, and a stale one is gone.
	if err := os.WriteFile(sarifPath, []byte(`{"stale": true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	res = lintWith("testdata/cli/clean.conf", map[string]string{"INPUT_ARGS": "--no-such-flag"}, true)
	if res.code != 3 || res.sarif != nil || res.outputs["sarif-written"] != "false" || !strings.Contains(res.stdout, "::error title=nginx-lint::nginx-lint did not lint (exit 3)") {
		t.Errorf("usage error: exit %d, outputs %v\n%s", res.code, res.outputs, res.stdout)
	}

	// A configuration line that reads as a workflow command is echoed
	// only while commands are stopped.
	conf := filepath.Join(dir, "inject.conf")
	if err := os.WriteFile(conf, []byte("events {}\n::warning::injected;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res = lintWith(conf, map[string]string{"INPUT_FAIL_LEVEL": "none"})
	if res.code != 0 || !strings.Contains(stoppedCommands(t, res.stdout), "::warning::injected;") {
		t.Errorf("injection: exit %d\n%s", res.code, res.stdout)
	}
	for _, line := range strings.Split(commandsOutside(res.stdout), "\n") {
		if strings.HasPrefix(strings.TrimLeft(line, " \t"), "::warning::") {
			t.Errorf("a line of the configuration reached the log as a command: %q", line)
		}
	}
}

var stopCommands = regexp.MustCompile(`(?m)^::stop-commands::(\S+)$`)

// stoppedCommands returns what the log holds between ::stop-commands::T
// and ::T::, the lines GitHub does not read as commands; the test fails
// when the token does not come back.
func stoppedCommands(t *testing.T, log string) string {
	t.Helper()
	m := stopCommands.FindStringSubmatchIndex(log)
	if m == nil {
		t.Errorf("no ::stop-commands:: in the log:\n%s", log)
		return ""
	}
	token := log[m[2]:m[3]]
	if len(token) < 20 {
		t.Errorf("stop-commands token %q is short enough to guess", token)
	}
	rest := log[m[1]:]
	end := strings.Index(rest, "\n::"+token+"::\n")
	if end < 0 {
		t.Errorf("commands are not resumed with ::%s::", token)
		return rest
	}
	return rest[:end]
}

// commandsOutside returns the log without what lies between stop and
// resume, the lines GitHub reads as commands.
func commandsOutside(log string) string {
	var b strings.Builder
	for {
		m := stopCommands.FindStringSubmatchIndex(log)
		if m == nil {
			b.WriteString(log)
			return b.String()
		}
		b.WriteString(log[:m[0]])
		rest := log[m[1]:]
		end := strings.Index(rest, "\n::"+log[m[2]:m[3]]+"::\n")
		if end < 0 {
			return b.String()
		}
		log = rest[end+1:]
	}
}

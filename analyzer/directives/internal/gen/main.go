// Command gen writes analyzer/directives/tables_gen.go from the nginx
// directive and variable TSV files in nginx-lint's shared data directory
// and from handlers.tsv, the set handler of each directive.
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
//
// handlers.tsv is regenerated first when source checkouts are given
// (offline: plain directories, such as git archive output):
//
//	go run ./analyzer/directives/internal/gen -nginx-src DIR [-nginx-git GITDIR] \
//	    [-njs-src DIR] [-lua-src DIR] [-headers-more-src DIR]
//
// The tables of third-party modules (modules.tsv and modvars.tsv beside
// handlers.tsv) are regenerated when -modules-src names a directory whose
// subdirectories are module source checkouts, each named owner+repo after
// its GitHub repository (echo-nginx-module as openresty+echo-nginx-module):
//
//	go run ./analyzer/directives/internal/gen -modules-src DIR
//
// The modules DIR holds replace their rows; the rows of the others stay,
// so DIR may hold only the checkouts that changed (NDK, for its
// upstream_list).
//
// -nginx-git names a git repository of nginx with its release tags (a
// bare mirror will do); the history of each handler's kind and values is
// then read from every release since 1.0.0, so that the tables say from
// which version a value (server_tokens build) is accepted. The
// environment variable NGINX_SRC stands in for -nginx-src.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/directives/internal/tablegen"
)

func main() {
	data := flag.String("data", "../shared/data", "directory holding the nginx-*.tsv files")
	out := flag.String("out", "analyzer/directives/tables_gen.go", "file to write")
	handlers := flag.String("handlers", "", "handlers file to read and, with -nginx-src, write (default: handlers.tsv beside -out)")
	nginxSrc := flag.String("nginx-src", os.Getenv("NGINX_SRC"), "nginx source checkout to read handlers from")
	nginxGit := flag.String("nginx-git", "", "nginx git repository with release tags, for the version history")
	njsSrc := flag.String("njs-src", "", "njs source checkout")
	luaSrc := flag.String("lua-src", "", "lua-nginx-module source checkout")
	hmSrc := flag.String("headers-more-src", "", "headers-more-nginx-module source checkout")
	modSrc := flag.String("modules-src", "", "directory of third-party module checkouts (owner+repo/), for modules.tsv and modvars.tsv")
	flag.Parse()
	if flag.NArg() != 0 {
		fail(fmt.Errorf("unexpected arguments: %v", flag.Args()))
	}
	if *handlers == "" {
		*handlers = filepath.Join(filepath.Dir(*out), tablegen.HandlersFile)
	}

	if *nginxSrc != "" {
		if err := scan(*handlers, *nginxSrc, *nginxGit, *njsSrc, *luaSrc, *hmSrc, *modSrc); err != nil {
			fail(err)
		}
	}

	if *modSrc != "" {
		if err := scanModules(filepath.Dir(*handlers), *modSrc, *data); err != nil {
			fail(err)
		}
	}

	src, err := tablegen.Generate(*data, *handlers)
	if err != nil {
		fail(err)
	}
	writeIfChanged(*out, src)
}

// scan reads the handlers of every source tree given and writes the
// handlers file. Modules of different trees never share a name, so the
// rows are simply concatenated.
func scan(path, nginxSrc, nginxGit, njs, lua, hm, modSrc string) error {
	var comments []string
	var all []*tablegen.Handler
	var nginxRows []*tablegen.Handler
	type source struct{ label, dir string }
	sources := []source{
		{"github.com/nginx/nginx", nginxSrc}, {"github.com/nginx/njs", njs},
		{"github.com/openresty/lua-nginx-module", lua}, {"github.com/openresty/headers-more-nginx-module", hm},
	}
	// The other third-party modules' commands get their handler kinds
	// too, so that their values and duplicates are checked as nginx's
	// slots check them.
	if modSrc != "" {
		ents, err := os.ReadDir(modSrc)
		if err != nil {
			return err
		}
		for _, e := range ents {
			if e.IsDir() && strings.Contains(e.Name(), "+") {
				sources = append(sources, source{"github.com/" + strings.Replace(e.Name(), "+", "/", 1), filepath.Join(modSrc, e.Name())})
			}
		}
	}
	for _, s := range sources {
		if s.dir == "" {
			continue
		}
		hs, err := tablegen.ScanDir(s.dir)
		if err != nil {
			return err
		}
		if s.dir == nginxSrc {
			nginxRows = hs
		}
		all = append(all, hs...)
		comments = append(comments, fmt.Sprintf("%s %s: %d commands", s.label, revision(s.dir), len(hs)))
	}
	var since map[string]*tablegen.Since
	if nginxGit != "" {
		var err error
		if since, err = tablegen.History(nginxGit, "1.0.0", nginxRows); err != nil {
			return err
		}
		comments = append(comments, "kind_since and value@version: first nginx release (of the release-X.Y.Z tags from 1.0.0 on) from which the handler kind or value holds")
	}
	comments = append(comments, "generated by go run ./analyzer/directives/internal/gen -nginx-src ...; kinds are the ngx_conf_set_*_slot handlers, custom for any other")
	writeIfChanged(path, tablegen.WriteHandlers(comments, all, since))
	return nil
}

// scanModules reads every module checkout under src and writes the
// third-party tables into dir, leaving out the directives the shared
// tables in data already have.
func scanModules(dir, src, data string) error {
	ents, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	known, err := tablegen.SharedKeys(data)
	if err != nil {
		return err
	}
	var sources []string
	var scans []*tablegen.ModuleScan
	for _, e := range ents {
		if !e.IsDir() || !strings.Contains(e.Name(), "+") {
			continue
		}
		tree := filepath.Join(src, e.Name())
		s, err := tablegen.ScanModule(tree)
		if err != nil {
			return fmt.Errorf("%s: %v", e.Name(), err)
		}
		if len(s.Directives) == 0 && len(s.Variables) == 0 {
			continue
		}
		scans = append(scans, s)
		sources = append(sources, fmt.Sprintf("github.com/%s %s: %d commands, %d variables",
			strings.Replace(e.Name(), "+", "/", 1), revision(tree), len(s.Directives), len(s.Variables)))
	}
	return tablegen.WriteModules(dir, sources, scans, known)
}

// revision names the tree: the commit when dir is a git checkout, a
// REVISION file's first line when there is one, else the directory name.
func revision(dir string) string {
	if out, err := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output(); err == nil {
		return "commit " + strings.TrimSpace(string(out))
	}
	if b, err := os.ReadFile(filepath.Join(dir, "REVISION")); err == nil {
		return "commit " + strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0])
	}
	return filepath.Base(dir)
}

func writeIfChanged(path string, data []byte) {
	// Leave an unchanged file alone so that its modification time does
	// not make build tools think something changed.
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gen:", err)
	os.Exit(1)
}

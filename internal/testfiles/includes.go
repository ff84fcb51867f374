package testfiles

import (
	"fmt"
	"strings"
)

// IncludeFanOut is a configuration of n files under c/ that each include
// c/*.conf (every one of them, itself included) and set one directive,
// included from http in nginx.conf: a few hundred bytes whose paths
// without a repeated file number n factorial. nginx recurses until it
// runs out of stack or of open files; each file's second server_tokens is
// a duplicate. Names are relative to the directory they are written to.
func IncludeFanOut(n int) map[string]string {
	files := map[string]string{"nginx.conf": "events {}\nhttp {\n    include c/*.conf;\n}\n"}
	for i := 1; i <= n; i++ {
		files[fmt.Sprintf("c/f%03d.conf", i)] = "include c/*.conf;\nserver_tokens off;\n"
	}
	return files
}

// IncludeChain is a configuration whose http block includes l1/*.conf,
// each of the width files of level k including the width files of level
// k+1, depth levels deep; the files of the last level hold a comment.
// nginx reads the last level width^depth times (eight levels of ten: a
// hundred million file reads, for hours).
func IncludeChain(depth, width int) map[string]string {
	files := map[string]string{"nginx.conf": "events {}\nhttp {\n    include l1/*.conf;\n}\n"}
	for l := 1; l <= depth; l++ {
		for i := range width {
			text := "# the last level\n"
			if l < depth {
				text = fmt.Sprintf("include l%d/*.conf;\n", l+1)
			}
			files[fmt.Sprintf("l%d/f%d.conf", l, i)] = text
		}
	}
	return files
}

// IncludeNest is a configuration whose http block includes d/f1.conf,
// which includes d/f2.conf, and so on to d/f<depth>.conf, which sets
// server_tokens: nginx holds every file of the chain open at once.
func IncludeNest(depth int) map[string]string {
	files := map[string]string{"nginx.conf": "events {}\nhttp {\n    include d/f1.conf;\n}\n"}
	for i := 1; i < depth; i++ {
		files[fmt.Sprintf("d/f%d.conf", i)] = fmt.Sprintf("include d/f%d.conf;\n", i+1)
	}
	files[fmt.Sprintf("d/f%d.conf", depth)] = "server_tokens off;\n"
	return files
}

// Under returns files with each name joined to dir with a slash (for an
// in-memory file system keyed by absolute path).
func Under(dir string, files map[string]string) map[string][]byte {
	out := make(map[string][]byte, len(files))
	for name, text := range files {
		out[strings.TrimSuffix(dir, "/")+"/"+name] = []byte(text)
	}
	return out
}

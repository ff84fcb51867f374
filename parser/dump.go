package parser

import (
	"bytes"
	"path/filepath"
	"strings"
)

// DumpFile is one file cut from "nginx -T" output.
type DumpFile struct {
	Path string
	Src  []byte
	// Line is the line of the dump where the file's text starts, so a
	// position in the file can be traced back to the dump.
	Line int
}

const dumpHeader = "# configuration file "

// SplitDump recognises "nginx -T" output — sections that each start with
// "# configuration file PATH:" — and cuts it into its files. Lines nginx
// writes to stderr ("nginx: the configuration file ... syntax is ok") are
// ignored when they come first. ok is false when src is not a dump.
func SplitDump(src []byte) (files []DumpFile, ok bool) {
	if !bytes.Contains(src, []byte(dumpHeader)) {
		// Not a dump (every caller asks, of every input): answered
		// without the copy of the text below.
		return nil, false
	}
	text := string(src)
	lineNo := 0
	var cur *DumpFile
	var body strings.Builder
	flush := func() {
		if cur != nil {
			// nginx -T ends every file with an empty line of its own.
			s := body.String()
			if strings.HasSuffix(s, "\n\n") {
				s = s[:len(s)-1]
			}
			cur.Src = []byte(s)
			files = append(files, *cur)
		}
		body.Reset()
	}
	for len(text) > 0 {
		lineNo++
		var line string
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i+1], text[i+1:]
		} else {
			line, text = text, ""
		}
		trimmed := strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(trimmed, dumpHeader) && strings.HasSuffix(trimmed, ":") {
			flush()
			path := strings.TrimSuffix(strings.TrimPrefix(trimmed, dumpHeader), ":")
			cur = &DumpFile{Path: filepath.Clean(path), Line: lineNo + 1}
			continue
		}
		if cur == nil {
			if strings.HasPrefix(trimmed, "nginx: ") || strings.TrimSpace(trimmed) == "" {
				continue
			}
			return nil, false
		}
		body.WriteString(line)
	}
	flush()
	return files, len(files) > 0
}

// LoadDump loads "nginx -T" output: the first file is the main
// configuration and includes resolve among the dumped files only, never
// against the disk of the machine running the linter.
func (l *Loader) LoadDump(name string, files []DumpFile) *Config {
	over := &Overlay{Files: map[string][]byte{}}
	for _, f := range files {
		over.Files[f.Path] = f.Src
	}
	dl := *l
	dl.FS = over
	if dl.Prefix == "" {
		dl.Prefix = filepath.Dir(files[0].Path)
	}
	c := dl.LoadSource(files[0].Path, files[0].Src, nil)
	for _, f := range c.Files {
		f.FromDump = name
	}
	l.Cache = dl.Cache
	return c
}

package tablegen

import (
	"archive/tar"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// HandlersFile is the name of the committed file that records the set
// handler of every directive, as ScanDir read it from the C sources. It
// sits next to tables_gen.go and is an input of Generate, so that the
// tables can be regenerated (and checked for staleness) without the
// sources.
const HandlersFile = "handlers.tsv"

// handlersHeader is the header line of the handlers file.
const handlersHeader = "name\tmodule\tkind\tkind_since\tvalues\tbounds\tpost"

// Source is one tree to scan: a label for the file's comment lines and
// the directory of the checkout.
type Source struct {
	Label, Dir string
}

// WriteHandlers renders handlers (already merged over all sources) as the
// handlers file. since maps name\tmodule to the history of a row (see
// History); it may be nil.
func WriteHandlers(comments []string, hs []*Handler, since map[string]*Since) []byte {
	var b bytes.Buffer
	for _, c := range comments {
		fmt.Fprintf(&b, "# %s\n", c)
	}
	b.WriteString(handlersHeader + "\n")
	for _, h := range hs {
		s := since[h.key()]
		var vals []string
		for _, v := range h.Values {
			if s != nil && s.Values[v] != "" {
				v += "@" + s.Values[v]
			}
			vals = append(vals, v)
		}
		kindSince := ""
		if s != nil {
			kindSince = s.Kind
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", h.Name, h.Module, h.Kind, kindSince, strings.Join(vals, " "), h.Bounds, h.Post)
	}
	return b.Bytes()
}

// handlerRow is one parsed row of the handlers file.
type handlerRow struct {
	kind, kindSince, bounds, post string
	values, valuesSince           []string
}

// readHandlers parses the handlers file into rows keyed by name\tmodule.
func readHandlers(path string) (map[string]*handlerRow, []string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	out := map[string]*handlerRow{}
	var comments []string
	header := false
	for i, line := range strings.Split(string(data), "\n") {
		switch {
		case line == "":
			continue
		case !header && strings.HasPrefix(line, "#"):
			comments = append(comments, strings.TrimSpace(strings.TrimPrefix(line, "#")))
			continue
		case !header:
			if line != handlersHeader {
				return nil, nil, fmt.Errorf("%s:%d: header is not %q", path, i+1, handlersHeader)
			}
			header = true
			continue
		}
		c := strings.Split(line, "\t")
		if len(c) != 7 {
			return nil, nil, fmt.Errorf("%s:%d: %d cells, want 7", path, i+1, len(c))
		}
		r := &handlerRow{kind: c[2], kindSince: c[3], bounds: c[5], post: c[6]}
		if _, ok := kindIdents[r.kind]; !ok {
			return nil, nil, fmt.Errorf("%s:%d: unknown kind %q", path, i+1, r.kind)
		}
		for _, v := range strings.Fields(c[4]) {
			v, s, _ := strings.Cut(v, "@")
			r.values = append(r.values, v)
			r.valuesSince = append(r.valuesSince, s)
		}
		if (r.kind == "enum" || r.kind == "bitmask") != (len(r.values) > 0) {
			return nil, nil, fmt.Errorf("%s:%d: kind %s with %d values", path, i+1, r.kind, len(r.values))
		}
		if r.bounds != "" {
			lo, hi, ok := strings.Cut(r.bounds, ":")
			_, e1 := strconv.ParseInt(lo, 10, 64)
			_, e2 := strconv.ParseInt(hi, 10, 64)
			if !ok || e1 != nil || e2 != nil {
				return nil, nil, fmt.Errorf("%s:%d: bounds %q", path, i+1, r.bounds)
			}
		}
		key := c[0] + "\t" + c[1]
		if out[key] != nil {
			return nil, nil, fmt.Errorf("%s:%d: %s %s listed twice", path, i+1, c[0], c[1])
		}
		out[key] = r
	}
	if !header {
		return nil, nil, fmt.Errorf("%s: no header line", path)
	}
	return out, comments, nil
}

// kindIdents maps the kind words to the directives package constants.
var kindIdents = map[string]string{
	"custom": "", "flag": "ValueFlag", "str": "ValueStr", "str_array": "ValueStrArray",
	"keyval": "ValueKeyval", "num": "ValueNum", "size": "ValueSize", "off": "ValueOff",
	"msec": "ValueMsec", "sec": "ValueSec", "bufs": "ValueBufs", "enum": "ValueEnum",
	"bitmask": "ValueBitmask", "path": "ValuePath", "access": "ValueAccess",
}

// valueExpr renders the ValueSpec of a directive row from the handler
// rows of its source modules, "" when the row has no source, when any
// module's handler is custom, or when the modules disagree.
func valueExpr(h map[string]*handlerRow, name string, modules []string) string {
	var first *handlerRow
	for _, m := range modules {
		r := h[name+"\t"+m]
		if r == nil || r.kind == "custom" {
			return ""
		}
		if first == nil {
			first = r
			continue
		}
		if r.kind != first.kind || strings.Join(r.values, " ") != strings.Join(first.values, " ") || r.bounds != first.bounds || r.post != first.post {
			return ""
		}
	}
	if first == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("&ValueSpec{")
	field(&b, "Kind", kindIdents[first.kind])
	field(&b, "Since", quote(first.kindSince))
	field(&b, "Values", stringList(first.values))
	for _, s := range first.valuesSince {
		if s != "" {
			field(&b, "ValuesSince", stringList(first.valuesSince))
			break
		}
	}
	if first.bounds != "" {
		lo, hi, _ := strings.Cut(first.bounds, ":")
		field(&b, "Low", lo)
		field(&b, "High", hi)
		field(&b, "Bounded", "true")
	}
	field(&b, "Post", quote(first.post))
	return strings.TrimSuffix(b.String(), ", ") + "}"
}

// Since is the history of one directive's handler over nginx's release
// tags: the first release from which its kind has been the current one,
// and for each enum or bitmask value the first release from which it has
// been accepted, when later than Kind ("" otherwise).
type Since struct {
	Kind   string
	Values map[string]string
}

var releaseTagRE = regexp.MustCompile(`^release-(\d+)\.(\d+)\.(\d+)$`)

// History scans the src/ tree of every release-X.Y.Z tag of the nginx
// git repository gitDir (a bare mirror will do) from minVersion on, and
// returns the Since of each current handler. Tags are taken in version
// order, so a value backported to a stable branch counts from the first
// version that has it with every later one.
func History(gitDir, minVersion string, current []*Handler) (map[string]*Since, error) {
	out, err := exec.Command("git", "--git-dir", gitDir, "tag", "-l", "release-*").Output()
	if err != nil {
		return nil, fmt.Errorf("git tag: %v", err)
	}
	type tag struct {
		name string
		v    [3]int
	}
	var tags []tag
	for _, t := range strings.Fields(string(out)) {
		m := releaseTagRE.FindStringSubmatch(t)
		if m == nil {
			continue
		}
		var v [3]int
		for i := range v {
			v[i], _ = strconv.Atoi(m[i+1])
		}
		tags = append(tags, tag{t, v})
	}
	sort.Slice(tags, func(i, j int) bool {
		a, b := tags[i].v, tags[j].v
		for k := range a {
			if a[k] != b[k] {
				return a[k] < b[k]
			}
		}
		return false
	})
	minV := "release-" + minVersion
	start := -1
	for i, t := range tags {
		if t.name == minV {
			start = i
		}
	}
	if start < 0 {
		return nil, fmt.Errorf("no tag %s in %s", minV, gitDir)
	}
	tags = tags[start:]

	res := map[string]*Since{}
	cur := map[string]*Handler{}
	for _, h := range current {
		cur[h.key()] = h
		res[h.key()] = &Since{Values: map[string]string{}}
	}
	for _, t := range tags {
		files, err := gitTree(gitDir, t.name, "src")
		if err != nil {
			return nil, err
		}
		hs, err := ScanFiles(files)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", t.name, err)
		}
		at := map[string]*Handler{}
		for _, h := range hs {
			at[h.key()] = h
		}
		version := strings.TrimPrefix(t.name, "release-")
		for key, h := range cur {
			s, old := res[key], at[key]
			if old == nil || old.Kind != h.Kind {
				// Not (yet) this kind: the kind, and every value, can
				// only hold from a later release.
				s.Kind = "next"
				for _, v := range h.Values {
					s.Values[v] = "next"
				}
				continue
			}
			if s.Kind == "next" {
				s.Kind = version
			}
			has := map[string]bool{}
			for _, v := range old.Values {
				has[v] = true
			}
			for _, v := range h.Values {
				switch {
				case !has[v]:
					s.Values[v] = "next"
				case s.Values[v] == "next":
					s.Values[v] = version
				}
			}
		}
	}
	for _, s := range res {
		if s.Kind == "next" {
			// Never seen in a release: newer than every tag. Leave it
			// to the directive's own since.
			s.Kind = ""
		}
		for v, ver := range s.Values {
			if ver == "next" || ver == s.Kind {
				delete(s.Values, v)
			}
		}
		if s.Kind == minVersion {
			// As old as the history goes: no version to state.
			s.Kind = ""
		}

	}
	return res, nil
}

// gitTree returns the .c files under dir at rev, via git archive.
func gitTree(gitDir, rev, dir string) (map[string]string, error) {
	cmd := exec.Command("git", "--git-dir", gitDir, "archive", "--format=tar", rev, dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git archive %s: %v: %s", rev, err, stderr.String())
	}
	files := map[string]string{}
	tr := tar.NewReader(bytes.NewReader(out))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if h.Typeflag != tar.TypeReg || !strings.HasSuffix(h.Name, ".c") {
			continue
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			return nil, err
		}
		files[h.Name] = string(data)
	}
	return files, nil
}

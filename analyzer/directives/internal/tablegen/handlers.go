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
const handlersHeader = "name\tmodule\tkind\tkind_since\tvalues\tbounds\tpost\tolder_kind\tolder_since\tolder_values\tolder_bounds"

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
		kindSince, older := "", "\t\t\t"
		if s != nil {
			kindSince = s.Kind
			if o := s.Older; o != nil {
				older = fmt.Sprintf("%s\t%s\t%s\t%s", o.Kind, s.OlderSince, strings.Join(o.Values, " "), o.Bounds)
			}
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", h.Name, h.Module, h.Kind, kindSince, strings.Join(vals, " "), h.Bounds, h.Post, older)
	}
	return b.Bytes()
}

// handlerRow is one parsed row of the handlers file.
type handlerRow struct {
	kind, kindSince, bounds, post string
	values, valuesSince           []string
	// older is the generic handler the directive had in the releases
	// before kindSince, nil when none.
	older *handlerRow
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
		if len(c) != 11 {
			return nil, nil, fmt.Errorf("%s:%d: %d cells, want 11", path, i+1, len(c))
		}
		r := &handlerRow{kind: c[2], kindSince: c[3], bounds: c[5], post: c[6]}
		for _, v := range strings.Fields(c[4]) {
			v, s, _ := strings.Cut(v, "@")
			r.values = append(r.values, v)
			r.valuesSince = append(r.valuesSince, s)
		}
		if err := r.check(); err != nil {
			return nil, nil, fmt.Errorf("%s:%d: %v", path, i+1, err)
		}
		if c[7] != "" {
			r.older = &handlerRow{kind: c[7], kindSince: c[8], values: strings.Fields(c[9]), bounds: c[10]}
			if err := r.older.check(); err != nil {
				return nil, nil, fmt.Errorf("%s:%d: older handler: %v", path, i+1, err)
			}
			if r.older.kind == "custom" || r.kindSince == "" {
				return nil, nil, fmt.Errorf("%s:%d: an older handler must be generic and precede a kind_since", path, i+1)
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

// check validates the cells of one handler.
func (r *handlerRow) check() error {
	if _, ok := kindIdents[r.kind]; !ok {
		return fmt.Errorf("unknown kind %q", r.kind)
	}
	if (r.kind == "enum" || r.kind == "bitmask") != (len(r.values) > 0) {
		return fmt.Errorf("kind %s with %d values", r.kind, len(r.values))
	}
	if r.bounds != "" {
		lo, hi, ok := strings.Cut(r.bounds, ":")
		_, e1 := strconv.ParseInt(lo, 10, 64)
		_, e2 := strconv.ParseInt(hi, 10, 64)
		if !ok || e1 != nil || e2 != nil {
			return fmt.Errorf("bounds %q", r.bounds)
		}
	}
	return nil
}

// kindIdents maps the kind words to the directives package constants.
var kindIdents = map[string]string{
	"custom": "", "flag": "ValueFlag", "str": "ValueStr", "str_array": "ValueStrArray",
	"keyval": "ValueKeyval", "num": "ValueNum", "size": "ValueSize", "off": "ValueOff",
	"msec": "ValueMsec", "sec": "ValueSec", "bufs": "ValueBufs", "enum": "ValueEnum",
	"bitmask": "ValueBitmask", "path": "ValuePath", "access": "ValueAccess",
}

// valueExpr renders the ValueSpec of a directive row from the handler
// rows of its source modules, "" when the row has no source, when its
// handler is custom and always was, or when the modules disagree.
func valueExpr(h map[string]*handlerRow, name string, modules []string) string {
	var first *handlerRow
	for _, m := range modules {
		r := h[name+"\t"+m]
		if r == nil {
			return ""
		}
		if first == nil {
			first = r
			continue
		}
		if specExpr(r) != specExpr(first) {
			return ""
		}
	}
	if first == nil {
		return ""
	}
	return specExpr(first)
}

// specExpr renders one handler row as a ValueSpec literal.
func specExpr(r *handlerRow) string {
	if r.kind == "custom" && r.older == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("&ValueSpec{")
	field(&b, "Kind", kindIdents[r.kind])
	field(&b, "Since", quote(r.kindSince))
	field(&b, "Values", stringList(r.values))
	for _, s := range r.valuesSince {
		if s != "" {
			field(&b, "ValuesSince", stringList(r.valuesSince))
			break
		}
	}
	if r.bounds != "" {
		lo, hi, _ := strings.Cut(r.bounds, ":")
		field(&b, "Low", lo)
		field(&b, "High", hi)
		field(&b, "Bounded", "true")
	}
	field(&b, "Post", quote(r.post))
	if r.older != nil {
		field(&b, "Older", specExpr(r.older))
	}
	return strings.TrimSuffix(b.String(), ", ") + "}"
}

// Since is the history of one directive's handler over nginx's release
// tags: the first release from which its kind has been the current one,
// and for each enum or bitmask value the first release from which it has
// been accepted, when later than Kind ("" otherwise).
type Since struct {
	Kind   string
	Values map[string]string
	// Older is the generic handler the directive had in the releases
	// just before Kind, from OlderSince on ("" for as old as the history);
	// nil when it had a custom handler or none.
	Older      *Handler
	OlderSince string
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

	type run struct {
		h    *Handler
		from string
	}
	runs := map[string][]run{}
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
			// Runs of one handler, for the older handler: a new run starts
			// when the kind or its words change.
			r := runs[key]
			if old != nil && (len(r) == 0 || r[len(r)-1].h == nil || !sameHandler(r[len(r)-1].h, old)) {
				runs[key] = append(r, run{old, version})
			} else if old == nil && len(r) > 0 && r[len(r)-1].h != nil {
				runs[key] = append(r, run{nil, version})
			}
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
	for key, s := range res {
		if s.Kind != "next" && s.Kind != "" {
			// The run just before the current kind's.
			r := runs[key]
			for i := len(r) - 1; i > 0; i-- {
				if r[i].from == s.Kind {
					if p := r[i-1]; p.h != nil && p.h.Kind != "custom" {
						s.Older = p.h
						if p.from != minVersion {
							s.OlderSince = p.from
						}
					}
					break
				}
			}
		}
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

package parser_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// TestModelDerivedViews checks that what the model reads again from the
// arguments (a location's spec and error, a name's classification, a
// listen's error) is what the grammar returns for them, on every form
// the grammar distinguishes, valid or not.
func TestModelDerivedViews(t *testing.T) {
	src := `http { server {
    listen 80;
    listen 127.0.0.1:99999;
    listen;
    listen 443 ssl backlog=0;
    listen [::1]:8443 ssl;
    server_name example.com *.Example.COM .x.org www.x.* ~^(?<a>.+)$ "" $HOSTNAME _ ~ * a/b W*W;
    location / {}
    location = /x {}
    location =/x {}
    location = {}
    location ^~ /p {}
    location ^~/p {}
    location ~ \.php$ {}
    location ~* \.PNG {}
    location ~*x {}
    location ~x {}
    location ~ {}
    location @n {}
    location = @n {}
    location "" {}
    location bad / {}
    location {}
    location a b c {}
} }`
	f := parser.ParseString("t.conf", src, &parser.Options{Kinds: analyzer.Kinds})
	m := parser.BuildModel(&parser.Config{Main: f, Files: []*parser.File{f}})
	if len(m.Servers) != 1 {
		t.Fatalf("%d servers", len(m.Servers))
	}
	s := m.Servers[0]
	if ls := s.Listens(); len(ls) != 5 {
		t.Errorf("%d listens, want 5", len(ls))
	}
	for _, l := range s.Listens() {
		want, wantErr := grammar.ParseListen(l.Directive.ArgValues())
		if got := l.Err(); fmt.Sprint(got) != fmt.Sprint(wantErr) || (l.Spec == nil) != (want == nil) {
			t.Errorf("listen %q: spec %v error %v, want spec %v error %v", l.Directive.ArgValues(), l.Spec, got, want, wantErr)
		}
		if l.Spec != nil && l.Spec.Key != want.Key {
			t.Errorf("listen %q: key %q, want %q", l.Directive.ArgValues(), l.Spec.Key, want.Key)
		}
	}
	names := s.Names()
	if len(names) != 12 {
		t.Errorf("%d names, want 12", len(names))
	}
	for i, n := range names {
		if got, want := n.Spec(), grammar.ParseServerName(n.Directive.Args()[n.Arg].Value); got != want || n.Arg != i {
			t.Errorf("name %d (arg %d): %+v, want %+v", i, n.Arg, got, want)
		}
	}
	locs := s.Locations()
	if len(locs) != 17 {
		t.Errorf("%d locations, want 17", len(locs))
	}
	bad := 0
	for i := range locs {
		l := &locs[i]
		want, err := grammar.ParseLocation(l.Directive.ArgValues())
		if got := l.Spec(); got != want {
			t.Errorf("location %q: %+v, want %+v", l.Directive.ArgValues(), got, want)
		}
		if got, want := l.Err(), grammar.AsError(err); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("location %q: error %v, want %v", l.Directive.ArgValues(), got, want)
		}
		if l.Err() != nil {
			bad++
		}
		// A Location made from its directive alone reads the same.
		if alone := (&parser.Location{Directive: l.Directive}); alone.Spec() != l.Spec() || fmt.Sprint(alone.Err()) != fmt.Sprint(l.Err()) {
			t.Errorf("location %q alone: %+v %v", l.Directive.ArgValues(), alone.Spec(), alone.Err())
		}
	}
	if bad != 3 {
		t.Errorf("%d invalid locations, want 3 (a modifier, no argument, three arguments)", bad)
	}
	// Reading them again is cheap only if it does not allocate: rules
	// read every location's and name's spec.
	if n := testing.AllocsPerRun(100, func() { _ = locs[2].Spec(); _ = locs[0].Err(); _ = names[0].Spec() }); n != 0 {
		t.Errorf("Location.Spec, Location.Err and ServerName.Spec allocate %v times, want 0", n)
	}
}

// TestModelNesting checks which locations and listens go where: nested
// locations include those of an included file and of an if, and a server
// misplaced inside a location keeps its own lists without taking or
// losing any of the enclosing server's.
func TestModelNesting(t *testing.T) {
	fs := &parser.Overlay{Files: map[string][]byte{
		"/n/nginx.conf": []byte(`http { server {
    listen 80;
    server_name a b;
    location /a {
        include loc.conf;
        if ($x) { location /a/if {} }
        server { listen 81; server_name inner; location /inner { location /inner/x {} } }
        location /a/z {}
    }
    include more.conf;
    location /b {}
} }`),
		"/n/loc.conf":  []byte("location /a/b { location /a/b/c {} }"),
		"/n/more.conf": []byte("listen 82; server_name c; location /more {}"),
	}}
	c, err := (&parser.Loader{FS: fs, Kinds: analyzer.Kinds}).Load("/n/nginx.conf")
	if err != nil {
		t.Fatal(err)
	}
	m := parser.BuildModel(c)
	var tree func(locs []parser.Location) string
	tree = func(locs []parser.Location) string {
		var parts []string
		for i := range locs {
			p := locs[i].Spec().Path
			if sub := locs[i].Locations(); len(sub) > 0 {
				p += "{" + tree(sub) + "}"
			}
			parts = append(parts, p)
		}
		return strings.Join(parts, " ")
	}
	var got []string
	for _, s := range m.Servers {
		var ls, ns []string
		for _, l := range s.Listens() {
			ls = append(ls, l.Spec.Key)
		}
		for _, n := range s.Names() {
			ns = append(ns, n.Spec().Name)
		}
		got = append(got, fmt.Sprintf("%s %s [%s]", strings.Join(ls, ","), strings.Join(ns, ","), tree(s.Locations())))
	}
	want := []string{
		"0.0.0.0:80,0.0.0.0:82 a,b,c [/a{/a/b{/a/b/c} /a/if /a/z} /more /b]",
		"0.0.0.0:81 inner [/inner{/inner/x}]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("model:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestModelSmallFile checks that the model of a small file is small: the
// language server keeps one per open file, and the slabs and stores
// start with small chunks (four 32 KiB chunks and a 32 KiB listen arena
// made 160 KiB for one server).
func TestModelSmallFile(t *testing.T) {
	src := "http { server { listen 80; server_name a; location / { location /x {} } location /y {} } }"
	f := parser.ParseString("t.conf", src, &parser.Options{Kinds: analyzer.Kinds})
	c := &parser.Config{Main: f, Files: []*parser.File{f}}
	live := func() int64 {
		// Twice: the first collection moves pools to their victim
		// caches, the second frees them.
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return int64(ms.HeapAlloc)
	}
	// The least of five builds: what else the process allocates
	// meanwhile (the test runner, the runtime's own buffers) can only
	// add to one measurement, and the model is the same each time.
	size := int64(-1)
	for range 5 {
		before := live()
		m := parser.BuildModel(c)
		n := live() - before
		if len(m.Servers) != 1 || len(m.Servers[0].Locations()) != 2 {
			t.Fatalf("model of %d servers", len(m.Servers))
		}
		runtime.KeepAlive(m)
		if size < 0 || n < size {
			size = n
		}
	}
	t.Logf("the model of a one-server file keeps %d bytes", size)
	if size > 8<<10 {
		t.Errorf("the model of a one-server file keeps %d bytes, want at most 8 KiB", size)
	}
}

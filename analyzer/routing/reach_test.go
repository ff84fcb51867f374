package routing_test

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/parser"
)

// serverLevel reads the first server of src with a Reader.
func serverLevel(t testing.TB, src string) *routing.Location {
	t.Helper()
	c := (&parser.Loader{Kinds: analyzer.Kinds, FS: &parser.Overlay{}}).LoadSource("/t/nginx.conf", []byte(src), nil)
	m := parser.BuildModel(c)
	return routing.NewReader(m).Server(m.Servers[0].Directive)
}

func names(ls []*routing.Location) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.String())
	}
	return out
}

// TestUnreachable: the locations no URI reaches, and who takes their
// URIs; those some URI reaches are left out.
func TestUnreachable(t *testing.T) {
	root := serverLevel(t, `http { server {
		location ~ /api { return 200; }
		location ~ /api/v1 { return 200; }
		location ~ \.css$ { return 200; }
		location ~ \.js$ { return 200; }
		location ~ \.(css|js)$ { return 200; }
		location ~* \.(CSS|JS)$ { return 200; }
		location ^~ /static/ { return 200; }
		location = /exact.png { return 200; }
		location ^~ /assets/ { return 200; }
		location ~ ^/static/.*\.png$ { return 200; }
		location ~ ^/(static|assets)/ { return 200; }
		location ~ ^/exact\.png$ { return 200; }
		location /v1/ { return 200; }
		location /api/v2/ { return 200; }
		location /apx/ { proxy_pass http://127.0.0.1:1; }
		location ~ ^/apx { return 200; }
		location /apy/ { location /apy/z/ { return 200; } }
		location ~ ^/apy { return 200; }
		location / { return 200; }
		location ~ ^/(a|b) { return 200; }
		location ~ ^/v1/x { return 200; }
	} }`)
	got := map[string]string{}
	for _, sh := range routing.NewSets().Unreachable(root) {
		got[sh.Location.String()] = strings.Join(append(names(sh.Regexes), names(sh.Stops)...), ", ")
	}
	want := map[string]string{
		`~ /api/v1`:            `~ /api`,
		`~ \.(css|js)$`:        `~ \.css$, ~ \.js$`,
		`~ ^/static/.*\.png$`:  `^~ /static/`,
		`~ ^/(static|assets)/`: `^~ /assets/, ^~ /static/`,
		`/api/v2/`:             `~ /api`,
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: taken by %q, want %q", k, got[k], v)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s reported unreachable (by %s)", k, got[k])
		}
	}
}

// TestExamplesAndElsewhere: the examples of a location reach it, and a
// prefix location's other URIs name the location that takes them.
func TestExamplesAndElsewhere(t *testing.T) {
	root := serverLevel(t, `http { server {
		location /api/ { return 200; }
		location ~ ^/api/v2/ { return 200; }
		location = /api/status { return 200; }
		location /img/ { location ~ \.png$ { return 200; } }
		location ~ \.php$ { return 200; }
		location / { return 200; }
	} }`)
	s := routing.NewSets()
	byName := map[string]*routing.Location{}
	root.Walk(func(l *routing.Location) { byName[l.String()] = l })
	for _, c := range []struct {
		loc   string
		n     int
		where string // the location Elsewhere names, "" for none
	}{
		{"/api/", 2, "~ ^/api/v2/"},
		{"~ ^/api/v2/", 2, ""},
		{"= /api/status", 1, ""},
		{"/img/", 2, "~ \\.php$"},
		{"~ \\.png$", 2, ""},
		{"/", 2, "~ \\.php$"},
	} {
		l := byName[c.loc]
		ex := s.Examples(l, 2)
		if len(ex) != c.n {
			t.Errorf("%s: examples %q, want %d", c.loc, ex, c.n)
		}
		for _, u := range ex {
			if got, _, _ := root.Find(u); got != l || !strings.HasPrefix(u, "/") || strings.Contains(u, "//") {
				t.Errorf("%s: example %q goes to %v", c.loc, u, got)
			}
		}
		if len(ex) == 2 && ex[0] == ex[1] {
			t.Errorf("%s: the same example twice", c.loc)
		}
		u, by, ok := s.Elsewhere(l)
		switch {
		case c.where == "" && ok && l.Spec.Modifier.String() != "=" && l.Regex() == nil:
			t.Errorf("%s: %q goes to %v", c.loc, u, by)
		case c.where != "" && (!ok || by.String() != c.where):
			t.Errorf("%s: elsewhere %q by %v (%v), want %s", c.loc, u, by, ok, c.where)
		case ok:
			if got, _, _ := root.Find(u); got != by || !strings.HasPrefix(u, l.Spec.Path) {
				t.Errorf("%s: %q goes to %v, not %v", c.loc, u, got, by)
			}
		}
	}
	if !slices.Contains(s.Examples(byName["= /api/status"], 2), "/api/status") {
		t.Error("the exact location's example is not its path")
	}
}

// TestLoops: the rewrite chains that always come back, and those that
// do not (a break, another location on the way, a regex that does not
// match the new URI, a rewrite behind an if, a URI that leaves the
// location).
func TestLoops(t *testing.T) {
	root := serverLevel(t, `http { server {
		location /a { rewrite ^ /b last; }
		location /b { set $x 1; rewrite ^/b /c last; }
		location /c { rewrite ^ /a; }
		location /download/ { rewrite ^/download/(.*)$ /download/files/$1 last; }
		location /dl/ { rewrite ^/dl/(.*)$ /dl/files/$1 break; }
		location /old/ { rewrite ^/old/(.*)$ /new/$1 last; }
		location /new/ { return 200; }
		location /img/ { rewrite ^/img/(.*)\.png$ /img/x/$1.png last; }
		location /p/ { if ($arg_x) { rewrite ^ /q last; } }
		location /q { rewrite ^/p /p/ last; }
		location / { rewrite ^ /index.php last; }
		location /api/ { rewrite ^/api/(.*)$ /api/v1/$1 last; }
		location /api/v1/ { return 200; }
	} }`)
	got := map[string]bool{}
	for _, lp := range routing.NewSets().Loops(root) {
		var b []string
		for _, st := range lp.Steps {
			b = append(b, st.Location.String()+" "+st.URI+st.Prefix)
		}
		got[strings.Join(b, " > ")] = true
	}
	want := map[string]bool{
		"/a /b > /b /c > /c /a":       true,
		"/download/ /download/files/": true,
		"/img/ /img/x/":               true, // every URI made ends in ".png" too
		"/ /index.php":                true,
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %v, want %v", k, got[k], v)
		}
	}
	if len(got) != 4 {
		t.Errorf("loops %v, want 4", got)
	}
}

// TestUnreachableLevelWork: each regex location is set against every
// earlier one, so a level's work grows with the square of its regexes
// (1000 of them took 25 s). Unreachable bounds it: the locations it
// decides within Sets.LevelWork keep their answers, the rest are left
// undecided, never reported.
func TestUnreachableLevelWork(t *testing.T) {
	var b strings.Builder
	b.WriteString("http { server {\n location ~ ^/a { return 200; }\n location ~ ^/a/b { return 200; }\n")
	for i := range 100 {
		b.WriteString(" location ~ ^/r" + strconv.Itoa(i) + "/(a|aa)+(b|bb)*c$ { return 200; }\n")
	}
	b.WriteString(" location ~ ^/a/c { return 200; }\n} }\n")
	root := serverLevel(t, b.String())
	for _, work := range []int{0, 20000} {
		s := routing.NewSets()
		s.LevelWork = work
		var got []string
		for _, sh := range s.Unreachable(root) {
			got = append(got, sh.Location.String())
		}
		// ~ ^/a/b is decided first, within any bound; ~ ^/a/c, after
		// 100 regexes, only within the default one.
		want := []string{`~ ^/a/b`}
		if work == 0 {
			want = append(want, `~ ^/a/c`)
		}
		if !slices.Equal(got, want) {
			t.Errorf("LevelWork %d: unreachable %q, want %q (%d steps)", work, got, want, s.Spent())
		}
		// The bound is checked before each search: one search more.
		if limit := cmp.Or(work, routing.LevelWork); s.Spent() > 2*limit {
			t.Errorf("LevelWork %d: %d steps", work, s.Spent())
		}
	}
}

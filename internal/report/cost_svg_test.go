package report

import (
	"encoding/xml"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
	"github.com/nginx-lint/nginx-lint/parser"
)

// svgElem is one element of a chart, with its class and text.
type svgElem struct {
	name, class, text string
	attrs             map[string]string
}

// parseSVG reads the chart as XML (failing on anything malformed) and
// lists its elements.
func parseSVG(t *testing.T, s string) []svgElem {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(s))
	var out []svgElem
	var open *svgElem
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not valid XML: %v\n%s", err, s)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			e := svgElem{name: tok.Name.Local, attrs: map[string]string{}}
			for _, a := range tok.Attr {
				e.attrs[a.Name.Local] = a.Value
			}
			e.class = e.attrs["class"]
			out = append(out, e)
			open = &out[len(out)-1]
		case xml.CharData:
			if open != nil {
				open.text += string(tok)
			}
		case xml.EndElement:
			open = nil
		}
	}
	if len(out) == 0 || out[0].name != "svg" {
		t.Fatalf("no svg root:\n%s", s)
	}
	return out
}

func costOf(t *testing.T, layoutName string, n int, p *costmodel.Profile) *costmodel.Result {
	t.Helper()
	l, err := layout.ParseName(layoutName)
	if err != nil {
		t.Fatal(err)
	}
	src := layout.Generate(layout.Options{Layout: l, N: n})
	c := (&parser.Loader{Kinds: analyzer.Kinds}).LoadSource("/x/nginx.conf", src, nil)
	return costmodel.Compute(parser.BuildModel(c), costmodel.Options{Profile: p})
}

// isRoundStep reports whether step is 1, 2 or 5 × 10^k.
func isRoundStep(step float64) bool {
	k := math.Floor(math.Log10(step))
	m := step / math.Pow(10, k)
	for _, want := range []float64{1, 2, 5, 10} {
		if math.Abs(m-want) < 1e-6 {
			return true
		}
	}
	return false
}

// checkTicks checks that tick labels start at 0 and go up in equal,
// round steps.
func checkTicks(t *testing.T, what string, es []svgElem, class string) []float64 {
	t.Helper()
	var vs []float64
	for _, e := range es {
		if e.class == class {
			v, err := strconv.ParseFloat(e.text, 64)
			if err != nil {
				t.Fatalf("%s tick %q: %v", what, e.text, err)
			}
			vs = append(vs, v)
		}
	}
	if len(vs) < 3 || len(vs) > 12 || vs[0] != 0 {
		t.Fatalf("%s ticks %v", what, vs)
	}
	step := vs[1] - vs[0]
	if !isRoundStep(step) {
		t.Errorf("%s tick step %v is not 1, 2 or 5 × 10^k (ticks %v)", what, step, vs)
	}
	for i := 2; i < len(vs); i++ {
		if d := vs[i] - vs[i-1]; math.Abs(d-step) > step*1e-6 {
			t.Errorf("%s ticks not evenly spaced: %v", what, vs)
		}
	}
	return vs
}

func TestCostSVGStructure(t *testing.T) {
	r := costOf(t, "L2c", 19900, nil)
	svg := CostSVG(r, "sites/big.conf", time.Second)
	es := parseSVG(t, svg)
	text := func(class string) []string {
		var out []string
		for _, e := range es {
			if e.class == class || strings.HasPrefix(e.class, class+" ") {
				out = append(out, strings.TrimSpace(e.text))
			}
		}
		return out
	}
	if got := text("title"); len(got) != 1 || got[0] != "Estimated nginx startup: sites/big.conf" {
		t.Errorf("title %q", got)
	}
	xs := checkTicks(t, "x", es, "xtick")
	ys := checkTicks(t, "y", es, "ytick")
	// The x axis covers twice the size, the y axis the highest point.
	if last := xs[len(xs)-1]; last < 2*19900 || last > 4*19900 {
		t.Errorf("x axis ends at %v", last)
	}
	if last := ys[len(ys)-1]; last < r.Scale(r.Phases, 2*19900) {
		t.Errorf("y axis ends at %v, below the curve's %v", last, r.Scale(r.Phases, 2*19900))
	}
	grid := 0
	for _, e := range es {
		if e.class == "grid" {
			grid++
		}
	}
	if grid != len(xs)+len(ys) {
		t.Errorf("%d grid lines for %d+%d ticks", grid, len(xs), len(ys))
	}
	// Both curves, each with its value at 19900 servers on the chart and
	// in the legend.
	cur, alt := costmodel.Seconds(r.StartupSeconds), costmodel.Seconds(r.Scale(r.WhatIfs()[0].Phases, 19900))
	if got := text("current value"); len(got) != 1 || got[0] != cur {
		t.Errorf("current value %q, want %q", got, cur)
	}
	if got := text("alternative value"); len(got) != 1 || got[0] != alt {
		t.Errorf("alternative value %q, want %q", got, alt)
	}
	legend := strings.Join(text("legend"), "\n")
	for _, want := range []string{"current layout: " + cur + " at 19900 servers", alt + " at 19900 servers",
		"1000–19900 servers", "dashed: extrapolated"} {
		if !strings.Contains(legend, want) {
			t.Errorf("legend lacks %q:\n%s", want, legend)
		}
	}
	// The budget (1 s) is inside the chart's range: a line and a label.
	if got := text("budget"); len(got) != 2 || got[1] != "budget 1s" {
		t.Errorf("budget %q", got)
	}
	// Measured range shaded; past 19900 servers the curves are dashed.
	classes := map[string]int{}
	for _, e := range es {
		if e.name == "polyline" {
			classes[e.class]++
			if strings.HasSuffix(e.class, "extrapolated") != (e.attrs["stroke-dasharray"] != "") {
				t.Errorf("polyline %q dash %q", e.class, e.attrs["stroke-dasharray"])
			}
		}
	}
	for _, c := range []string{"current", "current extrapolated", "alternative", "alternative extrapolated"} {
		if classes[c] != 1 {
			t.Errorf("polylines %v lack %q", classes, c)
		}
	}
	if got := text("measured"); len(got) != 1 {
		t.Errorf("measured band %q", got)
	}
}

// TestCostSVGSmallAndOdd: a far budget, a name that needs escaping and
// a profile without a measured range still give a valid chart with round
// ticks; a configuration too small for a chart to say anything (one
// server: the estimate is the process start) gets a note instead.
func TestCostSVGSmallAndOdd(t *testing.T) {
	p := costmodel.DefaultProfile()
	p.Measured = [2]int{}
	r := costOf(t, "L3c", 400, p)
	svg := CostSVG(r, `a&b<"c">.conf`, time.Hour)
	es := parseSVG(t, svg)
	checkTicks(t, "x", es, "xtick")
	checkTicks(t, "y", es, "ytick")
	var title, legend string
	dashed := false
	for _, e := range es {
		switch {
		case e.class == "title":
			title = e.text
		case strings.HasPrefix(e.class, "legend"):
			legend += e.text + "\n"
		case strings.HasSuffix(e.class, "extrapolated"):
			dashed = true
		case e.class == "budget":
			t.Errorf("a budget far above the curves is drawn")
		}
	}
	if title != `Estimated nginx startup: a&b<"c">.conf` {
		t.Errorf("title %q", title)
	}
	if !strings.Contains(legend, "budget 1h0m0s, above the chart") || !strings.Contains(legend, "does not say which sizes") {
		t.Errorf("legend %q", legend)
	}
	if dashed {
		t.Error("dashed curves without a measured range")
	}
	one := CostSVG(costOf(t, "L3c", 1, nil), "one.conf", time.Second)
	es = parseSVG(t, one)
	var note string
	for _, e := range es {
		switch {
		case e.class == "note":
			note += e.text + " "
		case e.name == "polyline" || e.class == "xtick":
			t.Errorf("one server: a chart is drawn (%s %s)", e.name, e.class)
		}
	}
	if !strings.Contains(note, "1 server: the estimated startup") || !strings.Contains(note, "no chart is drawn") || !strings.Contains(note, "one says something from about") {
		t.Errorf("one server: note %q", note)
	}
}

// TestCostSVGLegendWraps: a what-if title longer than a legend line is
// wrapped, not cut, the value whole on its last line, and the plot moves
// down below it.
func TestCostSVGLegendWraps(t *testing.T) {
	long := strings.TrimSpace(strings.Repeat("serve these many addresses from fewer sockets ", 4))
	lines := wrapKeep(long+":", "1.05 s at 19900 servers", 95)
	if len(lines) < 2 || !strings.HasSuffix(lines[len(lines)-1], "1.05 s at 19900 servers") {
		t.Errorf("wrapped %q", lines)
	}
	for _, l := range lines {
		if len([]rune(l)) > 95 {
			t.Errorf("line of %d runes: %q", len([]rune(l)), l)
		}
	}
	if got := strings.Join(lines, " "); got != long+": 1.05 s at 19900 servers" {
		t.Errorf("words lost: %q", got)
	}
	r := costOf(t, "L2c", 19900, nil)
	es := parseSVG(t, CostSVG(r, "big.conf", time.Second))
	var legendBottom, plotTop float64
	for _, e := range es {
		yv, _ := strconv.ParseFloat(e.attrs["y"], 64)
		if strings.HasPrefix(e.class, "legend") {
			legendBottom = max(legendBottom, yv)
		}
		if e.class == "size" && e.name == "line" {
			plotTop, _ = strconv.ParseFloat(e.attrs["y1"], 64)
		}
	}
	if plotTop <= legendBottom+10 {
		t.Errorf("the plot (top %v) overlaps the legend (bottom %v)", plotTop, legendBottom)
	}
}

func TestNiceStep(t *testing.T) {
	for _, tt := range []struct {
		span float64
		want float64
	}{
		{39800, 10000}, {8, 2}, {2, 0.5}, {10, 2}, {0.05, 0.01}, {1, 0.2}, {9.12, 2}, {0, 1}, {math.NaN(), 1},
	} {
		if got := niceStep(tt.span, 5); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("niceStep(%v) = %v, want %v", tt.span, got, tt.want)
		}
	}
	if got := formatTick(0.75, 0.25); got != "0.75" {
		t.Errorf("formatTick %q", got)
	}
	if got := formatTick(0.015, 0.005); got != "0.015" {
		t.Errorf("formatTick %q", got)
	}
	if got := formatTick(20000, 10000); got != "20000" {
		t.Errorf("formatTick %q", got)
	}
}

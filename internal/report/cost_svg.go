package report

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/internal/plural"
)

// Colors of the chart: the current layout, the best what-if, and the
// chart's furniture.
const (
	colorCurrent = "#c0392b"
	colorAlt     = "#1e8449"
	colorBudget  = "#7d3c98"
	colorGrid    = "#e5e5e5"
	colorBand    = "#eaf2fb"
	colorText    = "#333333"
)

// CostSVG draws estimated startup against the number of servers, from
// none to about twice the current count, for the current layout and the
// best what-if: a title with the configuration's name, axes with round
// ticks (1, 2 or 5 × 10^k) and a grid, the budget as a line, each curve's
// value at the configuration's size marked and labelled, and the range of
// server counts the profile was timed at shaded, with the curves dashed
// beyond it, where the model is extrapolated.
//
// The legend is wrapped to the chart's width, the plot moving down to
// make room. A configuration so small that the estimate over the chart's
// range is mostly the process start (the servers' share under a half)
// gets no axes and curves, which would say nothing, but a note
// with the estimate and the size from which a chart says something.
func CostSVG(r *costmodel.Result, name string, budget time.Duration) string {
	if note, ok := tooSmallToChart(r); ok {
		return noteSVG(r, name, note)
	}
	const (
		w, plotH            = 760, 310
		left, right, bottom = 80, 30, 58
		pw, ph              = w - left - right, plotH
		samples             = 120
		legendTop, lineH    = 66, 17
		legendChars         = 95
	)
	n := max(r.Counts.Servers, 1)
	xStep := niceStep(float64(2*n), 5)
	xStep = math.Max(xStep, 1)
	xMax := math.Ceil(float64(2*n)/xStep) * xStep

	cur := r.Phases
	var alt []costmodel.Phase
	altName := ""
	if wis := r.WhatIfs(); len(wis) > 0 && wis[0].Saving > 0 {
		alt, altName = wis[0].Phases, wis[0].Title
	}
	at := func(ps []costmodel.Phase, v float64) float64 { return r.Scale(ps, int(math.Round(v))) }
	peak := 0.0
	for i := 0; i <= samples; i++ {
		v := xMax * float64(i) / samples
		peak = math.Max(peak, at(cur, v))
		if alt != nil {
			peak = math.Max(peak, at(alt, v))
		}
	}
	// The budget widens the axis only when it is near the curves; far
	// above them the legend gives it instead of squashing the curves.
	b := budget.Seconds()
	showBudget := b > 0 && b <= 3*math.Max(peak, 1e-9)
	yTop := peak
	if showBudget {
		yTop = math.Max(yTop, b)
	}
	if yTop <= 0 {
		yTop = 1
	}
	yStep := niceStep(yTop, 5)
	yMax := math.Ceil(yTop/yStep*(1+1e-9)) * yStep
	if yMax < yTop*1.04 {
		yMax += yStep // room above the highest point for its label
	}
	// The legend first: its lines decide where the plot starts.
	vc := r.Scale(cur, n)
	lo, hi := r.Profile.Measured[0], r.Profile.Measured[1]
	measured := hi > 0
	atN := " at " + plural.Count(n, "server")
	type legendLine struct {
		color, text string
		note        bool
	}
	var legendLines []legendLine
	addLegend := func(color, text, value string, note bool) {
		for _, l := range wrapKeep(text, value, legendChars) {
			legendLines = append(legendLines, legendLine{color, l, note})
			color = "" // the swatch on the first line only
		}
	}
	addLegend(colorCurrent, "current layout:", costmodel.Seconds(vc)+atN, false)
	if alt != nil {
		// The value stays whole on the entry's last line.
		addLegend(colorAlt, altName+":", costmodel.Seconds(r.Scale(alt, n))+atN, false)
	}
	note := ""
	switch {
	case measured && float64(lo) >= xMax:
		note = fmt.Sprintf("the costs were measured at %d–%d servers, beyond this chart", lo, hi)
	case measured:
		note = fmt.Sprintf("shaded: %d–%d servers, the sizes the costs were measured at; dashed: extrapolated", lo, hi)
	default:
		note = "the profile does not say which sizes it was measured at"
	}
	if !showBudget && b > 0 {
		note += fmt.Sprintf("; budget %s, above the chart", budget)
	}
	addLegend("", note, "", true)
	top := legendTop + lineH*len(legendLines) + 15
	h := top + ph + bottom
	x := func(v float64) float64 { return left + v/xMax*pw }
	y := func(s float64) float64 { return float64(top+ph) - s/yMax*ph }

	var sb strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&sb, format+"\n", args...) }
	svgHead(&sb, r, name, w, h, left)

	// The measured range, shaded behind everything else.
	if measured && float64(lo) < xMax {
		x0, x1 := x(float64(lo)), x(math.Min(float64(hi), xMax))
		p(`<rect class="measured" x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"/>`, x0, top, x1-x0, ph, colorBand)
	}
	// Grid and ticks.
	for v := 0.0; v <= xMax+xStep/2; v += xStep {
		p(`<line class="grid" x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s"/>`, x(v), top, x(v), top+ph, colorGrid)
		p(`<text class="xtick" x="%.1f" y="%d" text-anchor="middle">%s</text>`, x(v), top+ph+18, formatTick(v, xStep))
	}
	for v := 0.0; v <= yMax+yStep/2; v += yStep {
		p(`<line class="grid" x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="%s"/>`, left, y(v), left+pw, y(v), colorGrid)
		p(`<text class="ytick" x="%d" y="%.1f" text-anchor="end">%s</text>`, left-8, y(v)+4, formatTick(v, yStep))
	}
	p(`<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s"/>`, left, top+ph, left+pw, top+ph, colorText)
	p(`<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s"/>`, left, top, left, top+ph, colorText)
	p(`<text x="%d" y="%d" text-anchor="middle">servers</text>`, left+pw/2, h-16)
	p(`<text x="20" y="%d" transform="rotate(-90 20 %d)" text-anchor="middle">estimated startup (s)</text>`, top+ph/2, top+ph/2)

	// The configuration's size.
	p(`<line class="size" x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s" stroke-dasharray="2,3"/>`, x(float64(n)), top, x(float64(n)), top+ph, colorText)
	p(`<text class="size" x="%.1f" y="%d" text-anchor="middle" font-size="11">this config: %d</text>`, x(float64(n)), top-6, n)

	if showBudget {
		p(`<line class="budget" x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="%s" stroke-width="1.5" stroke-dasharray="8,4"/>`, left, y(b), left+pw, y(b), colorBudget)
		p(`<text class="budget" x="%d" y="%.1f" text-anchor="end" fill="%s">budget %s</text>`, left+pw-4, y(b)-5, colorBudget, budget)
	}

	// The curves: solid up to the end of the measured range, dashed past it.
	split := xMax
	if measured {
		split = math.Min(float64(hi), xMax)
	}
	curve := func(ps []costmodel.Phase, color, class string) {
		var solid, dashed strings.Builder
		for i := 0; i <= samples; i++ {
			v := xMax * float64(i) / samples
			pt := fmt.Sprintf("%.1f,%.1f ", x(v), y(at(ps, v)))
			if v <= split {
				solid.WriteString(pt)
			}
			if v >= split {
				dashed.WriteString(pt)
			}
			if i < samples {
				// The sample on the boundary joins both halves.
				if next := xMax * float64(i+1) / samples; v < split && next > split {
					pt := fmt.Sprintf("%.1f,%.1f ", x(split), y(at(ps, split)))
					solid.WriteString(pt)
					dashed.WriteString(pt)
				}
			}
		}
		if s := strings.TrimSpace(solid.String()); strings.Contains(s, " ") {
			p(`<polyline class="%s" fill="none" stroke="%s" stroke-width="2.5" points="%s"/>`, class, color, s)
		}
		if d := strings.TrimSpace(dashed.String()); strings.Contains(d, " ") {
			p(`<polyline class="%s extrapolated" fill="none" stroke="%s" stroke-width="2.5" stroke-dasharray="7,5" points="%s"/>`, class, color, d)
		}
	}
	curve(cur, colorCurrent, "current")
	if alt != nil {
		curve(alt, colorAlt, "alternative")
	}
	// Each curve's value at the configuration's size, on the curve. The
	// higher value's label goes above its point, the lower one's below,
	// so close values do not overlap.
	// The curves rise to the right, so above-left and below-right of a
	// point are clear of its own curve.
	mark := func(v float64, color, class string, above bool) {
		dx, dy, anchor := -9.0, -9.0, "end"
		if !above {
			dx, dy, anchor = 9, 19, "start"
		}
		p(`<circle class="%s" cx="%.1f" cy="%.1f" r="4.5" fill="%s"/>`, class, x(float64(n)), y(v), color)
		p(`<text class="%s value" x="%.1f" y="%.1f" text-anchor="%s" fill="%s" font-weight="bold">%s</text>`, class, x(float64(n))+dx, y(v)+dy, anchor, color, costmodel.Seconds(v))
	}
	mark(vc, colorCurrent, "current", true)
	if alt != nil {
		mark(r.Scale(alt, n), colorAlt, "alternative", false)
	}

	// Legend, under the title: a swatch on an entry's first line.
	ly := legendTop
	for _, l := range legendLines {
		if l.color != "" {
			p(`<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2.5"/>`, left, ly-4, left+26, ly-4, l.color)
		}
		if l.note {
			p(`<text class="legend note" x="%d" y="%d" font-size="11">%s</text>`, left, ly, xmlEscape(l.text))
		} else {
			p(`<text class="legend" x="%d" y="%d">%s</text>`, left+34, ly, xmlEscape(l.text))
		}
		ly += lineH
	}
	sb.WriteString("</svg>\n")
	return sb.String()
}

// chartShare is the least share of the estimate at twice a
// configuration's size that its servers must have for a chart of it to
// say something: as much as the process start. Below it the curve is
// mostly the process start's flat line; a tenth, with the reference
// profile's process start of 483 µs, drew a one-server configuration's
// 0-2-server chart, a line rising by a tenth.
const chartShare = 0.5

// tooSmallToChart says why a chart of r would say nothing, and true, when
// the servers' part of the estimate at twice its size is under
// chartShare of it; with the size from which a chart says something.
func tooSmallToChart(r *costmodel.Result) (string, bool) {
	n := max(r.Counts.Servers, 1)
	at := func(v int) float64 { return r.Scale(r.Phases, v) }
	total, fixed := at(2*n), at(0)
	if total <= 0 || total-fixed >= chartShare*total {
		return "", false
	}
	// The servers' part grows with their number, at least linearly: it
	// reaches the share by the size where its linear part does.
	perServer := (total - fixed) / float64(2*n)
	from := 0
	if perServer > 0 {
		need := fixed * chartShare / (1 - chartShare) / perServer / 2
		step := niceStep(need, 1)
		from = int(math.Ceil(need/step) * step)
	}
	msg := fmt.Sprintf("%s: the estimated startup, %s, is mostly the process start (%s), nearly the same at any size this small: no chart is drawn",
		plural.Count(n, "server"), costmodel.Seconds(r.StartupSeconds), costmodel.Seconds(fixed))
	if from > 0 {
		msg += fmt.Sprintf("; one says something from about %s", plural.Count(from, "server"))
	}
	return msg, true
}

// svgHead opens a chart of w by h pixels with its title (the chart's
// name) and subtitle (the layout's size and where the costs come from),
// both at x = left.
func svgHead(sb *strings.Builder, r *costmodel.Result, name string, w, h, left int) {
	p := func(format string, args ...any) { fmt.Fprintf(sb, format+"\n", args...) }
	p(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12" fill="%s">`, w, h, w, h, colorText)
	p(`<rect width="%d" height="%d" fill="white"/>`, w, h)
	p(`<text class="title" x="%d" y="26" font-size="16" font-weight="bold">Estimated nginx startup: %s</text>`, left, xmlEscape(chartName(name)))
	p(`<text class="subtitle" x="%d" y="44" font-size="11">%s; costs: %s</text>`, left,
		LayoutSize(r.Counts), xmlEscape(shorten(r.Profile.Source, 70)))
}

// noteSVG is the chart's title with a note in place of the chart.
func noteSVG(r *costmodel.Result, name, note string) string {
	const w, left, lineH = 760, 80, 17
	lines := wrapWords(note, 95)
	h := 66 + lineH*len(lines) + 20
	var sb strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&sb, format+"\n", args...) }
	svgHead(&sb, r, name, w, h, left)
	for i, l := range lines {
		p(`<text class="note" x="%d" y="%d">%s</text>`, left, 66+lineH*i, xmlEscape(l))
	}
	sb.WriteString("</svg>\n")
	return sb.String()
}

// wrapKeep is wrapWords of text followed by tail, which is never broken:
// it ends the last line when it fits there, else it is a line of its own.
func wrapKeep(text, tail string, width int) []string {
	lines := wrapWords(text, width)
	if tail == "" {
		return lines
	}
	last := lines[len(lines)-1]
	if len([]rune(last))+1+len([]rune(tail)) <= width {
		lines[len(lines)-1] = last + " " + tail
		return lines
	}
	return append(lines, tail)
}

// wrapWords breaks s into lines of at most width runes at spaces (a word
// longer than width stands alone).
func wrapWords(s string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case len([]rune(line))+1+len([]rune(word)) <= width:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}

// niceStep returns a tick step of 1, 2 or 5 × 10^k that divides [0, span]
// into about n intervals (never more than n).
func niceStep(span float64, n int) float64 {
	if span <= 0 || math.IsNaN(span) || math.IsInf(span, 0) {
		return 1
	}
	raw := span / float64(n)
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw*(1-1e-12) {
			return m * p
		}
	}
	return 10 * p
}

// formatTick prints a tick value with as many decimals as its step has,
// so 0.05 steps show "0.15" and 2000 steps "2000".
func formatTick(v, step float64) string {
	dec := 0
	if step < 1 {
		// The shortest form of a step below 1 is "0.05": its decimals.
		dec = len(strconv.FormatFloat(step, 'f', -1, 64)) - 2
	}
	return strconv.FormatFloat(v, 'f', dec, 64)
}

// chartName is the configuration's name for the title: the path as given,
// or its last two elements when it is long.
func chartName(name string) string {
	if len(name) <= 60 {
		return name
	}
	return "…" + string(filepath.Separator) + filepath.Join(filepath.Base(filepath.Dir(name)), filepath.Base(name))
}

// shorten cuts s to at most n runes, with an ellipsis.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

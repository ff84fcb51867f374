package calibrate

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
	"github.com/nginx-lint/nginx-lint/parser"
)

// maxSockets keeps generated layouts below the sandbox's 20,000 open
// files: L1 and L2 bind one socket per server.
const maxSockets = 18900

// shortRun is the time under which a configuration is timed three times
// as often: the machine's jitter is a larger share of it, and the extra
// runs are cheap.
const shortRun = 0.15

// timeLayouts generates the nine layouts at each size and times nginx -t
// on them runs times (three times that for short runs), keeping the
// medians. The runs go round-robin over all configurations rather than
// back to back, so that a shared machine's drift over minutes spreads over
// every layout instead of biasing the ones measured during a busy spell.
func timeLayouts(ctx context.Context, measure Measure, sizes []int, runs int, wall bool, prog *tracker) ([]LayoutRun, error) {
	dir, err := os.MkdirTemp("", "nginx-lint-calibrate-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	var out []LayoutRun
	var confs []string
	for _, n := range sizes {
		for _, l := range layout.All() {
			nn := n
			if l.Listen != layout.SharedAddr && nn > maxSockets {
				nn = maxSockets
			}
			src := layout.Generate(layout.Options{Layout: l, N: nn})
			conf := filepath.Join(dir, fmt.Sprintf("%v-%d.conf", l, nn))
			if err := os.WriteFile(conf, src, 0o644); err != nil {
				return nil, err
			}
			c := (&parser.Loader{Kinds: analyzer.Kinds}).LoadSource(conf, src, nil)
			res := costmodel.Compute(parser.BuildModel(c), costmodel.Options{})
			out = append(out, LayoutRun{Layout: l, Servers: nn, Ops: res.Ops(), mem: map[string]float64{
				costmodel.MemBase: 1, costmodel.MemServer: float64(res.Counts.Servers), costmodel.MemSocket: float64(res.Counts.Addrs)},
				scans: res.AddrScans()})
			confs = append(confs, conf)
		}
	}
	walls := make([][]float64, len(out))
	cpus := make([][]float64, len(out))
	short := func(j int) bool { return len(cpus[j]) > 0 && (cpus[j][0] < shortRun || walls[j][0] < shortRun) }
	prog.plan(runs * len(confs))
	for i := 0; i < 3*runs; i++ {
		if i == runs {
			// Now it is known which configurations are short.
			for j := range confs {
				if short(j) {
					prog.plan(2 * runs)
				}
			}
		}
		for j, conf := range confs {
			if i >= runs && !short(j) {
				continue
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			m, err := measure(ctx, conf)
			if err != nil {
				return nil, fmt.Errorf("%v at %d servers: %w", out[j].Layout, out[j].Servers, err)
			}
			walls[j], cpus[j] = append(walls[j], m.Wall), append(cpus[j], m.CPU)
			out[j].Median.RSS = max(out[j].Median.RSS, m.RSS)
			prog.measured(fmt.Sprintf("%v %d", out[j].Layout, out[j].Servers), timeLeft(runs, walls, short))
		}
	}
	for j := range out {
		r := &out[j]
		// The runs of the fitted clock are kept before median sorts
		// them: their spread is the noise the guard allows for.
		r.Runs = slices.Clone(cpus[j])
		if wall {
			r.Runs = slices.Clone(walls[j])
		}
		r.Median.Wall, r.Median.CPU = median(walls[j]), median(cpus[j])
		r.Seconds = r.Median.CPU
		if wall {
			r.Seconds = r.Median.Wall
		}
		prog.timed(fmt.Sprintf("%v %d", r.Layout, r.Servers), r.Median)
	}
	return out, nil
}

// timeLeft estimates the time the round-robin still needs: each run to
// come takes as long as its configuration's first run did (one not timed
// yet, the average of those that were), and a configuration found short
// runs three times as often.
func timeLeft(runs int, walls [][]float64, short func(int) bool) time.Duration {
	sum, seen := 0.0, 0
	for _, w := range walls {
		if len(w) > 0 {
			sum += w[0]
			seen++
		}
	}
	avg := sum / float64(max(seen, 1))
	left := 0.0
	for k, w := range walls {
		per, planned := avg, runs
		if len(w) > 0 {
			per = w[0]
			if short(k) {
				planned = 3 * runs
			}
		}
		left += float64(max(planned-len(w), 0)) * per
	}
	return time.Duration(left * float64(time.Second))
}

// median sorts v and returns its middle value (the upper one of an even
// count).
func median(v []float64) float64 {
	sort.Float64s(v)
	return v[len(v)/2]
}

// extraServers is the size of the layouts that price locations, regexes
// and certificates.
const extraServers = 3000

// timeExtras prices what the nine layouts cannot separate: it times L3c
// with four prefix locations per server, with four regex locations per
// server, and with a shared RSA-2048 certificate per server, and charges
// the difference from plain L3c to each location, regex and SSL server.
// The keys become measured in p, except those whose difference is within
// the runs' noise: they keep p's value, stay assumed and are returned.
// The variants' timings are returned too.
func timeExtras(ctx context.Context, measure Measure, p *costmodel.Profile, runs int, wall bool, prog *tracker) ([]ExtraRun, []Unidentified, error) {
	dir, err := os.MkdirTemp("", "nginx-lint-calibrate-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	cert, key, err := writeTestCertificate(dir)
	if err != nil {
		return nil, nil, err
	}
	l3c, _ := layout.ParseName("L3c")
	variants := []struct {
		name  string
		http  []string
		lines []string
		ssl   bool
	}{
		{name: "plain"},
		{name: "locations", lines: []string{"location /a {}", "location /b {}", "location /c {}", "location /d {}"}},
		{name: "regex", lines: []string{"location ~ ^/a$ {}", "location ~ ^/b$ {}", "location ~ ^/c$ {}", "location ~ ^/d$ {}"}},
		{name: "ssl", http: []string{"ssl_certificate " + cert + ";", "ssl_certificate_key " + key + ";"}, ssl: true},
	}
	t := map[string]float64{}
	noise := map[string]float64{}
	var extras []ExtraRun
	prog.plan(len(variants) * runs)
	for vi, v := range variants {
		opts := layout.Options{Layout: l3c, N: extraServers, HTTP: v.http, Server: func(s *layout.Server) {
			s.Lines = v.lines
			if v.ssl {
				s.ListenParams = []string{"ssl"}
			}
		}}
		conf := filepath.Join(dir, "nginx.conf")
		if err := os.WriteFile(conf, layout.Generate(opts), 0o644); err != nil {
			return nil, nil, err
		}
		label := fmt.Sprintf("L3c %d %s", extraServers, v.name)
		var walls, cpus []float64
		var rss int64
		for i := 0; i < runs; i++ {
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
			m, err := measure(ctx, conf)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", v.name, err)
			}
			walls, cpus, rss = append(walls, m.Wall), append(cpus, m.CPU), max(rss, m.RSS)
			// The variants left take about as long as this one.
			prog.measured(label, time.Duration(float64((len(variants)-vi)*runs-i-1)*m.Wall*float64(time.Second)))
		}
		fitted := cpus
		if wall {
			fitted = walls
		}
		noise[v.name] = spread(fitted)
		extras = append(extras, ExtraRun{Label: label, Seconds: median(slices.Clone(fitted)), Noise: noise[v.name], Runs: slices.Clone(fitted)})
		med := Measurement{Wall: median(walls), CPU: median(cpus), RSS: rss}
		t[v.name] = med.CPU
		if wall {
			t[v.name] = med.Wall
		}
		prog.timed(label, med)
	}
	return extras, priceExtras(p, t, noise), nil
}

// extraCost is one cost the L3c variants price: the difference between
// two variants' medians, divided by the operations it adds.
type extraCost struct {
	key        string
	with, than string
	per        float64
	what       string
}

// extraCosts are the costs timeExtras prices, each on the variant before
// it, so that a regex is charged only what it adds to a prefix location.
var extraCosts = []extraCost{
	{costmodel.CostLocation, "locations", "plain", 4 * extraServers, "four prefix locations per server"},
	{costmodel.CostRegex, "regex", "locations", 4 * extraServers, "four regex locations per server"},
	{costmodel.CostSSLServer, "ssl", "plain", extraServers, "an SSL certificate per server"},
}

// priceExtras sets the extra costs in p from the variants' medians t and
// spreads noise (seconds). A difference within noiseMargin times the two
// variants' spreads is not a measurement: that cost keeps p's value,
// stays assumed and is returned. Without a spread (one run each, or a
// machine without noise) every positive difference counts. A difference
// at or below zero measures nothing (nginx does more work, not less): it
// too keeps p's value.
func priceExtras(p *costmodel.Profile, t, noise map[string]float64) []Unidentified {
	var out []Unidentified
	for _, c := range extraCosts {
		d, n := t[c.with]-t[c.than], noise[c.with]+noise[c.than]
		if n > 0 && math.Abs(d) <= noiseMargin*n || d <= 0 {
			why := fmt.Sprintf("L3c %d with %s took %.3f s against %.3f s for %s: a difference within %d times the runs' spread (±%.3f s)",
				extraServers, c.what, t[c.with], t[c.than], variantWords[c.than], noiseMargin, n)
			if d <= 0 && !(n > 0 && math.Abs(d) <= noiseMargin*n) {
				why = fmt.Sprintf("L3c %d with %s took %.3f s against %.3f s for %s: no time to charge to it",
					extraServers, c.what, t[c.with], t[c.than], variantWords[c.than])
			}
			out = append(out, Unidentified{Key: c.key, Kept: p.Costs[c.key], Why: why})
			if !p.IsAssumed(c.key) {
				p.Assumed = append(p.Assumed, c.key)
			}
			continue
		}
		p.Costs[c.key] = max(0, d/c.per)
		p.Assumed = slices.DeleteFunc(p.Assumed, func(a string) bool { return a == c.key })
	}
	return out
}

// variantWords name the variants extraCosts compare against.
var variantWords = map[string]string{"plain": "plain L3c", "locations": "four prefix locations per server"}

// writeTestCertificate writes a self-signed RSA-2048 certificate and key
// for localhost, the common kind of certificate, for timing only.
func writeTestCertificate(dir string) (certPath, keyPath string, err error) {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return "", "", err
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "localhost"},
		DNSNames: []string{"localhost"}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	if err != nil {
		return "", "", err
	}
	certPath, keyPath = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		return "", "", err
	}
	kb := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})
	return certPath, keyPath, os.WriteFile(keyPath, kb, 0o600)
}

package rules

import (
	"strconv"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/costpass"
	"github.com/nginx-lint/nginx-lint/parser"
)

// maxAddresses is listen-port-aggregation's limit.
var maxAddresses = analyzer.IntOption("max-addresses", 100, "Report a port when more addresses than this share it.")

// ListenPortAggregation reports a port whose many addresses make
// ngx_http_add_addresses scan quadratically.
var ListenPortAggregation = &analyzer.Rule{
	Code: "NL4001", Name: "listen-port-aggregation", Title: "many addresses on one port make startup quadratic", Severity: parser.Warning,
	Cost:    true,
	Run:     runListenPortAggregation,
	Options: withCostOptions(maxAddresses.Decl()),
	Doc: analyzer.Doc{
		Text: "For every `listen`, nginx looks for its address among the addresses already seen on the " +
			"same port, one by one (`ngx_http_add_addresses`). With one IP per site on a shared port " +
			"that is n²/2 comparisons: 20,000 sites cost 200 million, over a second at every start, " +
			"`nginx -t` and reload (twice at reload). Serve the sites from one address with name-based " +
			"virtual hosts (`listen 80;` and `server_name`), or use a wildcard listen. The threshold is " +
			"the option `max-addresses` (addresses on one port); the message gives the " +
			"estimated cost now.",
		Bad:  "events {}\nhttp {\n" + repeat(101, 4, "    ", "server { listen 127.0.0.%d:80; }") + "}\n",
		Good: "events {}\nhttp {\n" + repeat(101, 4, "    ", "server { listen 80; server_name s%d.example; }") + "}\n",
	},
}

func runListenPortAggregation(p *analyzer.Pass) {
	limit := maxAddresses.Get(p)
	r := costpass.Get(p)
	// The ports of one port range cross the threshold at the same listen:
	// one finding there sums them up, instead of one per port.
	type group struct {
		at       *costmodel.Addr
		ports    []*costmodel.Port
		nPorts   int // a run of ports counts each
		compares int64
		seconds  float64
		maxAddrs int
	}
	var groups []*group
	byListen := map[*parser.Directive]*group{}
	for _, port := range r.Ports {
		if len(port.Addrs) <= limit || port.AddrCompares == 0 {
			continue
		}
		// Report at the listen that crosses the threshold: the one that
		// made the scan long.
		a := port.Addrs[limit]
		g := byListen[a.First()]
		if g == nil || a.First() == nil {
			g = &group{at: a}
			groups = append(groups, g)
			byListen[a.First()] = g
		}
		g.ports = append(g.ports, port)
		g.nPorts += port.Width()
		g.compares += port.AddrCompares * int64(port.Width())
		g.seconds += r.AddrScanSeconds(port) * float64(port.Width())
		g.maxAddrs = max(g.maxAddrs, len(port.Addrs))
	}
	for _, g := range groups {
		port := g.ports[0]
		detail := "serve these sites from one address with name-based virtual hosts (listen " + strconv.Itoa(port.Port) + "; plus server_name)"
		if g.nPorts == 1 {
			reportAt(p, g.at, "%s aggregates %d addresses: %d address compares in ngx_http_add_addresses ≈ %s at every start and reload, growing with the square of the addresses",
				port.Name(), len(port.Addrs), port.AddrCompares, costmodel.Seconds(g.seconds)).Detail = detail
			continue
		}
		reportAt(p, g.at, "%d ports of this range (port %d to %d) aggregate up to %d addresses each: %d address compares in ngx_http_add_addresses ≈ %s at every start and reload, growing with the square of the addresses",
			g.nPorts, port.Port, g.ports[len(g.ports)-1].Last(), g.maxAddrs, g.compares, costmodel.Seconds(g.seconds)).Detail = detail
	}
}

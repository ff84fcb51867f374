package rules

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/parser"
)

// The startup-cost rules (category 4) all read one costmodel.Result per
// analysis, shared through Pass.Memo. The options that change the
// model itself (nonroot, nofile, cpus, kernel) are read from each rule's
// options, so a settings file that sets them for all cost rules alike
// still computes the model once.

// costModelOptions are the options every cost rule takes that change the
// model itself.
var costModelOptions = []analyzer.Option{
	{Name: "nonroot", Type: analyzer.BoolOption, Default: "false", Doc: "nginx runs as a user other than root, so ports below 1024 cannot be bound."},
	{Name: "nofile", Type: analyzer.IntOption, Default: "0", Doc: "The open-files limit (ulimit -n) nginx starts with; 0 means unknown."},
	{Name: "cpus", Type: analyzer.IntOption, Default: "0", Doc: "CPUs of the host, for worker_processes auto; 0 means unknown."},
	{Name: "kernel", Type: analyzer.StringOption, Default: "", Doc: "The host's Linux kernel version (\"6.1\"), for the socket options it supports."},
}

// withCostOptions returns a rule's own options followed by the model's.
func withCostOptions(own ...analyzer.Option) []analyzer.Option {
	return append(own, costModelOptions...)
}

// costOptions reads the model options of a cost rule.
func costOptions(p *analyzer.Pass) costmodel.Options { return CostOptions(p.Options) }

// CostOptions reads the model options of a cost rule's options (nonroot,
// nofile, cpus, kernel, profile), for other front ends that compute the
// model the way the rules do.
func CostOptions(opts map[string]any) costmodel.Options {
	var o costmodel.Options
	if v, ok := opts["nonroot"].(bool); ok {
		o.NonRoot = v
	}
	o.NoFile = intOption(opts["nofile"], 0)
	o.CPUs = intOption(opts["cpus"], 0)
	if v, ok := opts["kernel"].(string); ok {
		o.Kernel = v
	}
	if v, ok := opts["profile"].(*costmodel.Profile); ok {
		o.Profile = v
	}
	return o
}

// CostModel is the startup cost model of the analysed configuration, for
// the options of the host it is computed for; rules with the same options
// share one computation per run.
var CostModel = &analyzer.Result[costmodel.Options, *costmodel.Result]{
	Name: "cost model",
	Compute: func(p *analyzer.Pass, o costmodel.Options) *costmodel.Result {
		return costmodel.Compute(p.Model(), o)
	},
}

// costModel returns the cost model for the rule's options.
func costModel(p *analyzer.Pass) *costmodel.Result { return CostModel.Get(p, costOptions(p)) }

// intOption accepts the integer shapes a settings file or the command
// line produce.
func intOption(v any, def int) int {
	switch x := v.(type) {
	case int:
		return x
	case int64:
		return int(x)
	case float64:
		return int(x)
	case string:
		if n, err := strconv.Atoi(x); err == nil {
			return n
		}
	}
	return def
}

// durationOption accepts "1.5s", "800ms" or a number of seconds.
func durationOption(v any) (time.Duration, bool) {
	switch x := v.(type) {
	case time.Duration:
		return x, true
	case string:
		d, err := time.ParseDuration(x)
		return d, err == nil
	case int, int64, float64:
		return time.Duration(float64(intOrFloat(x)) * float64(time.Second)), true
	}
	return 0, false
}

func intOrFloat(v any) float64 {
	switch x := v.(type) {
	case int:
		return float64(x)
	case int64:
		return float64(x)
	case float64:
		return x
	}
	return 0
}

// reportAt reports at a listen directive's address argument, or at the
// server block when the listen is implied, or at the main file's start.
func reportAt(p *analyzer.Pass, a *costmodel.Addr, format string, args ...any) *parser.Diagnostic {
	if d := a.First(); d != nil {
		r := d.Name.Range
		if len(d.Args) > 0 {
			r = d.Args[0].Range
		}
		return p.Reportf(d.File, r, format, args...)
	}
	if len(a.Instances) > 0 && a.Instances[0].Server != nil {
		return p.ReportDirective(a.Instances[0].Server.Directive, format, args...)
	}
	return p.Reportf(p.Config.Main, parser.Range{}, format, args...)
}

// repeat writes n copies of format (with the index, from 1), per to a
// line, for the documentation examples of rules about large configs.
func repeat(n, per int, indent, format string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if (i-1)%per == 0 {
			b.WriteString(indent)
		}
		fmt.Fprintf(&b, format, i)
		if i%per == 0 || i == n {
			b.WriteString("\n")
		} else {
			b.WriteString(" ")
		}
	}
	return b.String()
}

// ListenPortAggregation reports a port whose many addresses make
// ngx_http_add_addresses scan quadratically.
var ListenPortAggregation = &analyzer.Rule{
	Code: "NL4001", Name: "listen-port-aggregation", Title: "many addresses on one port make startup quadratic", Severity: parser.Warning,
	Run: runListenPortAggregation,
	Options: withCostOptions(analyzer.Option{Name: "max-addresses", Type: analyzer.IntOption, Default: "100",
		Doc: "Report a port when more addresses than this share it."}),
	Doc: analyzer.Doc{
		Text: "For every `listen`, nginx looks for its address among the addresses already seen on the " +
			"same port, one by one (`ngx_http_add_addresses`). With one IP per site on a shared port " +
			"that is n²/2 comparisons: 20,000 sites cost 200 million, over a second at every start, " +
			"`nginx -t` and reload (twice at reload). Serve the sites from one address with name-based " +
			"virtual hosts (`listen 80;` and `server_name`), or use a wildcard listen. The threshold is " +
			"the option `max-addresses` (default 100 addresses on one port); the message gives the " +
			"estimated cost now.",
		Bad:  "events {}\nhttp {\n" + repeat(101, 4, "    ", "server { listen 127.0.0.%d:80; }") + "}\n",
		Good: "events {}\nhttp {\n" + repeat(101, 4, "    ", "server { listen 80; server_name s%d.example; }") + "}\n",
	},
}

func runListenPortAggregation(p *analyzer.Pass) {
	limit := intOption(p.Options["max-addresses"], 100)
	r := costModel(p)
	cost := r.Profile.Cost(costmodel.CostAddrCompare)
	// The ports of one port range cross the threshold at the same listen:
	// one finding there sums them up, instead of one per port.
	type group struct {
		at       *costmodel.Addr
		ports    []*costmodel.Port
		compares int64
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
		g.compares += port.AddrCompares
		g.maxAddrs = max(g.maxAddrs, len(port.Addrs))
	}
	for _, g := range groups {
		port := g.ports[0]
		detail := "serve these sites from one address with name-based virtual hosts (listen " + strconv.Itoa(port.Port) + "; plus server_name)"
		if len(g.ports) == 1 {
			reportAt(p, g.at, "%s aggregates %d addresses: %d address compares in ngx_http_add_addresses ≈ %s at every start and reload, growing with the square of the addresses",
				port.Name(), len(port.Addrs), port.AddrCompares, costmodel.Seconds(float64(port.AddrCompares)*cost)).Detail = detail
			continue
		}
		reportAt(p, g.at, "%d ports of this range (%s to %d) aggregate up to %d addresses each: %d address compares in ngx_http_add_addresses ≈ %s at every start and reload, growing with the square of the addresses",
			len(g.ports), port.Name(), g.ports[len(g.ports)-1].Port, g.maxAddrs, g.compares, costmodel.Seconds(float64(g.compares)*cost)).Detail = detail
	}
}

// ListenSocketCount reports configurations that open very many sockets.
var ListenSocketCount = &analyzer.Rule{
	Code: "NL4002", Name: "listen-socket-count", Title: "nginx opens very many listening sockets", Severity: parser.Warning,
	Run: runListenSocketCount,
	Options: withCostOptions(analyzer.Option{Name: "max-sockets", Type: analyzer.IntOption, Default: "1000",
		Doc: "Report a configuration that opens more listening sockets than this."}),
	Doc: analyzer.Doc{
		Text: "Every listening socket costs a socket(), bind() and listen() at start, `nginx -t` and " +
			"reload, a file descriptor in the master and in every worker, and a connection slot per " +
			"worker. A wildcard listen on a port serves all its addresses with one socket unless a " +
			"listen forces its own (`bind`, `backlog`, `reuseport`, ...), and `reuseport` clones a " +
			"socket per worker at start (not under `nginx -t`). The threshold is the option " +
			"`max-sockets` (default 1000, counted at start).",
		Bad: "worker_processes 256;\nevents { worker_connections 2048; }\nhttp {\n    server {\n" +
			repeat(4, 4, "        ", "listen 127.0.0.1:800%d reuseport;") + "    }\n}\n",
		Good: "worker_processes 256;\nevents { worker_connections 2048; }\nhttp {\n    server {\n" +
			repeat(4, 4, "        ", "listen 127.0.0.1:800%d;") + "    }\n}\n",
	},
}

func runListenSocketCount(p *analyzer.Pass) {
	limit := intOption(p.Options["max-sockets"], 1000)
	r := costModel(p)
	c := r.Counts
	if c.SocketsStart <= limit {
		return
	}
	// Report at the port with the most sockets.
	var worst *costmodel.Port
	for _, port := range r.Ports {
		if worst == nil || port.Sockets > worst.Sockets {
			worst = port
		}
	}
	var at *costmodel.Addr
	for _, a := range worst.Addrs {
		if a.Socket {
			at = a
			break
		}
	}
	if at == nil {
		return
	}
	msg := fmt.Sprintf("%d listening sockets at start (%d under nginx -t", c.SocketsStart, c.SocketsTest)
	if c.SocketsStart > c.SocketsTest {
		msg += fmt.Sprintf("; reuseport clones one per worker for %d workers", c.Workers)
	}
	msg += fmt.Sprintf(") ≈ %s of socket, bind and listen", costmodel.Seconds(float64(c.SocketsStart)*r.Profile.Cost(costmodel.CostSocket)))
	reportAt(p, at, "%s", msg)
}

// ListenBindConflict reports sockets that collide at start although nginx
// -t passes.
var ListenBindConflict = &analyzer.Rule{
	Code: "NL4003", Name: "listen-bind-conflict", Title: "listen sockets collide at start although nginx -t passes", Severity: parser.Error,
	Run:     runListenBindConflict,
	Options: withCostOptions(),
	Doc: analyzer.Doc{
		Text: "A listen that forces a socket of its own (`bind`, `backlog`, `rcvbuf`, `deferred`, " +
			"`reuseport`, ...) on a port that also has a wildcard listen makes nginx bind both the " +
			"address and the wildcard. nginx binds and listens on each socket in turn, so the kernel " +
			"refuses the second with `EADDRINUSE`. `nginx -t` ignores that error by design, so the test " +
			"passes; the start retries five times 500 ms apart and fails with `bind() to 0.0.0.0:80 " +
			"failed (98: Address already in use)`. Drop the socket options from the specific listen, " +
			"or use `reuseport` on both. The same happens with an IPv6 wildcard with `ipv6only=off` " +
			"and IPv4 listens on its port, and with http and stream listening on the same address.",
		Bad:  "events {}\nhttp {\n    server {\n        listen 80;\n    }\n    server {\n        listen 127.0.0.1:80 bind;\n    }\n}\n",
		Good: "events {}\nhttp {\n    server {\n        listen 80;\n    }\n    server {\n        listen 127.0.0.1:80;\n    }\n}\n",
	},
}

func runListenBindConflict(p *analyzer.Pass) {
	for _, c := range costModel(p).Conflicts {
		reportAt(p, c.Own, "%s", c.Message)
	}
}

// WorkerConnections reports worker_connections that cannot hold the
// listening sockets.
var WorkerConnections = &analyzer.Rule{
	Code: "NL4004", Name: "worker-connections", Title: "worker_connections is not above the number of listening sockets", Severity: parser.Error,
	Run:     runWorkerConnections,
	Options: withCostOptions(),
	Doc: analyzer.Doc{
		Text: "Every worker keeps one connection per listening socket plus one for the channel to the " +
			"master, so nginx refuses `worker_connections` not above the number of sockets " +
			"(`ngx_event_init_conf`: `512 worker_connections are not enough for 512 listening " +
			"sockets`). Raise `worker_connections` (and `worker_rlimit_nofile`), or open fewer sockets.",
		Bad:  "events {\n    worker_connections 2;\n}\nhttp {\n    server { listen 127.0.0.1:8001; }\n    server { listen 127.0.0.1:8002; }\n}\n",
		Good: "events {\n    worker_connections 3;\n}\nhttp {\n    server { listen 127.0.0.1:8001; }\n    server { listen 127.0.0.1:8002; }\n}\n",
	},
}

func runWorkerConnections(p *analyzer.Pass) {
	r := costModel(p)
	l := r.Limits[0]
	if l.OK {
		return
	}
	msg := l.Message + fmt.Sprintf(" (nginx needs at least %d)", l.Need)
	if l.Directive != nil {
		d := l.Directive
		diag := p.Reportf(d.File, d.Args[0].Range, "%s", msg)
		diag.Edits = []parser.Edit{{File: d.File, Range: d.Args[0].Range, NewText: strconv.Itoa(l.Need)}}
		return
	}
	if a := firstSocket(r); a != nil {
		reportAt(p, a, "%s; the default is 512", msg)
	}
}

// firstSocket returns the first address that gets a listening socket, in
// nginx's order: where a finding about all the sockets is reported when
// no directive sets the limit. nil when there is none.
func firstSocket(r *costmodel.Result) *costmodel.Addr {
	for _, port := range r.Ports {
		for _, a := range port.Addrs {
			if a.Socket {
				return a
			}
		}
	}
	return nil
}

// OpenFilesLimit reports a master that needs more descriptors than the
// limit allows.
var OpenFilesLimit = &analyzer.Rule{
	Code: "NL4005", Name: "open-files-limit", Title: "the master needs more open files than the limit", Severity: parser.Warning,
	Run:     runOpenFilesLimit,
	Options: withCostOptions(),
	Doc: analyzer.Doc{
		Text: "The master process holds every listening socket (with `reuseport`, one per worker), the " +
			"log files and its standard streams. Past the open-file limit `socket()` fails with " +
			"`(24: Too many open files)`. `worker_rlimit_nofile` raises the workers' limit only; the " +
			"master's comes from the service manager (systemd's default soft limit is 1024: set " +
			"`LimitNOFILE=` in the unit). The limit is the option `nofile` (default 1024). nginx cannot " +
			"start past it, so a limit given explicitly (the option, or `nginx-lint cost --nofile`) makes " +
			"the finding an error; against the assumed default it stays a warning.",
		Bad: "worker_processes 256;\nevents { worker_connections 2048; }\nhttp {\n    server {\n" +
			repeat(4, 4, "        ", "listen 127.0.0.1:800%d reuseport;") + "    }\n}\n",
		Good: "worker_processes 4;\nevents { worker_connections 2048; }\nhttp {\n    server {\n" +
			repeat(4, 4, "        ", "listen 127.0.0.1:800%d reuseport;") + "    }\n}\n",
	},
}

func runOpenFilesLimit(p *analyzer.Pass) {
	r := costModel(p)
	l := r.Limits[1]
	if l.OK {
		return
	}
	if a := firstSocket(r); a != nil {
		d := reportAt(p, a, "%s", l.Message)
		// Past the limit nginx cannot start; but 1024 is only the usual
		// default, so that is certain only for a limit the user gave.
		if _, known := p.Options["nofile"]; known {
			d.Severity = parser.Error
		}
	}
}

// ServerNamesHash reports server_names hashes nginx cannot build well.
var ServerNamesHash = &analyzer.Rule{
	Code: "NL4006", Name: "server-names-hash", Title: "the server_names hash does not fit its settings", Severity: parser.Warning,
	Run:     runServerNamesHash,
	Options: withCostOptions(),
	Doc: analyzer.Doc{
		Text: "For every address with more than one server nginx builds a hash of the server names " +
			"(`ngx_hash_init`) with `server_names_hash_max_size` buckets at most (default 512) of " +
			"`server_names_hash_bucket_size` bytes (default 64, the cache line). A name takes 8 bytes " +
			"plus its length plus 2, rounded up to 8: with 64-byte buckets a 25-character name fills " +
			"a bucket alone, and some 400 sites with two names each already overflow the defaults. " +
			"nginx then warns `could not build optimal server_names_hash, you should increase either " +
			"...` and builds a slower hash; a name longer than a bucket is fatal. nginx-lint simulates " +
			"the hash exactly and suggests the smallest setting that avoids both.",
		Bad: "events {}\nhttp {\n    server { listen 80; server_name short.example; }\n" +
			"    server { listen 80; server_name " + strings.Repeat("a-very-long-name-", 4) + "example.com; }\n}\n",
		Good: "events {}\nhttp {\n    server_names_hash_bucket_size 128;\n    server { listen 80; server_name short.example; }\n" +
			"    server { listen 80; server_name " + strings.Repeat("a-very-long-name-", 4) + "example.com; }\n}\n",
	},
}

func runServerNamesHash(p *analyzer.Pass) {
	r := costModel(p)
	for _, h := range r.Hashes {
		if h.Outcome == costmodel.HashOK {
			continue
		}
		d := reportAt(p, h.Addr, "%s on %s (%d names)", h.Message, h.Addr.Key, h.Exact+h.WildcardHead+h.WildcardTail)
		if h.Outcome == costmodel.HashFatal {
			d.Severity = parser.Error
		}
		fixMax, fixBucket := h.Fix()
		// Prefer the max size for the warning (the lookup stays one
		// cache line per bucket); the fatal bucket case needs the bucket.
		switch {
		case fixMax > 0 && h.Outcome == costmodel.HashWarning:
			d.Detail = fmt.Sprintf("set server_names_hash_max_size %d; (or server_names_hash_bucket_size %d;)", fixMax, fixBucket)
			d.Edits = settingEdit(r, r.HashMaxSizeDir, "server_names_hash_max_size", fixMax)
		case fixBucket > 0:
			d.Detail = fmt.Sprintf("set server_names_hash_bucket_size %d;", fixBucket)
			d.Edits = settingEdit(r, r.HashBucketSizeDir, "server_names_hash_bucket_size", fixBucket)
		}
		// One finding per configuration: the fix covers every address.
		return
	}
}

// settingEdit changes the value of an http-level setting, or inserts it
// at the top of the http block.
func settingEdit(r *costmodel.Result, d *parser.Directive, name string, v int) []parser.Edit {
	if d != nil && len(d.Args) == 1 {
		return []parser.Edit{{File: d.File, Range: d.Args[0].Range, NewText: strconv.Itoa(v)}}
	}
	h := r.HTTPBlock
	if d != nil || h == nil || h.LBrace < 0 {
		return nil
	}
	at := h.LBrace + 1
	return []parser.Edit{{File: h.File, Range: parser.Range{Start: at, End: at},
		NewText: fmt.Sprintf("\n    %s %d;", name, v)}}
}

// DefaultStartupBudget is the startup-budget rule's budget when no option
// sets one.
const DefaultStartupBudget = time.Second

// StartupBudget reports an estimated startup above a budget.
var StartupBudget = &analyzer.Rule{
	Code: "NL4007", Name: "startup-budget", Title: "estimated startup exceeds the budget", Severity: parser.Warning,
	Run: runStartupBudget,
	Options: withCostOptions(analyzer.Option{Name: "budget", Type: analyzer.DurationOption, Default: "1s",
		Doc: "The startup time allowed (\"2s\", \"800ms\" or seconds); setting it makes a finding an error."}),
	Doc: analyzer.Doc{
		Text: "nginx-lint estimates how long nginx takes to start from the configuration alone (see " +
			"`nginx-lint cost`). The budget is the option `budget` (a duration, default 1s) or " +
			"`nginx-lint cost --startup-budget`; an explicit budget makes the finding an error, for CI " +
			"gates. Reload takes about twice as long, since the signaller and the master both read the " +
			"configuration.",
		Bad: "worker_processes 1024;\nevents { worker_connections 4096; }\nhttp {\n    server {\n" +
			repeat(160, 8, "        ", "listen 127.0.0.1:%d reuseport;") + "    }\n}\n",
		Good: "worker_processes 4;\nevents { worker_connections 4096; }\nhttp {\n    server {\n" +
			repeat(160, 8, "        ", "listen 127.0.0.1:%d reuseport;") + "    }\n}\n",
	},
}

func runStartupBudget(p *analyzer.Pass) {
	budget, explicit := durationOption(p.Options["budget"])
	if !explicit {
		budget = DefaultStartupBudget
	}
	r := costModel(p)
	est := time.Duration(r.StartupSeconds * float64(time.Second))
	if est <= budget {
		return
	}
	top := r.Contributors(1)
	msg := fmt.Sprintf("estimated startup %s exceeds the budget of %s (nginx -t %s, reload %s)",
		costmodel.Seconds(r.StartupSeconds), budget, costmodel.Seconds(r.TestSeconds), costmodel.Seconds(r.ReloadSeconds))
	var d *parser.Diagnostic
	if h := r.HTTPBlock; h != nil {
		d = p.ReportDirective(h, "%s", msg)
	} else {
		d = p.Reportf(p.Config.Main, parser.Range{}, "%s", msg)
	}
	if len(top) > 0 {
		d.Detail = "largest cost: " + top[0]
	}
	if explicit {
		d.Severity = parser.Error
	}
}

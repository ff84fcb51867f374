package costmodel

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// Cost keys: the per-operation costs a Profile prices, in seconds per
// operation (bytes for the memory keys).
const (
	CostBase        = "base"         // one nginx -t: exec, modules, logs
	CostDirective   = "directive"    // one directive read (ngx_conf_parse)
	CostInclude     = "include"      // one included file opened and read
	CostServer      = "server"       // one server: create and merge every module's conf
	CostLocation    = "location"     // one location: create and merge
	CostRegex       = "regex"        // one PCRE compilation
	CostPortCompare = "port-compare" // one step of ngx_http_add_listen's port scan
	CostAddrCompare = "addr-compare" // one ngx_cmp_sockaddr of ngx_http_add_addresses
	// CostAddrCompareFar is one step of that scan on a port with more
	// than Profile.NearAddresses addresses before the one added: the
	// port's address array no longer stays in the CPU's cache, and each
	// step costs a memory access.
	CostAddrCompareFar = "addr-compare-far"
	CostServerCompare  = "server-compare" // one step of ngx_http_add_server's scan
	CostSortCompare    = "sort-compare"   // one ngx_http_cmp_conf_addrs call
	CostNameKey        = "name-key"       // one ngx_hash_add_key of a server name
	CostNameWarning    = "name-warning"   // one "conflicting server name" log line
	CostHashProbe      = "hash-probe"     // one step of ngx_hash_init's size search
	CostSSLServer      = "ssl-server"     // one SSL context with its certificate
	CostLogFile        = "log-file"       // one log file opened
	CostSocket         = "socket"         // socket(), setsockopt, bind(), listen(), close
	CostBhashStep      = "bhash-step"     // one bind-conflict step on kernels before 6.1
	CostReloadMatch    = "reload-match"   // one old/new listening comparison at reload
	CostReloadWait     = "reload-wait"    // the master's sleep before stopping old workers
	MemBase            = "memory-base"    // bytes of an empty configuration
	MemServer          = "memory-server"  // bytes per server
	MemSocket          = "memory-socket"  // bytes per address/socket
	MemLocation        = "memory-location"
)

// Profile is a set of per-operation costs measured on one machine.
type Profile struct {
	// Source says where the numbers come from: nginx version, kernel, CPU.
	Source string `json:"source"`
	// Costs maps a cost key to seconds per operation (bytes for memory).
	Costs map[string]float64 `json:"costs"`
	// Assumed lists the keys that nobody measured on the source machine:
	// their values are order-of-magnitude guesses, shown as such.
	Assumed []string `json:"assumed,omitempty"`
	// Measured is the smallest and largest server count nginx was timed
	// at for this profile (fitted or validated on held-out runs); the
	// model is extrapolated outside it. Zero when unknown.
	Measured [2]int `json:"measured_servers,omitzero"`
	// NearAddresses is the most addresses ngx_http_add_addresses scans
	// at the addr-compare cost: a scan of a port with more addresses
	// before the new one costs addr-compare-far a step (its array no
	// longer in the cache). Zero prices every step at addr-compare.
	NearAddresses int `json:"near_addresses,omitempty"`
}

// referenceMeasured is the range of server counts the reference profile
// was timed at: fitted at 1000 to 12000, validated up to 19900.
var referenceMeasured = [2]int{1000, 19900}

// referenceNear is where the reference machine's address scan leaves
// its cache (Profile.NearAddresses), as calibrate chose it there.
const referenceNear = 5000

// Cost returns the cost of key, 0 if the profile does not know it.
func (p *Profile) Cost(key string) float64 { return p.Costs[key] }

// IsAssumed reports whether key's cost is a guess rather than a measurement.
func (p *Profile) IsAssumed(key string) bool { return slices.Contains(p.Assumed, key) }

// ReferenceSource describes the machine DefaultProfile was measured on.
const ReferenceSource = "nginx 1.22.1 (Debian), Linux 6.18.44, 2 vCPUs (shared, load average 15-27): CPU time of nginx -t, " +
	"fitted by nginx-lint calibrate on 2026-12-05 on the nine benchmark layouts at 1000, 3000, 6000 and 12000 servers; " +
	"locations and SSL (one shared RSA-2048 certificate) priced on L3c with 3000 servers; memory fitted on 2026-12-02"

// defaultCosts were fitted by Fit on `nginx -t` timings of the nine layouts
// on the reference machine (see ReferenceSource; `nginx-lint calibrate
// --validate`, 2026-12-05, docs/cost-model.md has the run); the keys in
// defaultAssumed were not measured there and are order-of-magnitude
// guesses, name-warning and regex too small a difference for that run to
// tell from its noise (kept from the 2026-12-02 fit). The memory costs
// are the 2026-12-02 fit's, which follows the large layouts' peak
// resident sets. reload-wait is the 100 ms sleep in
// ngx_master_process_cycle.
var defaultCosts = map[string]float64{
	CostBase:           0.483e-3,
	CostDirective:      0.3e-6,
	CostInclude:        20e-6,
	CostServer:         22.6e-6,
	CostLocation:       14.6e-6,
	CostRegex:          4.3e-6,
	CostPortCompare:    1.60e-9,
	CostAddrCompare:    4.28e-9,
	CostAddrCompareFar: 9.47e-9,
	CostServerCompare:  0.912e-9,
	CostSortCompare:    2e-9,
	CostNameKey:        0.2e-6,
	CostNameWarning:    0.16e-6,
	CostHashProbe:      2e-9,
	CostSSLServer:      0.698e-3,
	CostLogFile:        20e-6,
	CostSocket:         8.73e-6,
	CostBhashStep:      20e-9,
	CostReloadMatch:    1e-9,
	CostReloadWait:     0.1,
	MemBase:            7.16e6,
	MemServer:          13.46e3,
	MemSocket:          1.09e3,
	MemLocation:        4e3,
}

var defaultAssumed = []string{CostDirective, CostInclude, CostSortCompare, CostNameKey, CostHashProbe,
	CostLogFile, CostBhashStep, CostReloadMatch, MemLocation}

// DefaultProfile returns a copy of the shipped reference profile.
func DefaultProfile() *Profile {
	return &Profile{Source: ReferenceSource, Costs: maps.Clone(defaultCosts), Assumed: slices.Clone(defaultAssumed), Measured: referenceMeasured, NearAddresses: referenceNear}
}

// ParseProfile reads a profile written by MarshalProfile (nginx-lint
// calibrate). Keys it lacks keep their default values.
func ParseProfile(data []byte) (*Profile, error) {
	var p Profile
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("cost profile: %w", err)
	}
	d := DefaultProfile()
	for k, v := range p.Costs {
		if _, ok := d.Costs[k]; !ok {
			return nil, fmt.Errorf("cost profile: unknown cost %q", k)
		}
		if v < 0 {
			return nil, fmt.Errorf("cost profile: negative cost %q", k)
		}
		d.Costs[k] = v
	}
	if p.Source != "" {
		d.Source = p.Source
	}
	// A profile fitted with the far step of the address scan says where
	// it starts; one fitted without it (an older file) priced every step
	// at its addr-compare, and keeps doing so.
	if _, far := p.Costs[CostAddrCompareFar]; far {
		d.NearAddresses = p.NearAddresses
	} else if _, addr := p.Costs[CostAddrCompare]; addr {
		d.NearAddresses = 0
	}
	if d.NearAddresses < 0 {
		return nil, fmt.Errorf("cost profile: near_addresses %d is negative", d.NearAddresses)
	}
	// A profile says which sizes it was timed at; one that does not (an
	// older file) leaves the range unknown rather than claiming the
	// reference machine's.
	d.Measured = p.Measured
	if p.Measured[0] < 0 || p.Measured[1] < p.Measured[0] {
		return nil, fmt.Errorf("cost profile: measured_servers %v is not a range", p.Measured)
	}
	// A key the profile measured is no longer an assumption; a key it
	// lacks keeps its default status.
	d.Assumed = slices.DeleteFunc(d.Assumed, func(k string) bool {
		_, measured := p.Costs[k]
		return measured && !slices.Contains(p.Assumed, k)
	})
	for _, k := range p.Assumed {
		if !slices.Contains(d.Assumed, k) {
			d.Assumed = append(d.Assumed, k)
		}
	}
	return d, nil
}

// MarshalProfile writes p as indented JSON.
func MarshalProfile(p *Profile) ([]byte, error) {
	return json.MarshalIndent(p, "", "  ")
}

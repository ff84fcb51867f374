package analyzer

import (
	"fmt"
	"maps"
)

// Host are the facts about the machine nginx runs on that the startup
// cost model reads: run-wide, like Target, so every rule, nginx-lint cost
// and the language server read one model. The settings' host: section
// gives them, and nginx-lint cost's flags over it. The zero Host is a
// root nginx on a machine nothing is known of.
type Host struct {
	// NonRoot says nginx does not run as root, so a server without listen
	// gets *:8000 instead of *:80 (ngx_http_core_merge_srv_conf).
	NonRoot bool
	// NoFile is the master's open-file limit (ulimit -n); 0 is unknown,
	// and 1024, the soft limit systemd gives services, is assumed.
	NoFile int
	// CPUs is what worker_processes auto resolves to; 0 is unknown.
	CPUs int
	// Kernel is the Linux version nginx runs on ("5.15"); "" is 6.1 or
	// later.
	Kernel string
}

// HostFacts declares the keys of the settings' host: section, each with
// its type, default and meaning, in Host's order.
var HostFacts = []Option{
	{Name: "nonroot", Type: BoolType, Default: "false", Doc: "nginx runs as a user other than root, so ports below 1024 cannot be bound."},
	{Name: "nofile", Type: IntType, Default: "0", Doc: "The open-files limit (ulimit -n) nginx starts with; 0 means unknown."},
	{Name: "cpus", Type: IntType, Default: "0", Doc: "CPUs of the host, for worker_processes auto; 0 means unknown."},
	{Name: "kernel", Type: StringType, Default: "", Doc: "The host's Linux kernel version (\"6.1\"), for the socket options it supports."},
}

// LookupHostFact returns the declaration of the host fact called name,
// nil when there is none.
func LookupHostFact(name string) *Option {
	for i := range HostFacts {
		if HostFacts[i].Name == name {
			return &HostFacts[i]
		}
	}
	return nil
}

// HostAliases are the host facts as options of a rule: the cost rules
// took them there before the settings had a host: section, and still
// accept them, deprecated (Option.HostFact), each setting the run's Host.
func HostAliases() []Option {
	out := make([]Option, len(HostFacts))
	for i, o := range HostFacts {
		o.HostFact = true
		o.Doc = "Deprecated: write it under `host:` in the settings. " + o.Doc
		out[i] = o
	}
	return out
}

// Set sets the fact called name to v, converted to its type as the
// settings' values are.
func (h *Host) Set(name string, v any) error {
	o := LookupHostFact(name)
	if o == nil {
		return fmt.Errorf("no host fact %q", name)
	}
	cv, err := o.Convert(v)
	if err != nil {
		return err
	}
	switch name {
	case "nonroot":
		h.NonRoot = cv.(bool)
	case "nofile":
		h.NoFile = cv.(int)
	case "cpus":
		h.CPUs = cv.(int)
	case "kernel":
		h.Kernel = cv.(string)
	}
	return nil
}

// Over returns h with the facts o gives laid over it: NonRoot when set,
// and every non-zero field. A front end's flags go over the settings'.
func (h Host) Over(o Host) Host {
	h.NonRoot = h.NonRoot || o.NonRoot
	if o.NoFile > 0 {
		h.NoFile = o.NoFile
	}
	if o.CPUs > 0 {
		h.CPUs = o.CPUs
	}
	if o.Kernel != "" {
		h.Kernel = o.Kernel
	}
	return h
}

// Input declares a run-wide value of a type the core does not know,
// given by a front end and read by rules: the cost rules' calibration
// profile (costpass.Profile). It is declared once, as a package-level
// value, in the package that knows the type, so the core carries the
// value without importing that package.
type Input[T any] struct {
	// Name says what the value is.
	Name string
}

// Set makes opts give v as in's value. Options are copied by value and
// share their maps: Set replaces the map rather than writing into it.
func (in *Input[T]) Set(opts *Options, v T) {
	m := make(map[any]any, len(opts.inputs)+1)
	maps.Copy(m, opts.inputs)
	m[in] = v
	opts.inputs = m
}

// Get returns in's value in p's run, the zero value when none was given.
func (in *Input[T]) Get(p *Pass) T {
	v, _ := p.inputs[in].(T)
	return v
}

// Of returns in's value in opts, the zero value when none was given.
func (in *Input[T]) Of(opts Options) T {
	v, _ := opts.inputs[in].(T)
	return v
}

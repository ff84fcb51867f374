package analyzer

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// OptionType is the kind of value a rule option takes.
type OptionType int

// Option types. The settings file's YAML values are converted to the Go
// type named in each comment before a rule sees them.
const (
	BoolOption       OptionType = iota + 1 // bool
	IntOption                              // int
	StringOption                           // string
	StringListOption                       // []string
	DurationOption                         // time.Duration ("1.5s", "800ms", or a number of seconds)
)

func (t OptionType) String() string {
	switch t {
	case BoolOption:
		return "boolean"
	case IntOption:
		return "integer"
	case StringOption:
		return "string"
	case StringListOption:
		return "list of strings"
	case DurationOption:
		return "duration"
	}
	return "unknown"
}

func (t OptionType) article() string {
	if t == IntOption {
		return "an " + t.String()
	}
	if t == StringListOption {
		return t.String()
	}
	return "a " + t.String()
}

// Option declares one option of a rule: what `explain` lists and what the
// settings file is checked against.
type Option struct {
	// Name is kebab-case, as written under "options:".
	Name string
	Type OptionType
	// Default is the value used when the option is not set, as a user
	// would write it ("100", "false", "" for none).
	Default string
	// Doc says what the option does, in one or two sentences.
	Doc string
	// Deprecated are former names, still accepted with a warning.
	Deprecated []string
}

// DefaultValue returns the option's default converted to its Go type, and
// false when it has none ("").
func (o *Option) DefaultValue() (any, bool) {
	switch {
	case o.Default == "":
		return nil, false
	case o.Type == StringListOption:
		// Written as a YAML flow list: "[]", "[a, b]".
		var out []string
		for _, s := range strings.Split(strings.Trim(o.Default, "[]"), ",") {
			if s = strings.Trim(strings.TrimSpace(s), `"`); s != "" {
				out = append(out, s)
			}
		}
		return out, true
	}
	v, err := o.Convert(o.Default)
	return v, err == nil
}

// Option returns the value of the running rule's option called name: the
// settings' value, else the default its declaration gives (nil when it
// declares none). The default is written once, in the declaration, which
// explain and the documentation print.
func (p *Pass) Option(name string) any {
	if v, ok := p.Options[name]; ok {
		return v
	}
	if p.Rule != nil {
		if o, _ := p.Rule.LookupOption(name); o != nil {
			if v, ok := o.DefaultValue(); ok {
				return v
			}
		}
	}
	return nil
}

// LookupOption finds the rule's option called name. deprecated is true
// when name is a former name of the option.
func (r *Rule) LookupOption(name string) (opt *Option, deprecated bool) {
	for i := range r.Options {
		o := &r.Options[i]
		if o.Name == name {
			return o, false
		}
		for _, old := range o.Deprecated {
			if old == name {
				return o, true
			}
		}
	}
	return nil, false
}

// Convert checks a value read from a settings file against the option's
// type and returns it as the Go type the type names.
func (o *Option) Convert(v any) (any, error) {
	bad := func() error {
		return fmt.Errorf("option %q wants %s, not %s", o.Name, o.Type.article(), describe(v))
	}
	switch o.Type {
	case BoolOption:
		if b, ok := v.(bool); ok {
			return b, nil
		}
		if s, ok := v.(string); ok {
			switch strings.ToLower(s) {
			case "true", "yes", "on":
				return true, nil
			case "false", "no", "off":
				return false, nil
			}
		}
		return nil, bad()
	case IntOption:
		switch x := v.(type) {
		case int:
			return x, nil
		case int64:
			return int(x), nil
		case uint64:
			if x <= math.MaxInt32 {
				return int(x), nil
			}
		case float64:
			if x == math.Trunc(x) && math.Abs(x) < 1<<31 {
				return int(x), nil
			}
		case string:
			if n, err := strconv.Atoi(x); err == nil {
				return n, nil
			}
		}
		return nil, bad()
	case StringOption:
		if s, ok := v.(string); ok {
			return s, nil
		}
		return nil, bad()
	case StringListOption:
		switch x := v.(type) {
		case string:
			return []string{x}, nil
		case []string:
			return x, nil
		case []any:
			out := make([]string, 0, len(x))
			for _, e := range x {
				s, ok := e.(string)
				if !ok {
					return nil, bad()
				}
				out = append(out, s)
			}
			return out, nil
		}
		return nil, bad()
	case DurationOption:
		switch x := v.(type) {
		case time.Duration:
			return x, nil
		case string:
			if d, err := time.ParseDuration(x); err == nil {
				return d, nil
			}
			if f, err := strconv.ParseFloat(x, 64); err == nil {
				return time.Duration(f * float64(time.Second)), nil
			}
		case int:
			return time.Duration(x) * time.Second, nil
		case int64:
			return time.Duration(x) * time.Second, nil
		case float64:
			return time.Duration(x * float64(time.Second)), nil
		}
		return nil, bad()
	}
	return v, nil
}

// describe names a YAML value's kind for a message.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "nothing"
	case bool:
		return fmt.Sprintf("the boolean %v", x)
	case string:
		return fmt.Sprintf("the string %q", x)
	case int, int64, uint64, float64:
		return fmt.Sprintf("the number %v", x)
	case []any:
		return "a list"
	case map[string]any:
		return "a mapping"
	}
	return fmt.Sprintf("%T", v)
}

// CheckOptions converts options given by name (as a settings file or a
// test writes them) to their declared types, under their current names.
// renamed lists the deprecated names that were used.
func (r *Rule) CheckOptions(in map[string]any) (out map[string]any, renamed []string, err error) {
	out = make(map[string]any, len(in))
	for k, v := range in {
		opt, deprecated := r.LookupOption(k)
		if opt == nil {
			return nil, nil, fmt.Errorf("rule %q has no option %q", r.Name, k)
		}
		cv, err := opt.Convert(v)
		if err != nil {
			return nil, nil, fmt.Errorf("rule %q: %v", r.Name, err)
		}
		if deprecated {
			renamed = append(renamed, k)
		}
		out[opt.Name] = cv
	}
	return out, renamed, nil
}

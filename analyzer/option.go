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
	BoolType       OptionType = iota + 1 // bool
	IntType                              // int
	StringType                           // string
	StringListType                       // []string
	DurationType                         // time.Duration ("1.5s", "800ms", or a number of seconds)
)

func (t OptionType) String() string {
	switch t {
	case BoolType:
		return "boolean"
	case IntType:
		return "integer"
	case StringType:
		return "string"
	case StringListType:
		return "list of strings"
	case DurationType:
		return "duration"
	}
	return "unknown"
}

func (t OptionType) article() string {
	if t == IntType {
		return "an " + t.String()
	}
	if t == StringListType {
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
	// HostFact marks a host fact (see HostAliases) accepted under a
	// rule, its former place: it sets the run's Host, not the rule's
	// options, and the settings warn that it belongs under host:.
	HostFact bool
}

// DefaultValue returns the option's default converted to its Go type, and
// false when it has none ("").
func (o *Option) DefaultValue() (any, bool) {
	switch {
	case o.Default == "":
		return nil, false
	case o.Type == StringListType:
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

// TypedOption is a rule option with the Go type of its value, declared
// once as a package-level value beside the rule that reads it:
//
//	var maxSockets = analyzer.IntOption("max-sockets", 1000, "...")
//
// The rule lists maxSockets.Decl() in its Options (what explain, the
// reference and the settings check read) and reads maxSockets.Get(p): the
// settings' value converted to T, else the default, never a name and a
// type assertion.
type TypedOption[T any] struct {
	decl Option
	def  T
}

func newOption[T any](name string, typ OptionType, def T, text, doc string) *TypedOption[T] {
	return &TypedOption[T]{decl: Option{Name: name, Type: typ, Default: text, Doc: doc}, def: def}
}

// BoolOption declares an option that is true or false.
func BoolOption(name string, def bool, doc string) *TypedOption[bool] {
	return newOption(name, BoolType, def, strconv.FormatBool(def), doc)
}

// IntOption declares an option that is a whole number.
func IntOption(name string, def int, doc string) *TypedOption[int] {
	return newOption(name, IntType, def, strconv.Itoa(def), doc)
}

// StringOption declares an option that is one string ("" for none).
func StringOption(name, def, doc string) *TypedOption[string] {
	return newOption(name, StringType, def, def, doc)
}

// StringListOption declares an option that is a list of strings.
func StringListOption(name string, def []string, doc string) *TypedOption[[]string] {
	return newOption(name, StringListType, def, "["+strings.Join(def, ", ")+"]", doc)
}

// DurationOption declares an option that is a span of time.
func DurationOption(name string, def time.Duration, doc string) *TypedOption[time.Duration] {
	return newOption(name, DurationType, def, def.String(), doc)
}

// Renamed returns o with former names, still accepted in the settings
// with a warning.
func (o *TypedOption[T]) Renamed(old ...string) *TypedOption[T] {
	o.decl.Deprecated = append(o.decl.Deprecated, old...)
	return o
}

// Decl is the option's declaration, for the rule's Options.
func (o *TypedOption[T]) Decl() Option { return o.decl }

// Default is the value the option has when the settings give none.
func (o *TypedOption[T]) Default() T { return o.def }

// Name is the option's name as the settings write it.
func (o *TypedOption[T]) Name() string { return o.decl.Name }

// Get returns the option's value for the running rule: the settings'
// value, else the default. A value not yet converted (a test's raw
// YAML-like value) is converted as the settings' are.
func (o *TypedOption[T]) Get(p *Pass) T {
	if v, ok := o.lookup(p.Options); ok {
		return v
	}
	return o.def
}

// From returns the option's value in m, a rule's options as
// Options.RuleOptions holds them, else the default: for the code that
// reads a rule's option outside its Run (the suppression filter reads
// ignore-without-reason's).
func (o *TypedOption[T]) From(m map[string]any) T {
	if v, ok := o.lookup(m); ok {
		return v
	}
	return o.def
}

// Given reports whether the settings give the option a value (a budget
// the user set is a gate; the default is advice).
func (o *TypedOption[T]) Given(p *Pass) bool {
	_, ok := o.lookup(p.Options)
	return ok
}

// lookup returns the value m gives the option, converted to T.
func (o *TypedOption[T]) lookup(m map[string]any) (T, bool) {
	v, ok := m[o.decl.Name]
	if !ok {
		var zero T
		return zero, false
	}
	if t, ok := v.(T); ok {
		return t, true
	}
	cv, err := o.decl.Convert(v)
	t, ok := cv.(T)
	return t, err == nil && ok
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
	case BoolType:
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
	case IntType:
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
	case StringType:
		if s, ok := v.(string); ok {
			return s, nil
		}
		return nil, bad()
	case StringListType:
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
	case DurationType:
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

package grammar

// ListenParams returns the parameters the listen directive of ctx knows
// in the newest nginx, as they are written: "ssl", "backlog=" (a
// parameter that takes a value ends in "="), in the order of ParamKind.
// Editors offer them as completions and as fixes for a misspelt one.
func ListenParams(ctx Context) []string {
	var out []string
	for k := ParamKind(1); k < numParamKinds; k++ {
		if !ctx.Accepts(k) {
			continue
		}
		name := k.String()
		if _, ok := valueKinds[name]; ok || k == ParamIPv6Only {
			name += "="
		}
		out = append(out, name)
	}
	return out
}

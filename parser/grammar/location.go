package grammar

// LocationModifier is a location's match modifier. Its String is the
// modifier as written in nginx.conf, so it can be printed directly. (It
// is a byte rather than the string: the typed model holds a Location for
// every location of a configuration, a million in a big one.)
type LocationModifier uint8

const (
	// ModNone is a plain prefix match: location /images/.
	ModNone LocationModifier = iota
	// ModExact is "=": the URI must equal the path.
	ModExact
	// ModPrefixNoRegex is "^~": a prefix match that, when it is the longest
	// prefix, stops the regex search.
	ModPrefixNoRegex
	// ModRegex is "~": a case-sensitive regex.
	ModRegex
	// ModRegexCaseless is "~*": a case-insensitive regex.
	ModRegexCaseless
	// ModNamed is "@": a named location, only reachable by internal
	// redirects (try_files, error_page, ...). It is written as part of the
	// name, never as a separate argument.
	ModNamed
)

var modifierText = [...]string{ModNone: "", ModExact: "=", ModPrefixNoRegex: "^~", ModRegex: "~", ModRegexCaseless: "~*", ModNamed: "@"}

// String returns the modifier as written in nginx.conf ("" for ModNone).
func (m LocationModifier) String() string {
	if int(m) < len(modifierText) {
		return modifierText[m]
	}
	return ""
}

// Location is the typed form of a location directive's arguments.
//
// The string comes first so that the modifier and the flags share a word.
type Location struct {
	// Path is the URI prefix or exact URI, the regex pattern (without the
	// modifier), or for a named location the name including its '@', which
	// is how nginx stores and prints it.
	Path string
	// Modifier is the match modifier.
	Modifier LocationModifier
	// IsRegex is true for ModRegex and ModRegexCaseless.
	IsRegex bool
	// CaseInsensitive is true for ModRegexCaseless.
	CaseInsensitive bool
	// Named is true for ModNamed.
	Named bool
	// Glued is true when the modifier was written attached to the path, as
	// in "location =/favicon.ico" or "location ~*\.png$"; nginx accepts
	// this, but it is easy to misread.
	Glued bool
}

// ParseLocation parses the arguments of a location directive (without the
// block) as ngx_http_core_location does:
//
//   - two arguments: the first must be exactly "=", "^~", "~" or "~*",
//     otherwise `invalid location modifier "X"` (so "@" is not a modifier
//     there, and "= @x" is an exact match on "@x");
//   - one argument: a leading "=", "^~", "~*" or "~" is taken as a glued
//     modifier (so "=" alone is an exact match on "", and "~" alone an
//     empty regex), a leading '@' makes a named location, anything else is
//     a prefix;
//   - any other count: `invalid number of arguments in "location"
//     directive`.
//
// Regex syntax is not checked: nginx compiles with PCRE, whose dialect Go
// cannot reproduce. Errors are *Error values.
func ParseLocation(args []string) (Location, error) {
	switch len(args) {
	case 2:
		loc := Location{Path: args[1]}
		switch args[0] {
		case "=":
			loc.Modifier = ModExact
		case "^~":
			loc.Modifier = ModPrefixNoRegex
		case "~":
			loc.Modifier, loc.IsRegex = ModRegex, true
		case "~*":
			loc.Modifier, loc.IsRegex, loc.CaseInsensitive = ModRegexCaseless, true, true
		default:
			return Location{}, newError(0, "invalid location modifier ", args[0], "")
		}
		return loc, nil
	case 1:
		return parseGluedLocation(args[0]), nil
	}
	return Location{}, &Error{Arg: -1, Msg: `invalid number of arguments in "location" directive`}
}

// parseGluedLocation handles the single-argument form. The tests are in
// nginx's order, which matters: "^~" is checked before '~', and "~*" is
// '~' followed by '*'.
func parseGluedLocation(s string) Location {
	switch {
	case len(s) >= 1 && s[0] == '=':
		return Location{Modifier: ModExact, Path: s[1:], Glued: true}
	case len(s) >= 2 && s[0] == '^' && s[1] == '~':
		return Location{Modifier: ModPrefixNoRegex, Path: s[2:], Glued: true}
	case len(s) >= 2 && s[0] == '~' && s[1] == '*':
		return Location{Modifier: ModRegexCaseless, Path: s[2:], IsRegex: true, CaseInsensitive: true, Glued: true}
	case len(s) >= 1 && s[0] == '~':
		return Location{Modifier: ModRegex, Path: s[1:], IsRegex: true, Glued: true}
	case len(s) >= 1 && s[0] == '@':
		return Location{Modifier: ModNamed, Path: s, Named: true}
	}
	return Location{Modifier: ModNone, Path: s}
}

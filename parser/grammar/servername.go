package grammar

import "strings"

// ServerNameKind is the form of one server_name argument, which decides
// which of nginx's lookup tables it goes into and in what order it is
// matched (exact, then *.head, then tail.*, then regexes in order).
type ServerNameKind uint8

const (
	// NameExact is a plain name such as "example.com".
	NameExact ServerNameKind = iota + 1
	// NameWildcardHead is "*.example.com".
	NameWildcardHead
	// NameWildcardTail is "www.example.*".
	NameWildcardTail
	// NameDotWildcard is ".example.com", which nginx treats as both
	// "example.com" and "*.example.com".
	NameDotWildcard
	// NameRegex is "~pattern".
	NameRegex
	// NameEmpty is "", which matches requests without a Host header.
	NameEmpty
)

var serverNameKindNames = [...]string{"", "exact", "wildcard-head", "wildcard-tail", "dot-wildcard", "regex", "empty"}

// String returns a short name such as "wildcard-head", for messages.
func (k ServerNameKind) String() string {
	if int(k) < len(serverNameKindNames) && k != 0 {
		return serverNameKindNames[k]
	}
	return "invalid"
}

// ServerName is the typed form of one server_name argument.
type ServerName struct {
	// Raw is the argument as given.
	Raw string
	// Name is what nginx stores: the lower-cased name for every kind but
	// NameRegex ("*.example.com", ".example.com", "www.example.*" keep their
	// wildcard characters), and the pattern without the leading '~' for
	// NameRegex. It shares Raw's memory unless lower-casing changed it.
	Name string
	// Domain is the fixed part a wildcard matches against: "example.com"
	// for "*.example.com" and ".example.com", "www.example" for
	// "www.example.*"; for NameExact it equals Name and for NameRegex and
	// NameEmpty it is "".
	Domain string
	// Kind is the form of the name.
	Kind ServerNameKind
	// CaseInsensitive is set for a regex containing an upper-case ASCII
	// letter: nginx then compiles it caseless, because host names are
	// lower-cased before matching and the pattern could otherwise never
	// match.
	CaseInsensitive bool
	// Hostname is set for "$hostname" (any case), which nginx replaces with
	// the machine's host name.
	Hostname bool
	// Placeholder is set for a valid exact name with no ASCII letter or
	// digit, such as "_" or "-": the conventional "matches no real host" name used
	// with default_server. nginx gives it no special meaning; it simply
	// never equals a real host name.
	Placeholder bool
	// Suspicious is set when the name contains '/', for which nginx warns
	// `server name "X" has suspicious symbols`.
	Suspicious bool
}

// ParseServerName classifies one server_name argument (quotes already
// removed) the way ngx_http_core_server_name and ngx_hash_add_key do. It
// never fails: names nginx rejects still get the kind their shape suggests
// (Exact if nothing else fits), and Validate reports the problem.
//
// It makes one pass over the name and allocates only when an exact or
// wildcard name contains upper-case letters.
func ParseServerName(name string) ServerName {
	sn := ServerName{Raw: name, Name: name}
	if name == "" {
		sn.Kind = NameEmpty
		return sn
	}
	if name[0] == '~' {
		sn.Kind = NameRegex
		sn.Name = name[1:]
		f := classify(name[1:])
		sn.CaseInsensitive = f&clUpper != 0
		sn.Suspicious = f&clSlash != 0
		return sn
	}
	f := classify(name)
	sn.Suspicious = f&clSlash != 0
	if f&clUpper != 0 {
		// nginx lower-cases only ASCII (ngx_strlow), unlike strings.ToLower.
		sn.Name = asciiLower(name)
	}
	n := sn.Name
	// The order of these tests is ngx_hash_add_key's.
	switch {
	case len(n) > 1 && n[0] == '.':
		sn.Kind, sn.Domain = NameDotWildcard, n[1:]
	case len(n) > 2 && n[0] == '*' && n[1] == '.':
		sn.Kind, sn.Domain = NameWildcardHead, n[2:]
	case len(n) > 2 && n[len(n)-2] == '.' && n[len(n)-1] == '*':
		sn.Kind, sn.Domain = NameWildcardTail, n[:len(n)-2]
	default:
		sn.Kind, sn.Domain = NameExact, n
		sn.Hostname = n == "$hostname"
		// "*" and "." are errors, not placeholders.
		sn.Placeholder = f&(clAlnum|clStar) == 0 && n != "."
	}
	return sn
}

// Character classes for classify.
const (
	clUpper = 1 << iota // ASCII upper-case letter
	clAlnum             // ASCII letter or digit
	clSlash             // '/'
	clStar              // '*'
)

// charClass maps each byte to its classes; a table lookup ORed into an
// accumulator keeps the per-byte loop free of branches, which halves the
// cost of classifying a name.
var charClass = func() (t [256]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = clAlnum
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = clUpper | clAlnum
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = clAlnum
	}
	t['/'] = clSlash
	t['*'] = clStar
	return t
}()

// classify returns the union of the classes of the bytes of s.
func classify(s string) uint8 {
	var f uint8
	for i := 0; i < len(s); i++ {
		f |= charClass[s[i]]
	}
	return f
}

// asciiLower lower-cases ASCII letters only, as ngx_strlow does.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// Validate reports what nginx rejects, in the order it checks:
// ngx_http_core_server_name refuses `server name "*" is invalid` (a '*'
// not followed by '.', or too short), `server name "." is invalid` and
// `empty regex in server name "~"`; ngx_http_server_names (via
// ngx_hash_add_key) refuses `invalid server name or wildcard "X"` for more
// than one '*', a '*' anywhere but "*." at the start or ".*" at the end,
// "..", or a NUL byte. Regex syntax is not checked: nginx compiles with
// PCRE, whose dialect Go cannot reproduce. The returned error is an *Error
// with Arg 0.
func (sn ServerName) Validate() error {
	if err := sn.DirectiveError(); err != nil || sn.Kind == NameRegex {
		return err
	}
	if sn.Raw != "" && !sn.ValidHashKey() {
		return newError(0, "invalid server name or wildcard ", sn.Raw, "")
	}
	return nil
}

// DirectiveError is the part of Validate that the server_name directive
// itself checks, on every server (ngx_http_core_server_name and its
// stream twin): `server name "*" is invalid`, `server name "." is
// invalid` and `empty regex in server name "~"`. The hash key is checked
// only when an address's name hash is built (see Validate).
func (sn ServerName) DirectiveError() error {
	raw := sn.Raw
	if raw == "" {
		return nil
	}
	switch raw[0] {
	case '*':
		if len(raw) < 3 || raw[1] != '.' {
			return newError(0, "server name ", raw, " is invalid")
		}
	case '.':
		if len(raw) < 2 {
			return newError(0, "server name ", raw, " is invalid")
		}
	case '~':
		if len(raw) == 1 {
			return newError(0, "empty regex in server name ", raw, "")
		}
	}
	return nil
}

// ValidHashKey reports whether ngx_hash_add_key takes the name as a key
// of a hash with wildcards (server names, valid_referers): at most one
// '*', and only in a head or tail wildcard; no "..", no NUL byte.
func (sn ServerName) ValidHashKey() bool {
	raw := sn.Raw
	// One pass for ngx_hash_add_key's three character checks.
	stars := 0
	var prev byte
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c == '*' {
			stars++
		}
		if stars > 1 || c == 0 || (c == '.' && prev == '.') {
			return false
		}
		prev = c
	}
	// A single '*' that did not make a head or tail wildcard.
	return stars == 0 || sn.Kind != NameExact
}

// HashKey is a key of one of nginx's host-name hashes
// (ngx_hash_add_key with NGX_HASH_WILDCARD_KEY: the server names of an
// address, the hosts of valid_referers): its table ('=' exact, '*' head
// wildcard "*.example.com", '.' tail wildcard "www.example.*") and the
// name nginx stores there. A pair rather than the two joined: no string
// is built per name.
type HashKey struct {
	Table byte
	Name  string
}

// HashKeys returns the keys under which ngx_hash_add_key files sn (the
// first n of keys), in the order it checks them: ".example.com" is the
// exact example.com and the head wildcard example.com at once. A key
// already taken refuses the name there (NGX_BUSY: "conflicting server
// name"), the keys before it staying taken. Regexes, "$hostname" and an
// exact name with a '*' get none (the last is refused as a whole:
// Validate).
func (sn ServerName) HashKeys() (keys [2]HashKey, n int) {
	switch sn.Kind {
	case NameExact:
		if sn.Hostname || strings.ContainsRune(sn.Name, '*') {
			return keys, 0
		}
		return [2]HashKey{{'=', sn.Name}}, 1
	case NameEmpty:
		return [2]HashKey{{'=', ""}}, 1
	case NameDotWildcard:
		return [2]HashKey{{'=', sn.Domain}, {'*', sn.Domain}}, 2
	case NameWildcardHead:
		return [2]HashKey{{'*', sn.Domain}}, 1
	case NameWildcardTail:
		return [2]HashKey{{'.', sn.Domain}}, 1
	}
	return keys, 0
}

// HostKeys is a keys array of ngx_hash_add_key with NGX_HASH_WILDCARD_KEY,
// as valid_referers and a map with "hostnames" fill it: the exact names,
// the "*.example.com" and ".example.com" names (by their part after the
// prefix) and the "www.example.*" names (by their part before it). The
// zero value is empty.
type HostKeys struct {
	taken map[HashKey]bool
}

// Len is the number of keys taken.
func (k *HostKeys) Len() int { return len(k.taken) }

// Add adds key as ngx_hash_add_key does and returns nginx's message when
// it refuses the key (`invalid hostname or wildcard "a.*.b"`,
// `conflicting parameter "*.example.com"`), "" when it takes it.
func (k *HostKeys) Add(key string) string {
	sn := ParseServerName(key)
	if !sn.ValidHashKey() {
		return `invalid hostname or wildcard "` + key + `"`
	}
	hks, n := sn.HashKeys()
	if sn.Hostname {
		// Only server_name expands "$hostname": here it is a host like
		// any other.
		hks, n = [2]HashKey{{Table: '=', Name: sn.Name}}, 1
	}
	// nginx stops at the first conflict, so what it would take after one
	// is what it takes once the conflict is fixed: the host's keys all
	// or none (".a.com" after "*.a.com" leaves a.com free).
	for _, hk := range hks[:n] {
		if k.taken[hk] {
			return `conflicting parameter "` + shownKey(sn) + `"`
		}
	}
	if k.taken == nil {
		k.taken = map[HashKey]bool{}
	}
	for _, hk := range hks[:n] {
		k.taken[hk] = true
	}
	return ""
}

// AddExact adds key as ngx_hash_add_key without NGX_HASH_WILDCARD_KEY
// does (a map without "hostnames"): an exact key, compared without case;
// "" or nginx's `conflicting parameter "key"`.
func (k *HostKeys) AddExact(key string) string {
	hk := HashKey{Table: '=', Name: asciiLower(key)}
	if k.taken[hk] {
		return `conflicting parameter "` + hk.Name + `"`
	}
	if k.taken == nil {
		k.taken = map[HashKey]bool{}
	}
	k.taken[hk] = true
	return ""
}

// shownKey is a host as nginx prints it in "conflicting parameter": lower
// case, a URI part cut.
func shownKey(sn ServerName) string {
	switch sn.Kind {
	case NameDotWildcard:
		return "." + sn.Domain
	case NameWildcardHead:
		return "*." + sn.Domain
	case NameWildcardTail:
		return sn.Domain + ".*"
	}
	return sn.Domain
}

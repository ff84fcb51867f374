package openssl

import (
	"errors"
	"strings"
)

// cipherSet is a set of ciphers by their index in cipherNames.
type cipherSet [cipherWords]uint64

func (s *cipherSet) or(o cipherSet) {
	for i := range s {
		s[i] |= o[i]
	}
}

func (s *cipherSet) andNot(o cipherSet) {
	for i := range s {
		s[i] &^= o[i]
	}
}

func (s cipherSet) and(o cipherSet) cipherSet {
	for i := range s {
		s[i] &= o[i]
	}
	return s
}

func (s cipherSet) empty() bool {
	for _, w := range s {
		if w != 0 {
			return false
		}
	}
	return true
}

// ErrNoCipherMatch is OpenSSL's "no cipher match": the list selects no
// cipher of TLS 1.2 or older.
var ErrNoCipherMatch = errors.New("no cipher match")

// ErrInvalidCommand is OpenSSL's "invalid command": a word of the list
// starts with a character no cipher, alias or command has, or an "@"
// command is not @STRENGTH or @SECLEVEL=0 to 5.
var ErrInvalidCommand = errors.New("invalid command")

// defaultList is what a cipher list that starts with DEFAULT begins with
// (OSSL_default_cipher_list).
const defaultList = "ALL:!COMPLEMENTOFDEFAULT:!eNULL"

// CipherList returns nil when SSL_CTX_set_cipher_list accepts list, else
// ErrNoCipherMatch or ErrInvalidCommand, as ssl_create_cipher_list and
// ssl_cipher_process_rulestr decide: words are separated by ":", ",", ";"
// or spaces; "!" removes ciphers for good, "-" for now, "+" only moves
// them; "A+B" selects the ciphers both select; a word OpenSSL does not
// know selects nothing; a list that starts with DEFAULT starts with the
// default list. Only what is selected matters here, not the order. In a
// combination an exact cipher counts as the set of one cipher: OpenSSL
// matches its attributes against the other words'.
func CipherList(list string) error {
	var active, killed cipherSet
	if rest, ok := strings.CutPrefix(list, "DEFAULT"); ok {
		if err := applyRules(defaultList, &active, &killed); err != nil {
			return err
		}
		list = strings.TrimPrefix(rest, ":")
	}
	if err := applyRules(list, &active, &killed); err != nil {
		return err
	}
	if active.empty() {
		return ErrNoCipherMatch
	}
	return nil
}

func itemSep(c byte) bool { return c == ':' || c == ' ' || c == ';' || c == ',' }

func wordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '='
}

const (
	ruleAdd = iota
	ruleDel
	ruleOrd
	ruleKill
	ruleSpecial
)

// applyRules is ssl_cipher_process_rulestr over the sets.
func applyRules(s string, active, killed *cipherSet) error {
	l := 0
	for l < len(s) {
		ch := s[l]
		rule := ruleAdd
		switch ch {
		case '-':
			rule = ruleDel
			l++
		case '+':
			rule = ruleOrd
			l++
		case '!':
			rule = ruleKill
			l++
		case '@':
			rule = ruleSpecial
			l++
		}
		if itemSep(ch) {
			l++
			continue
		}
		var sel cipherSet
		found, first := false, true
		var word string
		for {
			start := l
			for l < len(s) && wordByte(s[l]) {
				l++
			}
			if l == start {
				// Neither a word nor a separator.
				return ErrInvalidCommand
			}
			word = s[start:l]
			if rule == ruleSpecial {
				break
			}
			multi := l < len(s) && s[l] == '+'
			if multi {
				l++
			}
			set, ok := lookupCipherWord(word)
			if !ok {
				// An unknown word selects nothing.
				found = false
				break
			}
			if first {
				sel, found, first = set, true, false
			} else {
				sel = sel.and(set)
			}
			if !multi {
				break
			}
		}
		switch {
		case rule == ruleSpecial:
			if word != "STRENGTH" && !(len(word) == 10 && strings.HasPrefix(word, "SECLEVEL=") && word[9] >= '0' && word[9] <= '5') {
				return ErrInvalidCommand
			}
			for l < len(s) && !itemSep(s[l]) {
				l++
			}
		case found:
			switch rule {
			case ruleAdd:
				sel.andNot(*killed)
				active.or(sel)
			case ruleDel:
				active.andNot(sel)
			case ruleKill:
				active.andNot(sel)
				killed.or(sel)
			}
		default:
			for l < len(s) && !itemSep(s[l]) {
				l++
			}
		}
	}
	return nil
}

// lookupCipherWord returns the ciphers a word of a cipher list selects:
// an alias's set, or one cipher by its OpenSSL name (OpenSSL 3 reads no
// "_" in a word, so a standard name such as TLS_RSA_WITH_AES_128_GCM_SHA256
// is the unknown word "TLS").
func lookupCipherWord(w string) (set cipherSet, ok bool) {
	if set, ok := aliasSets[w]; ok {
		return set, true
	}
	for i, n := range cipherNames {
		if n == w {
			set[i/64] |= 1 << (i % 64)
			return set, true
		}
	}
	return set, false
}

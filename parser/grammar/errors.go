package grammar

// Error reports why nginx would reject a directive's arguments. It is a value
// (not wrapped) so callers can type-assert it and point at the offending
// argument.
type Error struct {
	// Arg is the index into the argument slice that was passed to the parse
	// function, so a caller can turn it into a source position. It is -1 when
	// the directive as a whole is at fault (for example a wrong number of
	// arguments) and 0 for ParseServerName, which only sees one name.
	Arg int
	// Msg is worded like the message nginx prints, without nginx's trailing
	// context (such as ` of the "listen" directive`), which the caller knows
	// better.
	Msg string
}

// Error returns Msg so an *Error can be used wherever an error is expected.
func (e *Error) Error() string { return e.Msg }

// newError builds an *Error from a message and a quoted subject. Building
// the message by concatenation rather than with %q keeps bytes as nginx
// prints them ("%V" copies them verbatim) instead of Go-escaping them.
func newError(arg int, prefix, subject, suffix string) *Error {
	return &Error{Arg: arg, Msg: prefix + `"` + subject + `"` + suffix}
}

// AsError returns err as an *Error, nil for nil: the grammars' errors are
// *Error, and keeping one in that type rather than in an error interface
// saves 8 bytes on each model node that holds it. Another error keeps
// its message, blaming the directive as a whole (Arg -1).
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	if ge, ok := err.(*Error); ok {
		return ge
	}
	return &Error{Arg: -1, Msg: err.Error()}
}

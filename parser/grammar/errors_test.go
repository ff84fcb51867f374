package grammar

import (
	"errors"
	"testing"
)

// TestAsError checks that AsError keeps nil nil (a typed nil pointer in
// an error interface would read as an error), keeps a grammar error as it
// is, and turns any other error into one on the whole directive.
func TestAsError(t *testing.T) {
	if got := AsError(nil); got != nil {
		t.Errorf("AsError(nil) = %v, want nil", got)
	}
	ge := &Error{Arg: 1, Msg: "bad"}
	if got := AsError(ge); got != ge {
		t.Errorf("AsError(%v) = %v, want the same pointer", ge, got)
	}
	if got := AsError(errors.New("other")); got == nil || got.Arg != -1 || got.Msg != "other" {
		t.Errorf("AsError(other) = %+v, want Arg -1 and its message", got)
	}
	_, err := ParseLocation([]string{"a", "b", "c"})
	if got := AsError(err); got == nil || got.Arg != -1 {
		t.Errorf("AsError(ParseLocation(three args)) = %+v, want the grammar's error", got)
	}
}

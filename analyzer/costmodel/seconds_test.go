package costmodel

import "testing"

func TestSeconds(t *testing.T) {
	for _, c := range []struct {
		s    float64
		want string
	}{{1.153, "1.15 s"}, {0.023, "23 ms"}, {4e-5, "40 µs"}, {3.28e-9, "3.28 ns"}, {0, "0 µs"}} {
		if got := Seconds(c.s); got != c.want {
			t.Errorf("Seconds(%g) = %q, want %q", c.s, got, c.want)
		}
	}
}

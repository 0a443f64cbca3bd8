package dtmc

import (
	"strings"
	"testing"
)

func TestVars(t *testing.T) {
	v := &Vars{Names: []string{"x", "b"}, Bool: []bool{false, true}, Values: []int{3, 0, -1, 1}}
	if err := v.Validate(2); err != nil {
		t.Fatal(err)
	}
	if v.Value(1, 0) != -1 || v.Value(1, 1) != 1 || v.Index("b") != 1 || v.Index("y") != -1 {
		t.Errorf("lookups: %d %d %d %d", v.Value(1, 0), v.Value(1, 1), v.Index("b"), v.Index("y"))
	}
	for _, c := range []struct {
		v    *Vars
		n    int
		want string
	}{
		{v, 3, "4 values for 3 states of 2 variables"},
		{&Vars{Names: []string{"x"}, Bool: nil, Values: []int{1}}, 1, "1 names but 0 type flags"},
		{&Vars{Names: []string{"x", "x"}, Bool: []bool{false, false}, Values: []int{1, 2}}, 1, `"x" is declared twice`},
	} {
		if err := c.v.Validate(c.n); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Validate(%d) = %v, want %q", c.n, err, c.want)
		}
	}
}

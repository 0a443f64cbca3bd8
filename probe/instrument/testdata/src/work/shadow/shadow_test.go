package shadow

import (
	"testing"

	st "example.com/work/shadowtypes"
)

func TestAll(t *testing.T) {
	xs := []st.Int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	if got := Sum(xs, 1); got != 20+1+2-5 {
		t.Errorf("Sum: %d", got)
	}
	for _, i := range []st.Int{-1, 2, 3} {
		Check(xs, i)
	}
	if got := Loop(5); got != 8 {
		t.Errorf("Loop: %d", got)
	}
	Label(1 == 1)
	Label(1 == 2)
}

package withc

import "testing"

func TestSum(t *testing.T) {
	if s := Sum([]Box{{1}, {0}, {2}}); s != 15 {
		t.Fatalf("Sum = %d, want 15", s)
	}
}

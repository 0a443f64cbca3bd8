package rec

import "testing"

func TestWorkload(t *testing.T) {
	for i := 0; i < 2000; i++ {
		Top()
	}
}

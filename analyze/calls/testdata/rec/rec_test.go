package rec

import (
	"testing"
	"time"
)

func TestWorkload(t *testing.T) {
	for i := 0; i < 2000; i++ {
		Top()
	}
	// Spawn's goroutines have all called wg.Done, but the last of them may not have returned
	// yet: an invocation the process ends is counted only up to where it stopped, so give
	// them time to finish before the test binary exits.
	time.Sleep(200 * time.Millisecond)
}

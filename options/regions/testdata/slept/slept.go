// Package slept notes how long the sleeps of the timing package's test programs really took, by
// the program's own monotonic clock, and prints the notes when the program ends. A sleep on a
// loaded machine overshoots by milliseconds, so the tests compare a region's time with the
// sleeps the program saw in it, not with the sleeps it asked for.
//
// (A copy of options/timing/testdata/slept, for the programs of this module.)
package slept

import (
	"fmt"
	"os"
	"sync"
	"time"
)

type note struct {
	label      string
	start, end time.Duration
}

var (
	mu    sync.Mutex
	t0    = time.Now()
	notes []note
)

// Now is the time since the program started, for Note.
func Now() time.Duration { return time.Since(t0) }

// Note notes that the stretch of code labelled label ran from start (a Now) to now.
func Note(label string, start time.Duration) {
	end := Now()
	mu.Lock()
	notes = append(notes, note{label, start, end})
	mu.Unlock()
}

// Sleep sleeps d and notes the stretch under label (the region the sleep is in).
func Sleep(label string, d time.Duration) {
	start := Now()
	time.Sleep(d)
	Note(label, start)
}

// Report prints the notes on standard output, a line each: "slept LABEL START END", in
// nanoseconds since the program started. Call it last, or before os.Exit.
func Report() {
	mu.Lock()
	defer mu.Unlock()
	for _, n := range notes {
		fmt.Fprintf(os.Stdout, "slept %s %d %d\n", n.label, n.start.Nanoseconds(), n.end.Nanoseconds())
	}
}

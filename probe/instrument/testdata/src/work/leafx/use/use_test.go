package use

import (
	"runtime"
	"testing"
	"time"

	"example.com/work/leafx"
)

const text = "Hello, wOrld. An Ant ate a lEaf."

func TestUse(t *testing.T) {
	// Parallel's goroutines commit their counts when they return, after wg.Done: wait for them
	// here, where nothing is counted.
	before := runtime.NumGoroutine()
	Parallel(text, 8)
	for end := time.Now().Add(time.Second); runtime.NumGoroutine() > before && time.Now().Before(end); {
		runtime.Gosched()
	}
	Score(text)
	Words(text)
	Valued(text)
	Doubled([]int{1, 2, 3}, text)
	func() {
		defer func() { recover() }()
		Fill([]int{1, 2, 3}, make([]int, 2), 3)
	}()
	xs := make([]int, 26)
	Bytes(xs, "abc")
	Clamped(xs, "Ab")
	func() {
		defer func() { recover() }()
		Bytes(xs, "ab~c") // Pick panics at '~'
	}()
	leafx.Vowels(text)
	leafx.Dots(text)
	// From the test, which is not instrumented: the leaves count these themselves.
	for i := 0; i < len(text); i++ {
		leafx.IsVowel(text[i])
	}
	leafx.Double(7)
	ss := []leafx.Span{{1, 4}, {5, 5}, {2, 9}}
	Spans(ss)
	leafx.Total(ss)
	var none *leafx.Span
	none.Empty()
}

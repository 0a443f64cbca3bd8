// Package conc is called from many goroutines at once: its counts must stay exact.
package conc

// Work has branches and a loop that calls nothing (its counts live in registers).
func Work(x int) int {
	s := 0
	for i := 0; i < x%8; i++ {
		if i&1 == 0 {
			s += i
		} else {
			s--
		}
	}
	if x%3 == 0 {
		return s * 2
	}
	return s
}

// Framed defers and calls in a loop (its counts go through the frame's hooks).
func Framed(x int) (r int) {
	defer func() { r++ }()
	for i := 0; i < x%5; i++ {
		r += Work(i + x)
	}
	if x%7 == 0 {
		return -r
	}
	return r
}

// Pair calls Work once or twice: it is an entry (see package instrument's twins), and its twin
// and Work's count into a block of counters the goroutine holds while it runs them.
func Pair(x int) int {
	if x%5 == 0 {
		return Work(x) - Work(x+1)
	}
	return Work(x)
}

// Serve adds Work of the values it receives until the channel closes, blocking between them:
// its counts must reach the counters before each receive, since the process may end while it
// waits.
func Serve(ch <-chan int) (n int) {
	for {
		x, ok := <-ch
		if !ok {
			return n
		}
		n += Work(x)
	}
}

// At adds Work of xs[i] and of i: it panics for i beyond xs. It calls Work, so it is an entry,
// which looks for other goroutines in At; a panic while it owns the function must not leave it
// owned.
func At(xs []int, i int) int {
	x := xs[i]
	return Work(x) + Work(i)
}

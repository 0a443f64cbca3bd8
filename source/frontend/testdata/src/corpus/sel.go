package corpus

import "time"

// Select has no default.
func Select(a, b chan int, c chan<- int) int {
	select {
	case x := <-a:
		return x
	case x, ok := <-b:
		if !ok {
			return -1
		}
		return x
	case c <- 1:
	}
	return 0
}

// SelectDefault has a default first.
func SelectDefault(a chan int) bool {
	select {
	default:
		return false
	case <-a:
	}
	return true
}

// SelectSingle has one clause: not a decision.
func SelectSingle(a chan int) int {
	select {
	case x := <-a:
		return x
	}
}

// SelectForever blocks forever.
func SelectForever() {
	select {}
}

// SelectLoop selects in a loop, leaving it by a labelled break.
func SelectLoop(in <-chan int, quit <-chan struct{}) int {
	n := 0
	t := time.After(time.Second)
loop:
	for {
		select {
		case x, ok := <-in:
			if !ok {
				break loop
			}
			n += x
		case <-quit:
			break loop
		case <-t:
			return -1
		}
	}
	return n
}

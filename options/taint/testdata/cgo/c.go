package main

// static int twice(int x) { return 2 * x; }
import "C"

func work(a bool) int {
	if a {
		return int(C.twice(1))
	}
	return 1
}

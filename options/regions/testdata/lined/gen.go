// Code generated for a test. DO NOT EDIT.

package main

import "time"

//line spec.rl:40
func work(a bool) {
	if a {
		time.Sleep(3 * time.Millisecond)
	} else {
		time.Sleep(time.Millisecond)
	}
}

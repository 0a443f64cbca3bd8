package main

import "syscall"

// switches is how often the calling thread has been switched out, voluntarily or not; -1 when
// the system does not say.
func switches() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_THREAD, &ru) != nil {
		return -1
	}
	return ru.Nvcsw + ru.Nivcsw
}

//go:build !linux

package main

// switches cannot tell here: every sort counts as clean.
func switches() int64 { return 0 }

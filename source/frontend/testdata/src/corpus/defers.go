package corpus

import (
	"errors"
	"log"
	"os"
	"runtime"
	"sync"
)

// Panic panics on a condition.
func Panic(x int) int {
	if x < 0 {
		panic("negative")
	}
	return x
}

// DeferStatic has two top-level defers and a return before the second.
func DeferStatic(mu *sync.Mutex, x int) int {
	mu.Lock()
	defer mu.Unlock()
	if x == 0 {
		return 0
	}
	defer println("second")
	if x < 0 {
		panic("negative")
	}
	return x
}

// DeferInBranch defers in a branch that always returns: still static.
func DeferInBranch(x int) int {
	defer println("outer")
	if x > 0 {
		defer println("inner")
		return x
	}
	return -x
}

// DeferDynamic defers conditionally: which calls run is path-dependent.
func DeferDynamic(x int) (err error) {
	defer println("first")
	if x > 0 {
		defer println("maybe")
	}
	if x > 10 {
		panic("big")
	}
	return nil
}

// DeferLoopPanic defers in a loop and may panic.
func DeferLoopPanic(fs []*os.File) {
	for _, f := range fs {
		defer f.Close()
		if f == nil {
			panic("nil file")
		}
	}
}

// DeferRecover turns a panic into an error.
func DeferRecover(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errors.New("recovered")
		}
	}()
	defer println("before recover")
	f()
	if err == nil {
		panic("no error")
	}
	return nil
}

// DeferNestedRecover calls recover only in a nested literal, which stops nothing.
func DeferNestedRecover() {
	defer func() {
		func() { _ = recover() }()
	}()
	panic("not recovered")
}

// DeferRecoverDynamic recovers in a defer registered in a loop.
func DeferRecoverDynamic(n int) {
	for i := 0; i < n; i++ {
		defer func() { recover() }()
	}
	panic("x")
}

// DeferPanics defers a panic and an exit.
func DeferPanics(x int) {
	if x > 0 {
		defer os.Exit(2)
	} else {
		defer panic("deferred")
	}
	println(x)
}

// Exit calls os.Exit, which runs no deferred calls.
func Exit(code int) {
	defer println("not run by os.Exit")
	if code != 0 {
		os.Exit(code)
	}
	println("ok")
}

// Fatal uses the log functions that never return.
func Fatal(l *log.Logger, x int) {
	defer println("deferred")
	switch x {
	case 0:
		log.Fatal("zero")
	case 1:
		log.Panicf("one %d", x)
	case 2:
		l.Fatalln("two")
	case 3:
		l.Panic("three")
	}
}

// Goexit ends the goroutine after running the deferred calls.
func Goexit(x int) {
	defer func() { recover() }()
	if x > 0 {
		runtime.Goexit()
	}
}

// DeferAfterGoto skips a defer by goto: the defer order is dynamic.
func DeferAfterGoto(x int) {
	if x > 0 {
		goto skip
	}
	defer println("deferred")
skip:
	println(x)
}

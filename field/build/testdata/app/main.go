// Command app is the field build's test program: its statements run a number of times given in
// closed form by its arguments.
package main

import (
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

func classify(n int) int {
	switch {
	case n%15 == 0:
		return 3
	case n%5 == 0:
		return 2
	case n%3 == 0:
		return 1
	}
	return 0
}

func work(n int, out *[4]int64) {
	for i := 1; i <= n; i++ {
		k := classify(i)
		if k > 0 {
			atomic.AddInt64(&out[k], 1)
		}
	}
}

func run(wg *sync.WaitGroup, n int, out *[4]int64) {
	defer wg.Done()
	work(n, out)
}

func total(xs []int) int {
	t := 0
	for _, x := range xs {
		if x < 0 {
			break
		}
		t += x
	}
	return t
}

func main() {
	n, _ := strconv.Atoi(os.Args[1])
	g, _ := strconv.Atoi(os.Args[2])
	var wg sync.WaitGroup
	var out [4]int64
	for w := 0; w < g; w++ {
		wg.Add(1)
		go run(&wg, n, &out)
	}
	wg.Wait()
	fmt.Println(out[1], out[2], out[3], total([]int{1, 2, 3})+total([]int{4, -1, 5}))
	switch os.Args[3] {
	case "wait":
		time.Sleep(time.Hour)
	case "exit":
		os.Exit(3)
	case "handle":
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, syscall.SIGTERM)
		fmt.Println("ready")
		<-ch
		fmt.Println("graceful")
	}
}

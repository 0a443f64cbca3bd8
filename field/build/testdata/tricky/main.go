// Command tricky runs the control flow the field build's probes must count exactly: labelled
// loops, goto, fallthrough, switches with and without default, type switches, select, range over
// integers, strings, maps, channels and functions, else-if chains with init, empty blocks,
// defer and recover.
package main

import (
	"fmt"
	"iter"
	"os"
	"strconv"
)

func labelled(n int) int {
	s := 0
Outer:
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			switch {
			case j > i:
				continue Outer
			case i+j == 7:
				break Outer
			case j%3 == 0:
				break
			}
			s += j
		}
	}
	return s
}

func gotoLoop(n int) int {
	i, s := 0, 0
loop:
	if i < n {
		s += i
		i++
		goto loop
	}
	return s
}

func fall(x int) int {
	r := 0
	switch y := x % 5; y {
	case 0:
		r++
		fallthrough
	case 1:
		r += 2
	default:
		r += 3
	case 2, 3:
		r += 4
		fallthrough
	case 4:
		r += 5
	}
	switch {
	case x%2 == 0:
		r *= 2
	}
	return r
}

type shape interface{ area() int }
type sq int
type rect struct{ w, h int }

func (s sq) area() int   { return int(s) * int(s) }
func (r rect) area() int { return r.w * r.h }

func kind(v any) int {
	switch t := v.(type) {
	case sq:
		return t.area()
	case rect, *rect:
		return 1
	case nil:
	}
	return 0
}

func sel(n int) int {
	a, b := make(chan int, n), make(chan int, n)
	got := 0
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			a <- i
		} else if i%3 == 0 {
			b <- i
		} else {
		}
	}
	for {
		select {
		case v := <-a:
			got += v
		case v := <-b:
			got -= v
		default:
			return got
		}
	}
}

func seq(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
}

func ranges(n int) int {
	s := 0
	for i := range n {
		s += i
	}
	for _, r := range "héllo" {
		if r == 'l' {
			continue
		}
		s += int(r)
	}
	m := map[int]int{1: 2, 3: 4, 5: 6}
	for k := range m {
		s += k
	}
	ch := make(chan int, 3)
	ch <- 1
	ch <- 2
	close(ch)
	for v := range ch {
		s += v
	}
	for v := range seq(n) {
		if v == 4 {
			break
		}
		s += v
	}
	for {
		if s > 1000 {
			break
		}
		s *= 2
	}
	for s < 5000 {
		s += 999
	}
	return s
}

func chain(x int) string {
	if y := x * 2; y > 10 {
		return "big"
	} else if z := y - 1; z > 4 {
		return "mid"
	} else if x == 0 {
	} else {
		return "small"
	}
	return "zero"
}

func safe(f func() int) (r int) {
	defer func() {
		if recover() != nil {
			r = -1
		}
	}()
	return f()
}

func main() {
	n, _ := strconv.Atoi(os.Args[1])
	total := 0
	for i := 0; i < n; i++ {
		total += labelled(i%9) + gotoLoop(i%7) + fall(i) + sel(i%6) + len(chain(i%8))
		var v any
		switch i % 4 {
		case 0:
			v = sq(i)
		case 1:
			v = rect{i, 2}
		case 2:
			v = &rect{1, i}
		}
		total += kind(v)
		total += safe(func() int { return i })
	}
	total += ranges(n)
	fmt.Println(total)
}

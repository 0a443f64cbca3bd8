package main

import (
	"fmt"
	"os"

	"example.com/work/lib"
)

func main() {
	mode := "all"
	if len(os.Args) > 1 {
		mode = os.Args[1]
	}
	switch mode {
	case "exit":
		fmt.Println(lib.Sum(10))
		lib.ExitNow(3)
	case "crash":
		fmt.Println(lib.Div(7, 2))
		fmt.Println(lib.Div(1, 0))
	case "spin":
		lib.Spin(make([]int, 5))
	case "all":
		all()
	}
}

func all() {
	for _, x := range []int{-3, 0, 20, 3, 7, 150, 42} {
		fmt.Println("classify", x, lib.Classify(x))
	}
	fmt.Println(lib.Safe(func() { lib.Div(1, 0) }))
	fmt.Println(lib.Safe(func() { lib.Lookup([]int{1}, 3) }))
	fmt.Println(lib.Safe(func() { fmt.Println(lib.Lookup([]int{1, 2}, 1)) }))
	for _, s := range []string{"", "12", "1x3", "987"} {
		n, err := lib.Parse(s)
		fmt.Println("parse", n, err)
	}
	for x := 0; x < 13; x++ {
		fmt.Print(lib.Switch(x), " ")
	}
	fmt.Println()
	for _, v := range []any{1, "a", nil, 2.5} {
		fmt.Print(lib.Kind(v), " ")
	}
	fmt.Println()
	s := "abc"
	fmt.Println(lib.Upper(&s), lib.Safe(func() { lib.Upper(nil) }))
	fmt.Println(lib.Grade(95), lib.Grade(85), lib.Grade(50), lib.Grade(100))
	fmt.Println(lib.Sum(10), lib.While(27), lib.Forever(5))
	fmt.Println(lib.Ranges([]int{1, 2, 3}, map[string]int{"a": 1, "b": 2}, "héllo", 5))
	fmt.Println(lib.Labels(8), lib.Goto(4), lib.GotoForever(3))
	fmt.Println(lib.Walk(4, false), lib.Safe(func() { lib.Walk(4, true) }))
	fmt.Println(lib.Fib(10))
	fmt.Println(lib.Locked(1), lib.Locked(2))
	fmt.Println(lib.Safe(func() { lib.Explicit(-1) }), lib.Explicit(2))
	var out []int
	lib.DeferLoop(3, &out)
	lib.DeferLoop(1, &out)
	fmt.Println(out)
	fmt.Println(lib.RecoverLoop(2), lib.RecoverLoop(3), lib.RecoverLoop(4))
	fmt.Println(lib.DeferPanics(1), lib.Safe(func() { lib.DeferPanics(7) }))
	fmt.Println(lib.Select(10))
	fmt.Println(lib.Depth(3))
	fmt.Println(lib.Safe(func() { lib.Spin(make([]int, 3)) }))
	fmt.Println(lib.NamedRecover(1), lib.NamedRecover(-1), lib.NamedRecover(0))
	fmt.Println(lib.Repanic(2), lib.Repanic(4), lib.Safe(func() { lib.Repanic(7) }))
	fmt.Println(lib.LaterPanic(1), lib.LaterPanic(2), lib.Safe(func() { lib.LaterPanic(9) }))
}

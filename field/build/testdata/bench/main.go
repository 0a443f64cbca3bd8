// Command bench is the CPU-bound workload of the field build's overhead benchmark: a tokenizer
// and evaluator of arithmetic expressions, a sort, a sieve and a hash, over generated input,
// repeated as often as its argument says. It prints a checksum so that no work is optimised away.
package main

import (
	"fmt"
	"os"
	"strconv"
)

type token struct {
	kind byte // 'n' number, 'o' operator, '(' and ')'
	val  int
}

func tokenize(s string, out []token) []token {
	out = out[:0]
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ':
			i++
		case c >= '0' && c <= '9':
			v := 0
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				v = v*10 + int(s[i]-'0')
				i++
			}
			out = append(out, token{'n', v})
		case c == '(' || c == ')':
			out = append(out, token{c, 0})
			i++
		default:
			out = append(out, token{'o', int(c)})
			i++
		}
	}
	return out
}

func prec(op int) int {
	switch op {
	case '+', '-':
		return 1
	case '*', '/', '%':
		return 2
	}
	return 0
}

func apply(op, a, b int) int {
	switch op {
	case '+':
		return a + b
	case '-':
		return a - b
	case '*':
		return a * b
	case '/':
		if b == 0 {
			return 0
		}
		return a / b
	case '%':
		if b == 0 {
			return 0
		}
		return a % b
	}
	return 0
}

func eval(toks []token, nums, ops []int) int {
	nums, ops = nums[:0], ops[:0]
	reduce := func() {
		b, a := nums[len(nums)-1], nums[len(nums)-2]
		nums = nums[:len(nums)-2]
		nums = append(nums, apply(ops[len(ops)-1], a, b))
		ops = ops[:len(ops)-1]
	}
	for _, t := range toks {
		switch t.kind {
		case 'n':
			nums = append(nums, t.val)
		case '(':
			ops = append(ops, '(')
		case ')':
			for len(ops) > 0 && ops[len(ops)-1] != '(' {
				reduce()
			}
			if len(ops) > 0 {
				ops = ops[:len(ops)-1]
			}
		default:
			for len(ops) > 0 && prec(ops[len(ops)-1]) >= prec(t.val) {
				reduce()
			}
			ops = append(ops, t.val)
		}
	}
	for len(ops) > 0 {
		reduce()
	}
	if len(nums) == 0 {
		return 0
	}
	return nums[0]
}

func gen(seed uint32, n int) string {
	b := make([]byte, 0, 8*n)
	depth := 0
	for i := 0; i < n; i++ {
		seed = seed*1664525 + 1013904223
		if seed>>29 == 0 && i < n-1 {
			b = append(b, '(')
			depth++
		}
		b = strconv.AppendInt(b, int64(seed>>20%1000), 10)
		if depth > 0 && seed>>28&3 == 1 {
			b = append(b, ')')
			depth--
		}
		if i < n-1 {
			b = append(b, ' ', "+-*/%"[seed>>16%5], ' ')
		}
	}
	for ; depth > 0; depth-- {
		b = append(b, ')')
	}
	return string(b)
}

func insertionSort(xs []int) {
	for i := 1; i < len(xs); i++ {
		v := xs[i]
		j := i - 1
		for j >= 0 && xs[j] > v {
			xs[j+1] = xs[j]
			j--
		}
		xs[j+1] = v
	}
}

func sieve(n int, composite []bool) int {
	count := 0
	for i := 2; i < n; i++ {
		if composite[i] {
			continue
		}
		count++
		for j := i * i; j < n; j += i {
			composite[j] = true
		}
	}
	return count
}

func hash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

func main() {
	reps, _ := strconv.Atoi(os.Args[1])
	var toks []token
	nums, ops := make([]int, 0, 64), make([]int, 0, 64)
	xs := make([]int, 200)
	composite := make([]bool, 5000)
	sum := 0
	for r := 0; r < reps; r++ {
		s := gen(uint32(r), 40)
		toks = tokenize(s, toks)
		sum += eval(toks, nums, ops)
		sum += int(hash(s) % 1000)
		if r%20 == 0 {
			for i := range xs {
				xs[i] = int(hash(s[i%len(s):]) % 10000)
			}
			insertionSort(xs)
			sum += xs[len(xs)/2]
			for i := range composite {
				composite[i] = false
			}
			sum += sieve(len(composite), composite)
		}
	}
	fmt.Println(sum)
}

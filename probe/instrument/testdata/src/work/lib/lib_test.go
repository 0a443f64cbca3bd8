package lib

import "testing"

func TestSum(t *testing.T) {
	if Sum(10) != 45 {
		t.Fatal("Sum")
	}
	if Fib(10) != 55 {
		t.Fatal("Fib")
	}
}

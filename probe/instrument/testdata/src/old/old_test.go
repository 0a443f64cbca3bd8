package old

import "testing"

func TestDigits(t *testing.T) {
	if Digits("a1b22c333") != 6 {
		t.Fatal("Digits")
	}
}

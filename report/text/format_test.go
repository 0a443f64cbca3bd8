package text

import (
	"bytes"
	"math"
	"testing"
)

func TestNum(t *testing.T) {
	for v, want := range map[float64]string{33590104.08: "33590104.08", 0.6999998206: "0.7", 10.08412: "10.084", 13.753051: "13.753", 226.1000057: "226.1", 22.5: "22.5", 1e-9: "1e-09", 0: "0", 123456.789: "123456.79"} {
		if got := Num(v); got != want {
			t.Errorf("Num(%v) = %s, want %s", v, got, want)
		}
	}
}

// JSON has no number for infinity: Number spells it as PRISM does, and keeps every digit
// otherwise.
func TestNumberJSON(t *testing.T) {
	tenth := 0.1
	var b bytes.Buffer
	if err := JSON(&b, []Number{Number(math.Inf(1)), Number(tenth + 0.2), 3}); err != nil {
		t.Fatal(err)
	}
	if want := "[\n  \"Infinity\",\n  0.30000000000000004,\n  3\n]\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
	if Plural(1, "state") != "1 state" || Plural(0, "state") != "0 states" {
		t.Error("plural")
	}
}

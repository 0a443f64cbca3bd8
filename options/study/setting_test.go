package study

import (
	"errors"
	"slices"
	"testing"
)

// Held-out values are NAME=v1,v2,...; anything else is the caller's mistake.
func TestParseHeldOut(t *testing.T) {
	held, err := ParseHeldOut([]string{"size=128,512", "level=3"})
	if err != nil || !slices.Equal(held["size"], []string{"128", "512"}) || !slices.Equal(held["level"], []string{"3"}) {
		t.Fatalf("%v, %v", held, err)
	}
	for _, bad := range []string{"size", "=1", "size="} {
		var ie *InputError
		if _, err := ParseHeldOut([]string{bad}); !errors.As(err, &ie) || !ie.UsageError() {
			t.Errorf("%q: %v, want an InputError", bad, err)
		}
	}
	for s, want := range map[string]bool{"1": true, "on": true, "YES": true, "0": false, "false": false} {
		if v, err := parseOnOff(s); err != nil || v != want {
			t.Errorf("%s: %v, %v", s, v, err)
		}
	}
	if _, err := parseOnOff("2"); err == nil {
		t.Error("2 read as a boolean")
	}
}

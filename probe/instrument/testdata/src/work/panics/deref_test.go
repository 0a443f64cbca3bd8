package panics

import "testing"

// TestDeref calls LineOffset 3 times normally, once on a nil receiver and once past the end
// of its source, both of which panic.
func TestDeref(t *testing.T) {
	for k := 0; k < 3; k++ {
		r := &Reader{head: 1, pos: 5, off: -1, src: []byte("a\tb\tcd")}
		if got := r.LineOffset(); got != 10 {
			t.Errorf("LineOffset = %d, want 10", got)
		}
	}
	catch(t, "nil", func() { (*Reader)(nil).LineOffset() })
	catch(t, "short", func() { (&Reader{pos: 9, off: -1, src: []byte("ab")}).LineOffset() })
	if (*Reader)(nil).Pos() != -1 || (&Reader{head: 1, pos: 5, off: 2}).Pos() != 4 {
		t.Error("Pos")
	}
	if string(Escape('&')) != "&a" || Escape('x') != nil {
		t.Error("Escape")
	}
	one := 1
	if Chain([]*int{&one, &one}) != 2 {
		t.Error("Chain")
	}
	catch(t, "chain", func() { Chain([]*int{&one, nil}) })
	var nilNamed *named
	if Switched(map[string]any{"a": &named{"x"}}, "a") != "x" {
		t.Error("Switched")
	}
	catch(t, "switched", func() { Switched(map[string]any{"a": nilNamed}, "a") })
	catch(t, "shadowed", func() { Shadowed(&one) })
}

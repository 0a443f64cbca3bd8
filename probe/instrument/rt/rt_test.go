package rt

import "testing"

// TestEnter: the owner's thread may re-enter (recursion); Leave frees the function; a foreign
// owner makes an overlap, counted in the given counter.
func TestEnter(t *testing.T) {
	c := Open("AUGUR_RT_TEST_UNSET", "", "", "", 4, 1, 2)
	p := Pin() // the same thread throughout
	o := c.Enter(1, 3)
	if o == 0 || c.Enter(1, 3) != 0 {
		t.Fatalf("Enter: %#x, then recursion took it too", o)
	}
	c.owners[1] = o + 8 // another thread's
	if c.Enter(1, 3) != 0 {
		t.Fatalf("Enter took a function another thread holds")
	}
	Unpin()
	c.Leave(1, o) // not the owner any more: nothing happens
	if c.owners[1] != o+8 {
		t.Fatalf("Leave freed another thread's function")
	}
	sum := uint64(0)
	for _, b := range append(c.blocks, c.ov) {
		sum += b[3]
	}
	if sum != 1 {
		t.Fatalf("%d overlaps counted, want 1 (P %d)", sum, p)
	}
}

// TestWindow: a window is open until its WindowLooks-th look, Looks and Peeks alike, and
// Reopen opens it again; a look in an open window is Enter's or Check's.
func TestWindow(t *testing.T) {
	c := Open("AUGUR_RT_TEST_UNSET", "", "", "", 4, 1, 2)
	var w Uint32
	for i := range WindowLooks {
		if Shut(&w) {
			t.Fatalf("shut after %d looks, want %d", i, WindowLooks)
		}
		if i%2 == 0 {
			if o := c.Look(1, 3, &w); o != 0 {
				c.Leave(1, o)
			}
		} else {
			c.Peek(1, 3, &w)
		}
	}
	if !Shut(&w) {
		t.Fatalf("open after %d looks", WindowLooks)
	}
	Reopen(&w)
	if Shut(&w) {
		t.Fatal("shut after Reopen")
	}
	c.owners[1] = 8 // another thread's
	if c.Look(1, 3, &w) != 0 {
		t.Fatal("Look took a function another thread holds")
	}
	c.Peek(1, 3, &w)
	sum := uint64(0)
	for _, b := range append(c.blocks, c.ov) {
		sum += b[3]
	}
	if sum != 2 {
		t.Fatalf("%d overlaps counted, want 2", sum)
	}
}

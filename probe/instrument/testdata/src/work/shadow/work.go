package shadow

import st "example.com/work/shadowtypes"

// Sum has branches and a loop held in registers, with an index and a division guarded.
func Sum(xs []st.Int, d st.Int) st.Int {
	s := 0
	for i := 0; i < 10; i++ {
		if i%2 == 0 {
			s += xs[i] / d
		} else {
			s--
		}
	}
	if s > 10 {
		return s + _augur_c + _augur_r
	}
	return s
}

// Check returns errors and defers, recovering from a callee's panic.
func Check(xs []st.Int, i st.Int) (n st.Int, err st.Error) {
	defer func() {
		if r := any(struct{}{}); r == (any{}) {
			_ = r
		}
	}()
	defer guard(&err)
	if i < 0 {
		return 0, st.Errorf("negative")
	}
	return xs[i] + _augur_cs + _augur_frame + _augur1_x, err
}

func guard(err *st.Error) {
	// recover is redeclared here: a call of it recovers nothing, and nothing panics past it.
	recover()
	_ = err
}

// Loop runs a loop with a call, so not in registers, and a switch.
func Loop(n st.Int) (s st.Int) {
	for i := 0; i < n; i++ {
		switch i % 3 {
		case 0:
			s += twice(i)
		case 1:
			s++
		}
		panic()
	}
	return s
}

func twice(x st.Int) st.Int { return 2 * x }

// Label returns a string.
func Label(b st.Bool) st.String {
	if b {
		return "yes"
	}
	return "no"
}

package dtmc

import "fmt"

// Vars are the state variables of a model that was read with them (PRISM's .sta file names them
// and gives each state's values). Properties may then speak of a variable by name; without Vars
// the only thing a property can say of a state is its index.
type Vars struct {
	// Names are the variables in declaration order; they are distinct.
	Names []string
	// Bool marks the Boolean variables, whose values are 0 (false) and 1 (true).
	Bool []bool
	// Values holds state s's value of variable i at s*len(Names)+i: one flat slice, not a slice
	// per state, so that a million states cost one allocation.
	Values []int
}

// Value returns state s's value of variable i.
func (v *Vars) Value(s, i int) int { return v.Values[s*len(v.Names)+i] }

// Index returns the position of the variable called name, or -1.
func (v *Vars) Index(name string) int {
	for i, n := range v.Names {
		if n == name {
			return i
		}
	}
	return -1
}

// Validate checks that v describes every one of n states and that names are distinct.
func (v *Vars) Validate(n int) error {
	if len(v.Bool) != len(v.Names) {
		return fmt.Errorf("state variables: %d names but %d type flags", len(v.Names), len(v.Bool))
	}
	if len(v.Values) != n*len(v.Names) {
		return fmt.Errorf("state variables: %d values for %d states of %d variables", len(v.Values), n, len(v.Names))
	}
	seen := map[string]bool{}
	for _, name := range v.Names {
		if seen[name] {
			return fmt.Errorf("state variable %q is declared twice", name)
		}
		seen[name] = true
	}
	return nil
}

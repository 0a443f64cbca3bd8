package influence

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Categorical options. A mode, an algorithm or a level that selects one of several code paths
// is not a quantity: its values are an unordered set, and a region that runs at one value only
// is a step no curve in the value follows. A region influenced by categorical options (each
// with k ≥ 2 measured values) and boolean ones is measured at every combination of their
// values, and its local model is that table, dummy-coded against each categorical option's
// first value: a boolean option is a categorical one of the values false and true, and the
// generalised Möbius transform gives a term c·Π U·Π [o = v] for every set U of boolean options
// on and every choice of values v other than the first, "0.012·crc·[level=3]". With one
// categorical option M and no boolean one, T = T(first) + Σ_v (T(v) − T(first))·[M=v]. The
// standard errors add as for boolean terms, and the terms over the same options (a family,
// familyKey) are judged as one by FormatOptions.Noise. A value never measured cannot be
// predicted: nothing says its time is like any other's.

// LevelString writes the indicator of a categorical option at a value, "[level=3]".
func LevelString(option, value string) string { return "[" + option + "=" + value + "]" }

// grid indexes the assignments of a region's boolean and categorical options, in the region's
// order, the first varying fastest: digit j of an index is the index of option j's value (0 for
// false and 1 for true for a boolean option). With boolean options only, an index is the bit
// mask of the options on.
type grid struct {
	region string
	names  []string
	levels [][]string // nil for a boolean option
	stride []int
	size   int
}

func newGrid(r Region, opts []string, levels map[string][]string) (grid, error) {
	g := grid{region: r.Name, names: opts, size: 1}
	for _, o := range opts {
		d := 2
		var lv []string
		if vs, ok := levels[o]; ok {
			if err := checkLevels(o, vs); err != nil {
				return grid{}, fmt.Errorf("influence: region %s: %v", r.Name, err)
			}
			lv, d = vs, len(vs)
		}
		if g.size > MaxCells/d {
			return grid{}, fmt.Errorf("influence: region %s: its options have more than %d assignments", r.Name, MaxCells)
		}
		g.levels = append(g.levels, lv)
		g.stride = append(g.stride, g.size)
		g.size *= d
	}
	return g, nil
}

// checkLevels checks a categorical option's values: at least two, distinct, none empty.
func checkLevels(o string, vs []string) error {
	if len(vs) < 2 {
		return fmt.Errorf("categorical option %s has %d values; it needs at least 2", o, len(vs))
	}
	seen := map[string]bool{}
	for _, v := range vs {
		if v == "" || seen[v] {
			return fmt.Errorf("categorical option %s: empty or repeated value %q", o, v)
		}
		seen[v] = true
	}
	return nil
}

func (g grid) dim(j int) int {
	if g.levels[j] == nil {
		return 2
	}
	return len(g.levels[j])
}

func (g grid) digit(c, j int) int { return c / g.stride[j] % g.dim(j) }

// index is the assignment a measurement ran.
func (g grid) index(m Measurement) (int, error) {
	c := 0
	for j, o := range g.names {
		if g.levels[j] == nil {
			if m.Config[o] {
				c += g.stride[j]
			}
			continue
		}
		v, ok := m.Cat[o]
		if !ok {
			return 0, fmt.Errorf("influence: region %s: a measurement has no value of the categorical option %s", g.region, o)
		}
		i := slices.Index(g.levels[j], v)
		if i < 0 {
			return 0, fmt.Errorf("influence: region %s: %s=%s is not one of the option's values (%s)", g.region, o, v, strings.Join(g.levels[j], ", "))
		}
		c += i * g.stride[j]
	}
	return c, nil
}

// on lists the boolean options on in assignment c, in the region's order.
func (g grid) on(c int) []string {
	out := []string{}
	for j, o := range g.names {
		if g.levels[j] == nil && g.digit(c, j) == 1 {
			out = append(out, o)
		}
	}
	return out
}

// cellLevels gives every categorical option's value in assignment c (nil without any).
func (g grid) cellLevels(c int) map[string]string {
	var out map[string]string
	for j, o := range g.names {
		if g.levels[j] != nil {
			if out == nil {
				out = map[string]string{}
			}
			out[o] = g.levels[j][g.digit(c, j)]
		}
	}
	return out
}

// factors are the term of assignment c: the boolean options on, sorted, and the categorical
// options at a value other than their first (nil when none is).
func (g grid) factors(c int) ([]string, map[string]string) {
	opts := g.on(c)
	sort.Strings(opts)
	var lv map[string]string
	for j, o := range g.names {
		if d := g.digit(c, j); g.levels[j] != nil && d > 0 {
			if lv == nil {
				lv = map[string]string{}
			}
			lv[o] = g.levels[j][d]
		}
	}
	return opts, lv
}

// assignment writes assignment c, "{A=false mode=fast}".
func (g grid) assignment(c int) string {
	parts := make([]string, len(g.names))
	for j, o := range g.names {
		if g.levels[j] == nil {
			parts[j] = fmt.Sprintf("%s=%t", o, g.digit(c, j) == 1)
		} else {
			parts[j] = o + "=" + g.levels[j][g.digit(c, j)]
		}
	}
	return "{" + strings.Join(parts, " ") + "}"
}

// regionLevels are the values of the grid's categorical options (nil without any).
func (g grid) regionLevels() map[string][]string {
	var out map[string][]string
	for j, o := range g.names {
		if g.levels[j] != nil {
			if out == nil {
				out = map[string][]string{}
			}
			out[o] = append([]string(nil), g.levels[j]...)
		}
	}
	return out
}

// transform runs the generalised Möbius transform option by option: f(to, from) is called for
// every assignment to whose digit j is a value l > 0, with from the same assignment at the
// first value (which this option's pass leaves alone). Subtracting gives the coefficients
// (c_v = T(v) − T(first) along each option); adding variances gives their variances.
func (g grid) transform(f func(to, from int)) {
	for j := range g.names {
		s, d := g.stride[j], g.dim(j)
		for c := 0; c < g.size; c++ {
			if l := c / s % d; l > 0 {
				f(c, c-l*s)
			}
		}
	}
}

// CheckLevels checks that cat gives every categorical option of the model a measured value:
// a missing value, and a value never measured, are errors naming the measured values.
func (m Model) CheckLevels(cat map[string]string) error {
	names := make([]string, 0, len(m.Levels))
	for o := range m.Levels {
		names = append(names, o)
	}
	sort.Strings(names)
	for _, o := range names {
		vs := m.Levels[o]
		v, ok := cat[o]
		if !ok {
			return fmt.Errorf("the model needs a value of the categorical option %s (one of %s)", o, strings.Join(vs, ", "))
		}
		if !slices.Contains(vs, v) {
			return fmt.Errorf("%s=%s was never measured: the categorical option %s was measured at %s only, and the time of a value is not inferred from the others'", o, v, o, strings.Join(vs, ", "))
		}
	}
	for _, t := range m.Terms {
		for o := range t.Levels {
			if _, known := m.Levels[o]; !known {
				if _, ok := cat[o]; !ok {
					return fmt.Errorf("the model needs a value of the categorical option %s", o)
				}
			}
		}
	}
	return nil
}

// levelKey is a canonical string of a term's categorical values.
func levelKey(lv map[string]string) string {
	if len(lv) == 0 {
		return ""
	}
	keys := make([]string, 0, len(lv))
	for o, v := range lv {
		keys = append(keys, o+"="+v)
	}
	sort.Strings(keys)
	return strings.Join(keys, "\x00")
}

func cloneLevels(lv map[string]string) map[string]string {
	if len(lv) == 0 {
		return nil
	}
	out := make(map[string]string, len(lv))
	for o, v := range lv {
		out[o] = v
	}
	return out
}

// levelNames are the categorical options of a term, sorted.
func levelNames(lv map[string]string) []string {
	out := make([]string, 0, len(lv))
	for o := range lv {
		out = append(out, o)
	}
	sort.Strings(out)
	return out
}

// factorNames are the names of a term's boolean and categorical options, sorted.
func factorNames(t Term) []string {
	out := append(append([]string{}, t.Options...), levelNames(t.Levels)...)
	sort.Strings(out)
	return out
}

// familyKey identifies a term's family: the terms over the same boolean options and the same
// categorical options (at any of their values), a constant and its curve's terms among them.
func familyKey(t Term) string {
	opts := append([]string(nil), t.Options...)
	sort.Strings(opts)
	return strings.Join(opts, "\x00") + "\x01" + strings.Join(levelNames(t.Levels), "\x00")
}

// compareLevels orders two terms' categorical values, option by option in name order: in the
// order of the option's values in order where it has them, else as numbers when both are, else
// as strings.
func compareLevels(a, b map[string]string, order map[string][]string) int {
	na, nb := levelNames(a), levelNames(b)
	for i := 0; i < len(na) && i < len(nb); i++ {
		if na[i] != nb[i] {
			return strings.Compare(na[i], nb[i])
		}
		x, y := a[na[i]], b[nb[i]]
		if vs, ok := order[na[i]]; ok {
			if ix, iy := slices.Index(vs, x), slices.Index(vs, y); ix >= 0 && iy >= 0 && ix != iy {
				return ix - iy
			}
		}
		if c := compareValues(x, y); c != 0 {
			return c
		}
	}
	return len(na) - len(nb)
}

func compareValues(x, y string) int {
	fx, ex := strconv.ParseFloat(x, 64)
	fy, ey := strconv.ParseFloat(y, 64)
	if ex == nil && ey == nil && fx != fy {
		if fx < fy {
			return -1
		}
		return 1
	}
	return strings.Compare(x, y)
}

package panics

// Via runs the loop named name through a static call: Via is an entry and the loops it calls
// are twins (see package instrument), counting paths, their panics through the spill word.
func Via(name string, xs []int, ps []*int, qs []*pair, vs []any, ch chan int, f func(int) int, k int) int {
	switch name {
	case "Index":
		return Index(xs, k)
	case "Slice":
		return Slice(xs, k)
	case "Convert":
		return Convert(xs, k)
	case "Deref":
		return Deref(ps, k)
	case "Field":
		return Field(qs, k)
	case "NilMap":
		return NilMap(k)
	case "Assert":
		return Assert(vs, k)
	case "Div":
		return Div(k)
	case "Mod":
		return Mod(k)
	case "DivAssign":
		return DivAssign(k)
	case "DivCond":
		return DivCond(k)
	case "ModSwitch":
		return ModSwitch(k)
	case "Shift":
		return Shift(k)
	case "ShiftAssign":
		return ShiftAssign(k)
	case "Compare":
		return Compare(vs, k)
	case "Send":
		return Send(ch, k)
	case "Call":
		return Call(f, k)
	case "IndexCond":
		return IndexCond(xs, k)
	}
	return 0
}

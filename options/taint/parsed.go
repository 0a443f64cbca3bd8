package taint

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// parsers maps the standard library's string parsers to the type an option parsed by them takes.
var parsers = map[string]string{
	"strconv.ParseBool":    "bool",
	"strconv.Atoi":         "int",
	"strconv.ParseInt":     "int64",
	"strconv.ParseUint":    "uint64",
	"strconv.ParseFloat":   "float64",
	"time.ParseDuration":   "time.Duration",
	"strconv.ParseComplex": "complex128",
}

// A parseCall is a call of one of the parsers whose argument may carry options.
type parseCall struct {
	fn  string
	pos token.Pos
	arg int32
}

// noteParse records call if it parses a string with a known parser.
func (a *analysis) noteParse(common *ssa.CallCommon, pos token.Pos) {
	callee := common.StaticCallee()
	if callee == nil || callee.Pkg == nil || len(common.Args) == 0 {
		return
	}
	name := callee.Pkg.Pkg.Path() + "." + callee.Name()
	if _, ok := parsers[name]; ok {
		a.parses = append(a.parses, parseCall{fn: name, pos: pos, arg: a.val(common.Args[0])})
	}
}

// typeFromParses gives string options without user-given values the type of the parser their
// value reaches: an option read as a string and parsed only by strconv.ParseBool is boolean
// (values false and true, as for a boolean flag); one parsed as a number keeps no values but
// records where it is parsed, so that asking for its values can point there.
func (a *analysis) typeFromParses() {
	byOpt := map[int][]parseCall{}
	for _, p := range a.parses {
		acc := make([]uint64, a.words)
		a.or(acc, p.arg)
		for k, word := range acc {
			for i := 0; i < 64; i++ {
				if word&(1<<uint(i)) != 0 {
					byOpt[k*64+i] = append(byOpt[k*64+i], p)
				}
			}
		}
	}
	for i, o := range a.set.Options {
		ps := byOpt[i]
		if o.Type != "string" || o.Values != nil || len(ps) == 0 {
			continue
		}
		typ := parsers[ps[0].fn]
		for _, p := range ps[1:] {
			if parsers[p.fn] != typ {
				typ = ""
			}
		}
		if typ == "" {
			continue // parsed as different types: the user says which values matter
		}
		o.ParsedBy = ps[0].fn
		o.ParsedAt = a.res.Fset.Position(ps[0].pos)
		if typ == "bool" {
			o.Type = "bool"
			o.Values = []string{"false", "true"}
		} else {
			o.Type = typ
		}
	}
}

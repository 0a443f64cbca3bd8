package frontend

import (
	"slices"

	"golang.org/x/tools/go/packages"
)

// SelectAll selects the functions of every spec (as Select does; no specs: every package
// loaded) and says which were named one by one, not as part of a whole package: those a caller
// may insist were run.
func (p *Program) SelectAll(specs []string) (fns []*Func, named map[string]bool, err error) {
	if len(specs) == 0 {
		for _, q := range p.Packages {
			specs = append(specs, q.PkgPath)
		}
	}
	named = map[string]bool{}
	for _, s := range specs {
		sel, err := p.Select(s)
		if err != nil {
			return nil, nil, err
		}
		if !slices.ContainsFunc(p.Packages, func(q *packages.Package) bool { return q.PkgPath == s }) {
			for _, f := range sel {
				named[f.Name] = true
			}
		}
		fns = append(fns, sel...)
	}
	return fns, named, nil
}

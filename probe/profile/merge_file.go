package profile

import (
	"errors"
	"fmt"
	"os"
	"sort"
)

// Never lists, sorted, the functions of names that p never invoked.
func (p *Profile) Never(names map[string]bool) []string {
	var never []string
	for name := range names {
		if f := p.Funcs[name]; f == nil || f.Invocations == 0 {
			never = append(never, name)
		}
	}
	sort.Strings(never)
	return never
}

// MergeInto adds p's counts to the profile at path, which the workload now ran last, and
// returns the sum; without a profile at path, p itself. The file is not written.
func MergeInto(path string, p *Profile, workload []string) (*Profile, error) {
	old, err := Read(path)
	if errors.Is(err, os.ErrNotExist) {
		return p, nil
	}
	if err != nil {
		return nil, fmt.Errorf("--merge: %v", err)
	}
	if err := old.Merge(p); err != nil {
		return nil, fmt.Errorf("--merge %s: %v", path, err)
	}
	old.Workload = workload
	return old, nil
}

// Invoked counts the functions p saw invoked and all their invocations.
func (p *Profile) Invoked() (funcs int, invocations uint64) {
	for _, f := range p.Funcs {
		if f.Invocations > 0 {
			funcs++
		}
		invocations += f.Invocations
	}
	return funcs, invocations
}

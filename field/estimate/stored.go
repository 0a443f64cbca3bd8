package estimate

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	"github.com/augur-perf/augur/field/plan"
	"github.com/augur-perf/augur/field/store"
	"github.com/augur-perf/augur/probe/profile"
)

// FromStore estimates from the packages st holds for the release m (read from path, which
// errors name), after checking that st serves that very release: a release it does not know,
// or knows with other contents, is an error.
func FromStore(ctx context.Context, st store.Store, m *plan.Manifest, path string) (*Estimates, error) {
	stored, err := st.Release(ctx, m.Release)
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("the store has no release %s: register it (augur field release add %s)", m.Release, path)
	}
	if err != nil {
		return nil, err
	}
	if !reflect.DeepEqual(stored, m) {
		return nil, fmt.Errorf("%s differs from the release %s the store serves", path, m.Release)
	}
	return Build(m, func(fn func(*store.Record) error) error { return st.Scan(ctx, m.Release, fn) })
}

// AgainstProfile compares the estimates with a profile of the same code under full
// instrumentation (Against, with each unit's count read from its function's node in p).
func (e *Estimates) AgainstProfile(m *plan.Manifest, p *profile.Profile) Reference {
	counts := map[int]uint64{}
	for _, u := range m.Units {
		if f := p.Funcs[u.Func]; f != nil && u.Node < len(f.Nodes) {
			counts[u.ID] = f.Nodes[u.Node].Count
		}
	}
	return e.Against(counts)
}

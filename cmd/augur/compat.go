package main

import (
	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

// readProfile reads the profile an optional flag names: none when it names none.
func readProfile(path string) (*profile.Profile, error) {
	if path == "" {
		return nil, nil
	}
	return profile.Read(path)
}

// loadAll loads the packages and selects every function of them.
func loadAll(dir string, pkgs []string) (*frontend.Program, []*frontend.Func, error) {
	_, fns, _, err := frontend.LoadAll(dir, pkgs, nil)
	if err != nil {
		return nil, nil, usageError{err}
	}
	return nil, fns, nil
}

func baseDir(dir string) string { return frontend.AbsDir(dir) }

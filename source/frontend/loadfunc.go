package frontend

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// LoadFunc loads the package of spec (import/path.Func, import/path.T.Method or
// import/path.(*T).Method) from the module at dir and selects that one function. The package path
// ends at one of the dots of spec's last path element (gopkg.in/yaml.v3.Unmarshal has two
// candidates): the longest that loads wins.
func LoadFunc(dir, spec string) (*Program, *Func, error) {
	slash := strings.LastIndex(spec, "/") + 1
	var candidates []string
	for i := len(spec) - 1; i > slash; i-- {
		if spec[i] == '.' {
			candidates = append(candidates, spec[:i])
		}
	}
	if len(candidates) == 0 {
		return nil, nil, fmt.Errorf("%q names no function: give import/path.Func, import/path.T.Method or import/path.(*T).Method", spec)
	}
	var firstErr error
	for _, path := range candidates {
		prog, err := Load(dir, path)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		fns, err := prog.Select(spec)
		if err != nil {
			return nil, nil, err
		}
		if len(fns) != 1 {
			names := make([]string, len(fns))
			for i, f := range fns {
				names[i] = f.Name
			}
			return nil, nil, fmt.Errorf("%s names %d functions (%s); give one", spec, len(fns), strings.Join(names, ", "))
		}
		return prog, fns[0], nil
	}
	return nil, nil, firstErr
}

// LoadAll loads the packages patterns name from the module at dir and selects the functions of
// specs as SelectAll does (none: every function of the packages).
func LoadAll(dir string, patterns, specs []string) (prog *Program, fns []*Func, named map[string]bool, err error) {
	if prog, err = Load(dir, patterns...); err != nil {
		return nil, nil, nil, err
	}
	fns, named, err = prog.SelectAll(specs)
	return prog, fns, named, err
}

// AbsDir is the absolute path of a module directory as Load takes it ("": the working
// directory), which positions are shown relative to.
func AbsDir(dir string) string {
	if dir == "" {
		dir, _ = os.Getwd()
	}
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}

// RelPosition shortens a position (file:line:col) under the working directory to the path
// relative to it.
func RelPosition(pos string) string {
	if wd, err := os.Getwd(); err == nil {
		if rel, ok := strings.CutPrefix(pos, wd+string(os.PathSeparator)); ok {
			return rel
		}
	}
	return pos
}

package annot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/augur-perf/augur/source/frontend"
)

// FileFormat is the version tag of rewards files.
const FileFormat = "augur-rewards/1"

// Entry is one reward value given outside the source: by a rewards file or by --set.
type Entry struct {
	Name string
	// File, Line and Col (0 when not given) say where: File is matched against a node's file
	// by base name or path suffix.
	File      string
	Line, Col int
	Value     float64
	// Origin says where the entry was given ("r.json" or "--set"), for errors.
	Origin string
	used   bool
}

func (e *Entry) pos() string {
	if e.Col > 0 {
		return fmt.Sprintf("%s:%d:%d", e.File, e.Line, e.Col)
	}
	return fmt.Sprintf("%s:%d", e.File, e.Line)
}

// File is a set of reward values that override or add to the source annotations: those of a
// rewards file, plus any --set given on the command line. The zero value is an empty set.
type File struct {
	Entries []*Entry
}

// ReadFile reads a rewards file:
//
//	{"format": "augur-rewards/1",
//	 "rewards": {"time": {"distance.go:11": 1.8, "distance.go:14:3": 0.5}}}
func ReadFile(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Decode(bytes.NewReader(data), path)
}

// Decode reads a rewards file from r; name is used in errors.
func Decode(r io.Reader, name string) (*File, error) {
	var raw struct {
		Format  string                                `json:"format"`
		Rewards map[string]map[string]json.RawMessage `json:"rewards"`
		// Measured describes how a measured reward was measured (probe/profile's TimeFile);
		// the values need nothing from it.
		Measured json.RawMessage `json:"measured"`
	}
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if raw.Format != FileFormat {
		return nil, fmt.Errorf("%s: format %q is not %q", name, raw.Format, FileFormat)
	}
	f := &File{}
	names := make([]string, 0, len(raw.Rewards))
	for n := range raw.Rewards {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, rn := range names {
		if !validName(rn) {
			return nil, fmt.Errorf("%s: rewards: %q is not a reward name (a Go identifier)", name, rn)
		}
		poss := make([]string, 0, len(raw.Rewards[rn]))
		for p := range raw.Rewards[rn] {
			poss = append(poss, p)
		}
		sort.Strings(poss)
		for _, p := range poss {
			where := fmt.Sprintf("%s: rewards.%s[%q]", name, rn, p)
			e := &Entry{Name: rn, Origin: name}
			if err := e.setPos(p); err != nil {
				return nil, fmt.Errorf("%s: %v", where, err)
			}
			var v float64
			if err := json.Unmarshal(raw.Rewards[rn][p], &v); err != nil {
				return nil, fmt.Errorf("%s: the value must be a number: %s", where, raw.Rewards[rn][p])
			}
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				return nil, fmt.Errorf("%s: value %v is negative (rewards are non-negative)", where, v)
			}
			e.Value = v
			f.Entries = append(f.Entries, e)
		}
	}
	return f, nil
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdent(s[i], i == 0) {
			return false
		}
	}
	return true
}

// setPos reads file:line or file:line:col.
func (e *Entry) setPos(p string) error {
	parts := strings.Split(p, ":")
	bad := fmt.Errorf("position %q is not file:line or file:line:col", p)
	num := func(s string) (int, bool) {
		n, err := strconv.Atoi(s)
		return n, err == nil && n > 0
	}
	switch {
	case len(parts) >= 3:
		l, ok1 := num(parts[len(parts)-2])
		c, ok2 := num(parts[len(parts)-1])
		if ok1 && ok2 {
			e.File, e.Line, e.Col = strings.Join(parts[:len(parts)-2], ":"), l, c
			break
		}
		fallthrough
	case len(parts) == 2:
		l, ok := num(parts[len(parts)-1])
		if !ok {
			return bad
		}
		e.File, e.Line = strings.Join(parts[:len(parts)-1], ":"), l
	default:
		return bad
	}
	if e.File == "" {
		return bad
	}
	return nil
}

// Set adds a command-line override name@file:line[:col]=value, as --set time@distance.go:11=1.8
// (what if that call were faster?).
func (f *File) Set(spec string) error {
	at := strings.IndexByte(spec, '@')
	eq := strings.LastIndexByte(spec, '=')
	if at < 0 || eq < at {
		return fmt.Errorf("--set %s: want name@file:line=value", spec)
	}
	e := &Entry{Name: spec[:at], Origin: "--set"}
	if !validName(e.Name) {
		return fmt.Errorf("--set %s: %q is not a reward name (a Go identifier)", spec, e.Name)
	}
	if err := e.setPos(spec[at+1 : eq]); err != nil {
		return fmt.Errorf("--set %s: %v", spec, err)
	}
	v, msg := number(spec[eq+1:])
	if msg != "" {
		return fmt.Errorf("--set %s: %s", spec, msg)
	}
	e.Value = v
	f.Entries = append(f.Entries, e)
	return nil
}

// Apply writes the entries that fall in function g (its file, between the lines of its "func"
// keyword and closing brace) into r, replacing annotations of the same name on the same node.
// Later entries win over earlier ones, so --set given after a rewards file overrides it. An
// entry in g's line range that names no statement is an error; entries for other functions are
// left for them (see Unused).
func (f *File) Apply(g *frontend.CFG, r Rewards) error {
	if f == nil {
		return nil
	}
	lo, hi := g.Fset.Position(g.Decl.Pos()), g.Fset.Position(g.Decl.End())
	n := len(g.Nodes)
	for _, e := range f.Entries {
		if !sameFile(lo.Filename, e.File) || e.Line < lo.Line || e.Line > hi.Line {
			continue
		}
		id := nodeAt(g, lo.Filename, e.Line, e.Col)
		if id < 0 {
			return fmt.Errorf("%s: %s at %s: no statement of %s starts there", e.Origin, e.Name, e.pos(), frontend.FuncName(g.Decl))
		}
		e.used = true
		if r[e.Name] == nil {
			r[e.Name] = make([]float64, n)
		}
		for _, t := range targets(g, id) {
			r.set(e.Name, n, t, e.Value)
		}
	}
	return nil
}

// Unused reports the entries that no Apply call placed: their position is in none of the
// functions analysed, which is an error (a typo in a file name or line).
func (f *File) Unused() error {
	if f == nil {
		return nil
	}
	var msgs []string
	for _, e := range f.Entries {
		if !e.used {
			msgs = append(msgs, fmt.Sprintf("%s: %s at %s: no analysed function has a statement there", e.Origin, e.Name, e.pos()))
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	return fmt.Errorf("%s", strings.Join(msgs, "\n"))
}

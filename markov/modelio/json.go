package modelio

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/augur-perf/augur/markov/dtmc"
)

// JSONFormat is the version tag every augur JSON model carries in its "format" field. A reader
// refuses other versions rather than guess at them; a change that old readers would misread
// gets a new number.
const JSONFormat = "augur-dtmc/1"

// The JSON form (docs/model-json.md has the full description):
//
//	{
//	  "format": "augur-dtmc/1",
//	  "states": 3,
//	  "init": 0,                                  or [{"state": 0, "p": 0.5}, ...]
//	  "transitions": [[0, 1, 0.5], [0, 2, "1/2"], [1, 1, 1], [2, 2, 1]],
//	  "actions": ["go", "go", "", ""],            optional, one per transition
//	  "params": ["p", "", "", ""],                optional, one per transition
//	  "labels": {"done": [1, 2]},
//	  "rewards": [{"name": "steps", "state": {"0": 1}, "transitions": [[0, 1, 2.5]]}],
//	  "lines": [10, 12, 14]                       optional, one per state
//	}
//
// A probability given as a string ("1/3", "0.25") is exact and sets Model.Exact. "state" is
// either an object from state number to reward or a list with one reward per state. The
// presence of each optional part is kept: "state": {} reads as an all-zero state reward
// vector, which is not the same model as one without state rewards.

// ReadJSON reads a model in augur's JSON form. name is the file name errors cite.
func ReadJSON(r io.Reader, name string) (*dtmc.Model, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, &Error{File: name, Msg: "read error: " + err.Error()}
	}
	d := &jsonDec{name: name, data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	d.dec.UseNumber()
	jm, err := d.model()
	if err != nil {
		return nil, err
	}
	return d.build(jm)
}

// ReadJSONFile reads a model in augur's JSON form from a file.
func ReadJSONFile(path string) (*dtmc.Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadJSON(f, path)
}

// WriteJSONFile writes a model in augur's JSON form to a file.
func WriteJSONFile(path string, m *dtmc.Model) error {
	return writeFile(path, func(w io.Writer) error { return WriteJSON(w, m) })
}

type jsonDec struct {
	name string
	data []byte
	dec  *json.Decoder
}

// at is a position in the JSON text, kept so that problems found after parsing (a state out of
// range once "states" is known) can still point at the offending value.
type at struct {
	off  int
	path string
}

type jsonModel struct {
	format     string
	states     int
	init       []jsonInit
	initSingle bool
	trans      []jsonTrans
	actions    []string
	params     []string
	labels     []jsonLabel
	rewards    []jsonReward
	lines      []int
	// seen records where each top-level field was, for "missing field" and for errors that
	// concern a field as a whole.
	seen      map[string]at
	formatAt  at
	statesAt  at
	actionsAt at
	paramsAt  at
	linesAt   at
}

type jsonInit struct {
	s   int
	sAt at
	p   float64
}

type jsonTrans struct {
	from, to     int
	fromAt, toAt at
	p            float64
	exact        *big.Rat
}

type jsonLabel struct {
	name   string
	states []int
	at     []at
}

type jsonReward struct {
	name      string
	at        at
	hasName   bool
	hasState  bool
	dense     bool
	denseAt   at
	state     []jsonStateRew
	hasTrans  bool
	trans     []jsonTransRew
	transSeen map[[2]int]bool
}

type jsonStateRew struct {
	s  int
	at at
	v  float64
}

type jsonTransRew struct {
	from, to     int
	fromAt, toAt at
	v            float64
}

func (d *jsonDec) lineCol(off int) (int, int) {
	if off > len(d.data) {
		off = len(d.data)
	}
	line := 1 + bytes.Count(d.data[:off], []byte{'\n'})
	col := off - bytes.LastIndexByte(d.data[:off], '\n')
	return line, col
}

func (d *jsonDec) errAt(a at, format string, args ...any) *Error {
	line, col := d.lineCol(a.off)
	return &Error{File: d.name, Line: line, Col: col, Path: a.path, Msg: fmt.Sprintf(format, args...)}
}

// next returns the next token and where it starts. The decoder's offset is the end of the
// previous token; separators and blanks lie between.
func (d *jsonDec) next(path string) (json.Token, at, error) {
	off := int(d.dec.InputOffset())
	for off < len(d.data) {
		switch d.data[off] {
		case ' ', '\t', '\n', '\r', ',', ':':
			off++
			continue
		}
		break
	}
	a := at{off, path}
	tok, err := d.dec.Token()
	if err != nil {
		var se *json.SyntaxError
		switch {
		case errors.As(err, &se):
			// The decoder's Offset is where the offending token starts (for a bad literal or
			// string, where that value starts).
			return nil, a, d.errAt(at{int(se.Offset), ""}, "syntax error: %s", se.Error())
		case err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF):
			return nil, a, d.errAt(at{len(d.data), ""}, "syntax error: unexpected end of JSON")
		default:
			return nil, a, d.errAt(a, "syntax error: %v", err)
		}
	}
	return tok, a, nil
}

func describe(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			return "an object"
		case '[':
			return "a list"
		case '}', ']':
			return "the end of the enclosing " + map[json.Delim]string{'}': "object", ']': "list"}[t]
		}
	case string:
		return fmt.Sprintf("the string %q", t)
	case json.Number:
		return "the number " + t.String()
	case bool:
		return strconv.FormatBool(t)
	case nil:
		return "null"
	}
	return fmt.Sprint(tok)
}

func (d *jsonDec) open(path string, delim json.Delim, what string) (at, error) {
	tok, a, err := d.next(path)
	if err != nil {
		return a, err
	}
	if tok != delim {
		return a, d.errAt(a, "expected %s, found %s", what, describe(tok))
	}
	return a, nil
}

// closeDelim consumes the end of a list or object whose elements were all read.
func (d *jsonDec) closeDelim(path string, delim json.Delim, what string) error {
	tok, a, err := d.next(path)
	if err != nil {
		return err
	}
	if tok != delim {
		return d.errAt(a, "%s has too many elements (found %s)", what, describe(tok))
	}
	return nil
}

// object reads an object, calling field for each key; keys must be distinct.
func (d *jsonDec) object(path, what string, field func(key string, keyAt at) error) error {
	if _, err := d.open(path, '{', what); err != nil {
		return err
	}
	seen := map[string]bool{}
	for d.dec.More() {
		tok, a, err := d.next(path)
		if err != nil {
			return err
		}
		key, ok := tok.(string)
		if !ok {
			return d.errAt(a, "expected a field name, found %s", describe(tok))
		}
		if seen[key] {
			return d.errAt(a, "field %q is given twice", key)
		}
		seen[key] = true
		if err := field(key, a); err != nil {
			return err
		}
	}
	_, _, err := d.next(path)
	return err
}

// list reads a list, calling elem for each element.
func (d *jsonDec) list(path, what string, elem func(i int, path string) error) (at, error) {
	a, err := d.open(path, '[', what)
	if err != nil {
		return a, err
	}
	for i := 0; d.dec.More(); i++ {
		if err := elem(i, fmt.Sprintf("%s[%d]", path, i)); err != nil {
			return a, err
		}
	}
	_, _, err = d.next(path)
	return a, err
}

func (d *jsonDec) number(path, what string) (string, at, error) {
	tok, a, err := d.next(path)
	if err != nil {
		return "", a, err
	}
	num, ok := tok.(json.Number)
	if !ok {
		return "", a, d.errAt(a, "expected %s, found %s", what, describe(tok))
	}
	return num.String(), a, nil
}

// index reads a non-negative integer (a state number, a line number).
func (d *jsonDec) index(path, what string) (int, at, error) {
	s, a, err := d.number(path, what)
	if err != nil {
		return 0, a, err
	}
	v, ok := parseIndex(s)
	if !ok {
		return 0, a, d.errAt(a, "%s must be a whole number from 0 to %d, not %s", what, maxIndex, s)
	}
	return v, a, nil
}

// value reads a finite non-negative number (a reward).
func (d *jsonDec) value(path, what string) (float64, at, error) {
	s, a, err := d.number(path, what)
	if err != nil {
		return 0, a, err
	}
	v, verr := parseValue(s, what)
	if verr != nil {
		return 0, a, d.errAt(a, "%v", verr)
	}
	return v, a, nil
}

func (d *jsonDec) str(path, what string) (string, at, error) {
	tok, a, err := d.next(path)
	if err != nil {
		return "", a, err
	}
	s, ok := tok.(string)
	if !ok {
		return "", a, d.errAt(a, "expected %s, found %s", what, describe(tok))
	}
	return s, a, nil
}

// prob reads a probability: a number, or a string holding an exact value "p/q" or "0.25".
func (d *jsonDec) prob(path string) (float64, *big.Rat, at, error) {
	tok, a, err := d.next(path)
	if err != nil {
		return 0, nil, a, err
	}
	switch t := tok.(type) {
	case json.Number:
		p, _, perr := parseProb(t.String(), false)
		if perr != nil {
			return 0, nil, a, d.errAt(a, "%v", perr)
		}
		return p, nil, a, nil
	case string:
		r, perr := parseExact(t)
		if perr != nil {
			return 0, nil, a, d.errAt(a, "%v", perr)
		}
		f, _ := r.Float64()
		return f, r, a, nil
	}
	return 0, nil, a, d.errAt(a, "expected a probability (a number, or a string such as \"1/3\"), found %s", describe(tok))
}

// parseExact reads an exact probability written as a fraction "p/q" or a plain decimal "0.25"
// (no exponent, so that no string can ask big.Rat for a huge power of ten).
func parseExact(s string) (*big.Rat, error) {
	if strings.Contains(s, "/") {
		return parseRational(s)
	}
	intPart, frac, _ := strings.Cut(s, ".")
	if !allDigits(intPart) || (strings.Contains(s, ".") && !allDigits(frac)) {
		return nil, fmt.Errorf("exact probability %q is neither a fraction p/q nor a decimal like 0.25", s)
	}
	if len(s) > maxRatDigits {
		return nil, fmt.Errorf("exact probability %q has more than %d digits", s, maxRatDigits)
	}
	r, _ := new(big.Rat).SetString(s)
	if r.Cmp(big.NewRat(1, 1)) > 0 {
		return nil, fmt.Errorf("probability %s is greater than 1", s)
	}
	return r, nil
}

func keyPath(path, key string) string {
	if isIdentifier(key) {
		if path == "" {
			return key
		}
		return path + "." + key
	}
	return fmt.Sprintf("%s[%s]", path, strconv.Quote(key))
}

func (d *jsonDec) model() (*jsonModel, error) {
	jm := &jsonModel{seen: map[string]at{}}
	err := d.object("", "an object (an augur JSON model)", func(key string, ka at) error {
		path := keyPath("", key)
		jm.seen[key] = at{ka.off, path}
		switch key {
		case "format":
			var err error
			jm.format, jm.formatAt, err = d.str(path, "a string")
			return err
		case "states":
			var err error
			jm.states, jm.statesAt, err = d.index(path, "the number of states")
			return err
		case "init":
			return d.initField(jm, path)
		case "transitions":
			_, err := d.list(path, "a list of transitions [from, to, p]", func(i int, p string) error {
				t, err := d.transition(p)
				jm.trans = append(jm.trans, t)
				return err
			})
			return err
		case "actions", "params":
			var list []string
			a, err := d.list(path, "a list of strings, one per transition", func(i int, p string) error {
				s, _, err := d.str(p, "a string")
				list = append(list, s)
				return err
			})
			if list == nil {
				list = []string{}
			}
			if key == "actions" {
				jm.actions, jm.actionsAt = list, a
			} else {
				jm.params, jm.paramsAt = list, a
			}
			return err
		case "labels":
			return d.object(path, "an object from label name to a list of states", func(name string, na at) error {
				lp := keyPath(path, name)
				lab := jsonLabel{name: name, states: []int{}}
				_, err := d.list(lp, "a list of states", func(i int, p string) error {
					s, a, err := d.index(p, "a state number")
					lab.states = append(lab.states, s)
					lab.at = append(lab.at, a)
					return err
				})
				jm.labels = append(jm.labels, lab)
				return err
			})
		case "rewards":
			_, err := d.list(path, "a list of reward structures", func(i int, p string) error {
				r, err := d.reward(p)
				jm.rewards = append(jm.rewards, r)
				return err
			})
			return err
		case "lines":
			var err error
			jm.lines = []int{}
			jm.linesAt, err = d.list(path, "a list of source lines, one per state", func(i int, p string) error {
				v, _, err := d.index(p, "a line number")
				jm.lines = append(jm.lines, v)
				return err
			})
			return err
		}
		return d.errAt(ka, "unknown field %q (%s has format, states, init, transitions, actions, params, labels, rewards, lines)", key, JSONFormat)
	})
	if err != nil {
		return nil, err
	}
	rest := int(d.dec.InputOffset())
	if trimmed := bytes.TrimLeft(d.data[rest:], " \t\r\n"); len(trimmed) > 0 {
		return nil, d.errAt(at{len(d.data) - len(trimmed), ""}, "unexpected data after the model")
	}
	return jm, nil
}

func (d *jsonDec) initField(jm *jsonModel, path string) error {
	tok, a, err := d.next(path)
	if err != nil {
		return err
	}
	switch tok := tok.(type) {
	case json.Number:
		s, ok := parseIndex(tok.String())
		if !ok {
			return d.errAt(a, "initial state must be a whole number, not %s", tok)
		}
		jm.init, jm.initSingle = []jsonInit{{s: s, sAt: a, p: 1}}, true
		return nil
	case json.Delim:
		if tok != '[' {
			break
		}
		for i := 0; d.dec.More(); i++ {
			ep := fmt.Sprintf("%s[%d]", path, i)
			e := jsonInit{}
			var hasS, hasP bool
			err := d.object(ep, "an object {\"state\": s, \"p\": probability}", func(key string, ka at) error {
				switch key {
				case "state":
					var err error
					e.s, e.sAt, err = d.index(ep+".state", "a state number")
					hasS = true
					return err
				case "p":
					p, _, pa, err := d.prob(ep + ".p")
					if err == nil && p == 0 {
						err = d.errAt(pa, "an initial probability must be positive")
					}
					e.p, hasP = p, true
					return err
				}
				return d.errAt(ka, "unknown field %q (an initial entry has state and p)", key)
			})
			if err != nil {
				return err
			}
			if !hasS || !hasP {
				return d.errAt(at{a.off, ep}, "an initial entry needs both \"state\" and \"p\"")
			}
			jm.init = append(jm.init, e)
		}
		_, _, err := d.next(path)
		return err
	}
	return d.errAt(a, "expected an initial state or a list of {\"state\", \"p\"}, found %s", describe(tok))
}

func (d *jsonDec) transition(path string) (jsonTrans, error) {
	var t jsonTrans
	if _, err := d.open(path, '[', "a transition [from, to, p]"); err != nil {
		return t, err
	}
	var err error
	if t.from, t.fromAt, err = d.index(path+"[0]", "a source state"); err != nil {
		return t, err
	}
	if t.to, t.toAt, err = d.index(path+"[1]", "a target state"); err != nil {
		return t, err
	}
	if t.p, t.exact, _, err = d.prob(path + "[2]"); err != nil {
		return t, err
	}
	return t, d.closeDelim(path, ']', "a transition [from, to, p]")
}

func (d *jsonDec) reward(path string) (jsonReward, error) {
	r := jsonReward{}
	a, err := d.open(path, '{', "a reward structure {\"name\", \"state\", \"transitions\"}")
	if err != nil {
		return r, err
	}
	r.at = at{a.off, path}
	seen := map[string]bool{}
	for d.dec.More() {
		tok, ka, err := d.next(path)
		if err != nil {
			return r, err
		}
		key, _ := tok.(string)
		if seen[key] {
			return r, d.errAt(ka, "field %q is given twice", key)
		}
		seen[key] = true
		fp := path + "." + key
		switch key {
		case "name":
			var na at
			r.name, na, err = d.str(fp, "a string")
			r.at, r.hasName = at{na.off, fp}, true
		case "state":
			err = d.stateRewards(&r, fp)
		case "transitions":
			r.hasTrans = true
			r.transSeen = map[[2]int]bool{}
			_, err = d.list(fp, "a list of transition rewards [from, to, r]", func(i int, p string) error {
				var e jsonTransRew
				if _, err := d.open(p, '[', "a transition reward [from, to, r]"); err != nil {
					return err
				}
				var err error
				if e.from, e.fromAt, err = d.index(p+"[0]", "a source state"); err != nil {
					return err
				}
				if e.to, e.toAt, err = d.index(p+"[1]", "a target state"); err != nil {
					return err
				}
				if e.v, _, err = d.value(p+"[2]", "reward"); err != nil {
					return err
				}
				if r.transSeen[[2]int{e.from, e.to}] {
					return d.errAt(e.fromAt, "transition %d -> %d has a reward twice", e.from, e.to)
				}
				r.transSeen[[2]int{e.from, e.to}] = true
				r.trans = append(r.trans, e)
				return d.closeDelim(p, ']', "a transition reward [from, to, r]")
			})
		default:
			err = d.errAt(ka, "unknown field %q (a reward structure has name, state, transitions)", key)
		}
		if err != nil {
			return r, err
		}
	}
	if _, _, err := d.next(path); err != nil {
		return r, err
	}
	if !r.hasName {
		return r, d.errAt(r.at, "a reward structure needs a \"name\"")
	}
	return r, nil
}

// stateRewards reads "state" as either {"3": 2.5} or a dense list.
func (d *jsonDec) stateRewards(r *jsonReward, path string) error {
	r.hasState = true
	tok, a, err := d.next(path)
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		seen := map[int]bool{}
		for d.dec.More() {
			ktok, ka, err := d.next(path)
			if err != nil {
				return err
			}
			key, _ := ktok.(string)
			kp := fmt.Sprintf("%s[%q]", path, key)
			s, ok := parseIndex(key)
			if !ok || strconv.Itoa(s) != key {
				return d.errAt(ka, "state reward keys are state numbers written plainly, not %q", key)
			}
			if seen[s] {
				return d.errAt(ka, "state %d has a reward twice", s)
			}
			seen[s] = true
			v, _, err := d.value(kp, "reward")
			if err != nil {
				return err
			}
			r.state = append(r.state, jsonStateRew{s: s, at: at{ka.off, kp}, v: v})
		}
		_, _, err := d.next(path)
		return err
	case json.Delim('['):
		r.dense, r.denseAt = true, at{a.off, path}
		for i := 0; d.dec.More(); i++ {
			ep := fmt.Sprintf("%s[%d]", path, i)
			v, va, err := d.value(ep, "reward")
			if err != nil {
				return err
			}
			r.state = append(r.state, jsonStateRew{s: i, at: va, v: v})
		}
		_, _, err := d.next(path)
		return err
	}
	return d.errAt(a, "expected an object {\"state\": reward} or a list of rewards, found %s", describe(tok))
}

// build checks what needs the whole file (ranges, lengths, cross references) and hands the model
// to dtmc.
func (d *jsonDec) build(jm *jsonModel) (*dtmc.Model, error) {
	top := at{0, ""}
	// The version comes first: a file of another version may well lack the other fields.
	if _, ok := jm.seen["format"]; !ok {
		return nil, d.errAt(top, "missing field \"format\" (expected \"format\": %q)", JSONFormat)
	}
	if jm.format != JSONFormat {
		return nil, d.errAt(jm.formatAt, "unsupported format %q (this augur reads %q)", jm.format, JSONFormat)
	}
	for _, f := range []string{"states", "init", "transitions"} {
		if _, ok := jm.seen[f]; !ok {
			return nil, d.errAt(top, "missing field %q", f)
		}
	}
	n := jm.states
	if n == 0 {
		return nil, d.errAt(jm.statesAt, "a model needs at least one state")
	}
	if n > len(jm.trans) {
		return nil, d.errAt(jm.statesAt, "%d states but only %d transitions, and every state needs an outgoing one", n, len(jm.trans))
	}
	inRange := func(s int, a at) error {
		if s >= n {
			return d.errAt(a, "state %d is out of range 0..%d", s, n-1)
		}
		return nil
	}
	seen := map[[2]int]bool{}
	for _, t := range jm.trans {
		if err := inRange(t.from, t.fromAt); err != nil {
			return nil, err
		}
		if err := inRange(t.to, t.toAt); err != nil {
			return nil, err
		}
		if seen[[2]int{t.from, t.to}] {
			return nil, d.errAt(t.fromAt, "transition %d -> %d is given twice", t.from, t.to)
		}
		seen[[2]int{t.from, t.to}] = true
	}
	if jm.actions != nil && len(jm.actions) != len(jm.trans) {
		return nil, d.errAt(jm.actionsAt, "%d actions for %d transitions", len(jm.actions), len(jm.trans))
	}
	if jm.params != nil && len(jm.params) != len(jm.trans) {
		return nil, d.errAt(jm.paramsAt, "%d params for %d transitions", len(jm.params), len(jm.trans))
	}
	if jm.lines != nil && len(jm.lines) != n {
		return nil, d.errAt(jm.linesAt, "%d lines for %d states", len(jm.lines), n)
	}
	for _, e := range jm.init {
		if err := inRange(e.s, e.sAt); err != nil {
			return nil, err
		}
	}
	for _, lab := range jm.labels {
		if lab.name == "" {
			return nil, d.errAt(jm.seen["labels"], "a label has an empty name")
		}
		for i, s := range lab.states {
			if err := inRange(s, lab.at[i]); err != nil {
				return nil, err
			}
		}
	}
	names := map[string]bool{}
	for _, r := range jm.rewards {
		if r.name == "" {
			return nil, d.errAt(r.at, "a reward structure has an empty name")
		}
		if names[r.name] {
			return nil, d.errAt(r.at, "reward structure %q is given twice", r.name)
		}
		names[r.name] = true
		if r.dense && len(r.state) != n {
			return nil, d.errAt(r.denseAt, "%d state rewards for %d states", len(r.state), n)
		}
		for _, e := range r.state {
			if err := inRange(e.s, e.at); err != nil {
				return nil, err
			}
		}
		for _, e := range r.trans {
			if !seen[[2]int{e.from, e.to}] {
				return nil, d.errAt(e.fromAt, "transition %d -> %d is not in the model", e.from, e.to)
			}
		}
	}

	b := dtmc.NewBuilder(n)
	for i, t := range jm.trans {
		if t.exact != nil {
			b.AddExact(t.from, t.to, t.exact)
		} else {
			b.Add(t.from, t.to, t.p)
		}
		if jm.actions != nil {
			b.SetAction(jm.actions[i])
		}
		if jm.params != nil {
			b.SetParam(jm.params[i])
		}
	}
	if jm.initSingle {
		b.SetInit(jm.init[0].s)
	}
	for _, e := range jm.init {
		if !jm.initSingle {
			b.AddInit(e.s, e.p)
		}
	}
	for _, lab := range jm.labels {
		b.DeclareLabel(lab.name)
		for _, s := range lab.states {
			b.Label(lab.name, s)
		}
	}
	first := jm.trans[0]
	for _, r := range jm.rewards {
		b.DeclareReward(r.name)
		// An empty "state" or "transitions" still means the part exists (all zero); a zero
		// entry is how the Builder is told so.
		if r.hasState && len(r.state) == 0 {
			b.AddStateReward(r.name, 0, 0)
		}
		for _, e := range r.state {
			b.AddStateReward(r.name, e.s, e.v)
		}
		if r.hasTrans && len(r.trans) == 0 {
			b.AddTransReward(r.name, first.from, first.to, 0)
		}
		for _, e := range r.trans {
			b.AddTransReward(r.name, e.from, e.to, e.v)
		}
	}
	if jm.lines != nil {
		for s, line := range jm.lines {
			b.SetLine(s, line)
		}
	}
	m, err := b.Build()
	if err != nil {
		return nil, buildError(d.name, err)
	}
	return m, nil
}

// WriteJSON writes m in augur's JSON form. The output depends only on the model: fields in a
// fixed order, labels sorted by name, one transition per line.
func WriteJSON(w io.Writer, m *dtmc.Model) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "{\n  \"format\": %q,\n  \"states\": %d,\n", JSONFormat, m.N)
	if len(m.Init) == 1 && m.Init[0].P == 1 {
		fmt.Fprintf(bw, "  \"init\": %d,\n", m.Init[0].State)
	} else {
		bw.WriteString("  \"init\": [")
		for i, e := range m.Init {
			if i > 0 {
				bw.WriteString(", ")
			}
			fmt.Fprintf(bw, "{\"state\": %d, \"p\": %s}", e.State, formatFloat(e.P))
		}
		bw.WriteString("],\n")
	}
	bw.WriteString("  \"transitions\": [")
	for s := 0; s < m.N; s++ {
		for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
			if k > 0 {
				bw.WriteByte(',')
			}
			p := formatFloat(m.Prob[k])
			if m.Exact != nil && m.Exact[k] != nil {
				p = `"` + m.Exact[k].RatString() + `"`
			}
			fmt.Fprintf(bw, "\n    [%d, %d, %s]", s, m.Col[k], p)
		}
	}
	bw.WriteString("\n  ]")
	for _, part := range []struct {
		key  string
		list []string
	}{{"actions", m.Action}, {"params", m.Param}} {
		if part.list == nil {
			continue
		}
		fmt.Fprintf(bw, ",\n  %q: [", part.key)
		for i, s := range part.list {
			if i > 0 {
				bw.WriteString(", ")
			}
			if err := writeJSONString(bw, s, part.key); err != nil {
				return err
			}
		}
		bw.WriteByte(']')
	}
	if len(m.Labels) > 0 {
		bw.WriteString(",\n  \"labels\": {")
		for i, name := range sortedKeys(m.Labels) {
			if i > 0 {
				bw.WriteByte(',')
			}
			bw.WriteString("\n    ")
			if err := writeJSONString(bw, name, "label"); err != nil {
				return err
			}
			bw.WriteString(": ")
			writeInts(bw, m.Labels[name])
		}
		bw.WriteString("\n  }")
	}
	if len(m.Rewards) > 0 {
		bw.WriteString(",\n  \"rewards\": [")
		for i, r := range m.Rewards {
			if i > 0 {
				bw.WriteByte(',')
			}
			bw.WriteString("\n    {\"name\": ")
			if err := writeJSONString(bw, r.Name, "reward structure"); err != nil {
				return err
			}
			if r.State != nil {
				bw.WriteString(", \"state\": {")
				first := true
				for s, v := range r.State {
					if v != 0 {
						if !first {
							bw.WriteString(", ")
						}
						first = false
						fmt.Fprintf(bw, "\"%d\": %s", s, formatFloat(v))
					}
				}
				bw.WriteByte('}')
			}
			if r.Trans != nil {
				bw.WriteString(", \"transitions\": [")
				first := true
				for s := 0; s < m.N; s++ {
					for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
						if v := r.Trans[k]; v != 0 {
							if !first {
								bw.WriteString(", ")
							}
							first = false
							fmt.Fprintf(bw, "[%d, %d, %s]", s, m.Col[k], formatFloat(v))
						}
					}
				}
				bw.WriteByte(']')
			}
			bw.WriteByte('}')
		}
		bw.WriteString("\n  ]")
	}
	if m.Line != nil {
		bw.WriteString(",\n  \"lines\": ")
		writeInts(bw, m.Line)
	}
	bw.WriteString("\n}\n")
	return bw.Flush()
}

func writeInts(bw *bufio.Writer, xs []int) {
	bw.WriteByte('[')
	for i, x := range xs {
		if i > 0 {
			bw.WriteString(", ")
		}
		bw.WriteString(strconv.Itoa(x))
	}
	bw.WriteByte(']')
}

// writeJSONString quotes s for JSON without escaping <, > and & (no HTML here). Invalid UTF-8
// is refused rather than silently replaced, which would change the model.
func writeJSONString(bw *bufio.Writer, s, what string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("%s name %q is not valid UTF-8", what, s)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return err
	}
	bw.Write(bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}))
	return nil
}

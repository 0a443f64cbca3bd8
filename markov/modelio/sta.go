package modelio

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/augur-perf/augur/markov/dtmc"
)

// PRISM's states file, as written by `prism model.pm -exportstates out.sta` (or -exportmodel
// out.all):
//
//	(x,y,b)          the variables, in the model's order
//	0:(0,0,false)    one line per state: index, then its values
//
// Values are integers or true/false; augur keeps them as ints (Booleans as 0 and 1) so that
// properties over them (x=2 & b) mean what they mean in PRISM.

// DecodePRISMStates reads a states file for a model of n states; every state must be listed once.
func DecodePRISMStates(src Source, n int) (*dtmc.Vars, error) {
	l := newLines(src)
	if _, ok := l.nextData(false); !ok {
		if l.err != nil {
			return nil, l.err
		}
		return nil, &Error{File: src.Name, Msg: "empty states file (expected a header like (x,y))"}
	}
	names, err := staTuple(l, l.text)
	if err != nil {
		return nil, err
	}
	v := &dtmc.Vars{Names: make([]string, len(names.items)), Bool: make([]bool, len(names.items))}
	for i, it := range names.items {
		if !isIdentifier(it.s) {
			return nil, l.errf(it.col, "variable name %q is not an identifier", it.s)
		}
		if j := v.Index(it.s); j >= 0 && j < i {
			return nil, l.errf(it.col, "variable %q is declared twice", it.s)
		}
		v.Names[i] = it.s
	}
	k := len(names.items)
	v.Values = make([]int, n*k)
	seen := make([]bool, n)
	typed := make([]bool, k) // whether a value has fixed the variable's type yet
	count := 0
	for {
		if _, ok := l.nextData(false); !ok {
			break
		}
		head, rest, found := strings.Cut(l.text, ":")
		if !found {
			return nil, l.errf(1, "expected \"state:(values)\", found %q", strings.TrimSpace(l.text))
		}
		hf := fields(head)
		if len(hf) != 1 {
			return nil, l.errf(1, "expected one state number before ':'")
		}
		s, err := stateField(l, hf[0], n, "state")
		if err != nil {
			return nil, err
		}
		if seen[s] {
			return nil, l.errf(hf[0].col, "state %d is listed twice", s)
		}
		seen[s] = true
		count++
		tup, err := staTuple(l, rest)
		if err != nil {
			return nil, err
		}
		off := len(head) + 1
		if len(tup.items) != k {
			return nil, l.errf(off+tup.col, "expected %d values (%s), found %d", k, strings.Join(v.Names, ","), len(tup.items))
		}
		for i, it := range tup.items {
			val, isBool, ok := staValue(it.s)
			if !ok {
				return nil, l.errf(off+it.col, "value %q of %s is not an integer, true or false", it.s, v.Names[i])
			}
			if typed[i] && isBool != v.Bool[i] {
				return nil, l.errf(off+it.col, "value %q of %s: the variable's values so far were %s", it.s, v.Names[i], kindName(v.Bool[i]))
			}
			typed[i], v.Bool[i] = true, isBool
			v.Values[s*k+i] = val
		}
	}
	if l.err != nil {
		return nil, l.err
	}
	if count != n {
		for s, ok := range seen {
			if !ok {
				return nil, &Error{File: src.Name, Msg: fmt.Sprintf("state %d is not listed (the transitions file has %d states, this file %d)", s, n, count)}
			}
		}
	}
	return v, nil
}

func kindName(isBool bool) string {
	if isBool {
		return "Booleans"
	}
	return "integers"
}

type staItems struct {
	col   int // 1-based column of "(" within the text given to staTuple
	items []field
}

// staTuple reads "(a,b,c)" from text (of the current line), with columns relative to text.
func staTuple(l *lines, text string) (staItems, error) {
	t := strings.TrimRight(text, " \t\r")
	open := strings.IndexByte(t, '(')
	if open < 0 || strings.TrimSpace(t[:open]) != "" || !strings.HasSuffix(t, ")") {
		col := 1
		if f := fields(t); len(f) > 0 {
			col = f[0].col
		}
		return staItems{}, l.errf(col, "expected a parenthesised list like (x,y), found %q", strings.TrimSpace(t))
	}
	out := staItems{col: open + 1}
	inner := t[open+1 : len(t)-1]
	if strings.TrimSpace(inner) == "" {
		return out, nil
	}
	start := 0
	for i := 0; i <= len(inner); i++ {
		if i < len(inner) && inner[i] != ',' {
			continue
		}
		part := inner[start:i]
		lead := len(part) - len(strings.TrimLeft(part, " \t"))
		out.items = append(out.items, field{strings.TrimSpace(part), open + 2 + start + lead})
		start = i + 1
	}
	return out, nil
}

func staValue(s string) (int, bool, bool) {
	switch s {
	case "true":
		return 1, true, true
	case "false":
		return 0, true, true
	}
	body := strings.TrimPrefix(s, "-")
	if _, ok := parseIndex(body); !ok {
		return 0, false, false
	}
	v, err := strconv.Atoi(s)
	return v, false, err == nil
}

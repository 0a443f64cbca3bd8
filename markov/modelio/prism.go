package modelio

import (
	"bufio"
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/augur-perf/augur/markov/dtmc"
)

// PRISM's explicit files, as written by `prism model.pm -exportmodel out.tra,lab,srew,trew`
// (checked against PRISM's io/PrismExplicitExporter and io/PrismExplicitImporter):
//
//	out.tra   "N T" then one "src dst prob [action]" line per transition
//	out.lab   `0="init" 1="deadlock" 2="done"` then "state: i j" lines naming label indices
//	out.srew  optional `# Reward structure "name"` and `# State rewards` comment lines,
//	          then "N nonzero", then "state reward" lines
//	out.trew  the same comments (with `# Transition rewards`), "N nonzero", then
//	          "src dst reward" lines
//
// With several reward structures PRISM numbers the reward files, putting the counter before the
// last '.': out1.srew, out2.srew, ... and out1.trew, out2.trew, ... (Prism.java,
// exportBuiltModelStateRewards: PrismUtils.addCounterSuffixToFilename(filename, r+1)). Older
// symbolic-engine export code counted from 0 (out0.srew, out1.srew, ...). With one structure
// the name is used as given. FindPRISM accepts all three layouts. The comment lines are left out
// under -noexportheaders, and unnamed structures have no name in them.

// PRISMFiles names the files of one model in PRISM's explicit format. Lab may be empty (PRISM
// then takes state 0 as the only initial state). Srew[i] and Trew[i] belong to reward structure
// i; either list may be shorter than the other.
type PRISMFiles struct {
	Tra  string
	Lab  string
	Srew []string
	Trew []string
	// Sta is the states file (variable names and values), if present.
	Sta string
}

// PRISMWriteOptions tunes the PRISM explicit writers.
type PRISMWriteOptions struct {
	// Rationals writes the exact probability of a transition that has one as "p/q". PRISM reads
	// such files only with -exact; without the option the float64 value is written and the exact
	// one is lost.
	Rationals bool
}

// FindPRISM finds the explicit files of a model from its base name ("out") or the path of any
// of them ("out.tra"): out.tra (required), out.lab and out.sta if present, and the reward files
// in any of PRISM's naming layouts.
func FindPRISM(path string) (PRISMFiles, error) {
	base := path
	switch ext := filepath.Ext(path); ext {
	case ".tra", ".lab", ".srew", ".trew", ".sta":
		base = strings.TrimSuffix(path, ext)
	}
	f := PRISMFiles{Tra: base + ".tra"}
	if !fileExists(f.Tra) {
		return f, fmt.Errorf("%s: no PRISM transitions file (looked for %s)", path, f.Tra)
	}
	if fileExists(base + ".lab") {
		f.Lab = base + ".lab"
	}
	if fileExists(base + ".sta") {
		f.Sta = base + ".sta"
	}
	var err error
	if f.Srew, err = numberedFiles(base, ".srew"); err != nil {
		return f, err
	}
	if f.Trew, err = numberedFiles(base, ".trew"); err != nil {
		return f, err
	}
	return f, nil
}

// numberedFiles finds base.ext, or else base1.ext, base2.ext, ... (or base0.ext, base1.ext, ...
// as older PRISM code wrote them).
func numberedFiles(base, ext string) ([]string, error) {
	start := 1
	if fileExists(base + "0" + ext) {
		start = 0
	}
	var list []string
	for i := start; fileExists(base + strconv.Itoa(i) + ext); i++ {
		list = append(list, base+strconv.Itoa(i)+ext)
	}
	plain := base + ext
	if fileExists(plain) {
		if len(list) > 0 {
			return nil, fmt.Errorf("both %s and %s exist: cannot tell whether the model has one reward structure or several", plain, list[0])
		}
		return []string{plain}, nil
	}
	return list, nil
}

// LoadPRISM reads a model from PRISM explicit files found by FindPRISM.
func LoadPRISM(path string) (*dtmc.Model, error) {
	f, err := FindPRISM(path)
	if err != nil {
		return nil, err
	}
	m, err := ReadPRISM(f.Tra, f.Lab, f.Srew, f.Trew)
	if err != nil || f.Sta == "" {
		return m, err
	}
	srcs, closeAll, err := openSources(f.Sta)
	if err != nil {
		return nil, err
	}
	defer closeAll()
	if m.Vars, err = DecodePRISMStates(srcs[0], m.N); err != nil {
		return nil, err
	}
	return m, nil
}

// ReadPRISM reads a model from PRISM explicit files. lab may be empty.
func ReadPRISM(tra, lab string, srew, trew []string) (*dtmc.Model, error) {
	paths := append([]string{tra, lab}, srew...)
	paths = append(paths, trew...)
	srcs, closeAll, err := openSources(paths...)
	if err != nil {
		return nil, err
	}
	defer closeAll()
	return DecodePRISM(srcs[0], srcs[1], srcs[2:2+len(srew)], srcs[2+len(srew):])
}

// DecodePRISM reads a model from PRISM explicit files given as streams. lab.R may be nil.
func DecodePRISM(tra, lab Source, srew, trew []Source) (*dtmc.Model, error) {
	raw, has, parts, err := readPRISMTra(tra)
	if err != nil {
		return nil, err
	}
	if lab.R != nil {
		if raw.init, raw.labels, err = readPRISMLab(lab, raw.n); err != nil {
			return nil, err
		}
	} else {
		raw.init = []int{0}
	}
	k := max(len(srew), len(trew))
	seen := map[string]string{}
	for i := 0; i < k; i++ {
		rw := rawReward{}
		var sname, tname, where string
		if i < len(srew) {
			if sname, rw.state, err = readPRISMStateRewards(srew[i], raw.n); err != nil {
				return nil, err
			}
			where = srew[i].Name
		}
		if i < len(trew) {
			if tname, rw.trans, err = readPRISMTransRewards(trew[i], raw.n, has, parts); err != nil {
				return nil, err
			}
			if where == "" {
				where = trew[i].Name
			}
		}
		switch {
		case sname != "" && tname != "" && sname != tname:
			return nil, &Error{File: trew[i].Name, Msg: fmt.Sprintf("reward structure %q does not match the state rewards' %q in %s", tname, sname, srew[i].Name)}
		case sname != "":
			rw.name = sname
		case tname != "":
			rw.name = tname
		default:
			// PRISM refers to unnamed structures by position; so does augur.
			rw.name = "r" + strconv.Itoa(i+1)
		}
		if prev, ok := seen[rw.name]; ok {
			return nil, &Error{File: where, Msg: fmt.Sprintf("reward structure %q is also in %s", rw.name, prev)}
		}
		seen[rw.name] = where
		raw.rewards = append(raw.rewards, rw)
	}
	return raw.build(tra.Name)
}

// readPRISMTra reads the transitions file. Besides the model it returns which transitions it has
// and, for transitions written on several lines (one per action), each line's probability in
// file order, by which their transition rewards are combined. A file in the form PRISM writes
// takes the fast path (fastPRISMTra) when it can be read again from the start.
func readPRISMTra(src Source) (*rawModel, func(from, to int) bool, map[[2]int][]float64, error) {
	if rs, pos, ok := seekable(src); ok {
		if raw, ok := fastPRISMTra(src, pos); ok {
			return raw, raw.csr.has, nil, nil
		}
		if _, err := rs.Seek(pos, io.SeekStart); err != nil {
			return nil, nil, nil, &Error{File: src.Name, Msg: "read error: " + err.Error()}
		}
	}
	l := newLines(src)
	fs, ok := l.nextData(true)
	if !ok {
		if l.err != nil {
			return nil, nil, nil, l.err
		}
		return nil, nil, nil, &Error{File: src.Name, Msg: "empty transitions file (expected a header \"states transitions\")"}
	}
	if len(fs) != 2 {
		if len(fs) == 3 {
			return nil, nil, nil, l.errf(fs[0].col, "header %q is that of a nondeterministic model (states choices transitions); augur reads DTMCs only", l.text)
		}
		return nil, nil, nil, l.errf(fs[0].col, "expected a header \"states transitions\", found %q", l.text)
	}
	n, ok := parseIndex(fs[0].s)
	if !ok || n == 0 {
		return nil, nil, nil, l.errf(fs[0].col, "number of states %q is not a positive integer", fs[0].s)
	}
	t, ok := parseIndex(fs[1].s)
	if !ok {
		return nil, nil, nil, l.errf(fs[1].col, "number of transitions %q is not an integer", fs[1].s)
	}
	headerLine, headerCol := l.line, fs[1].col
	raw := &rawModel{n: n}
	index := map[[2]int]int{}
	lineOf := map[[2]int]int{}
	parts := map[[2]int][]float64{}
	merged := 0 // lines added to an earlier transition with the same source and target
	for {
		fs, ok := l.nextData(true)
		if !ok {
			break
		}
		if len(fs) < 3 || len(fs) > 4 {
			return nil, nil, nil, l.errf(fs[0].col, "expected \"source target probability [action]\", found %d fields", len(fs))
		}
		from, err := stateField(l, fs[0], n, "source state")
		if err != nil {
			return nil, nil, nil, err
		}
		to, err := stateField(l, fs[1], n, "target state")
		if err != nil {
			return nil, nil, nil, err
		}
		p, exact, perr := parseProb(fs[2].s, true)
		if perr != nil {
			return nil, nil, nil, l.errf(fs[2].col, "%v", perr)
		}
		tr := rawTrans{from: from, to: to, p: p, exact: exact}
		if len(fs) == 4 {
			if !isIdentifier(fs[3].s) {
				return nil, nil, nil, l.errf(fs[3].col, "action %q is not an identifier", fs[3].s)
			}
			tr.action = fs[3].s
		}
		key := [2]int{from, to}
		if first, dup := lineOf[key]; dup {
			prev := &raw.trans[index[key]]
			// PRISM writes one line per action, so a DTMC whose commands with different
			// actions lead to the same state has several lines for one transition: the chain
			// moves there with their total probability. Without actions a repeated line is a
			// mistake, not a choice.
			if tr.action == "" && prev.action == "" {
				return nil, nil, nil, l.errf(fs[0].col, "transition %d -> %d is given twice (first on line %d) and neither line names an action", from, to, first)
			}
			if _, ok := parts[key]; !ok {
				parts[key] = []float64{prev.p}
			}
			parts[key] = append(parts[key], tr.p)
			mergeTrans(prev, tr)
			merged++
			continue
		}
		lineOf[key] = l.line
		index[key] = len(raw.trans)
		raw.trans = append(raw.trans, tr)
	}
	if l.err != nil {
		return nil, nil, nil, l.err
	}
	if len(raw.trans)+merged != t {
		return nil, nil, nil, &Error{File: src.Name, Line: headerLine, Col: headerCol, Msg: fmt.Sprintf("header says %d transitions but the file has %d", t, len(raw.trans)+merged)}
	}
	if n > len(raw.trans) {
		return nil, nil, nil, &Error{File: src.Name, Line: headerLine, Col: 1, Msg: fmt.Sprintf("header says %d states but there are only %d transitions, and every state needs an outgoing one", n, len(raw.trans))}
	}
	has := func(from, to int) bool {
		_, ok := index[[2]int{from, to}]
		return ok
	}
	return raw, has, parts, nil
}

// mergeTrans adds the probability of another action's line for the same transition to t. The
// sum is exact when both parts are; the merged transition keeps an action only when both lines
// name the same one.
func mergeTrans(t *rawTrans, o rawTrans) {
	if t.exact != nil && o.exact != nil {
		t.exact = new(big.Rat).Add(t.exact, o.exact)
		t.p, _ = t.exact.Float64()
	} else {
		t.exact = nil
		t.p += o.p
	}
	if t.action != o.action {
		t.action = ""
	}
}

// stateField reads a state number that must be below n.
func stateField(l *lines, f field, n int, what string) (int, error) {
	s, ok := parseIndex(f.s)
	if !ok {
		return 0, l.errf(f.col, "%s %q is not a state number", what, f.s)
	}
	if s >= n {
		return 0, l.errf(f.col, "%s %d is out of range 0..%d", what, s, n-1)
	}
	return s, nil
}

func readPRISMLab(src Source, n int) ([]int, map[string][]int, error) {
	l := newLines(src)
	if !l.next() {
		if l.err != nil {
			return nil, nil, l.err
		}
		return nil, nil, &Error{File: src.Name, Msg: "empty labels file (expected a line like 0=\"init\" 1=\"deadlock\")"}
	}
	for strings.HasPrefix(strings.TrimSpace(l.text), "#") || strings.TrimSpace(l.text) == "" {
		if !l.next() {
			if l.err != nil {
				return nil, nil, l.err
			}
			return nil, nil, &Error{File: src.Name, Msg: "labels file has no label declarations"}
		}
	}
	declLine := l.line
	names, err := parseLabelDecls(l)
	if err != nil {
		return nil, nil, err
	}
	sets := make([][]int, len(names))
	// Nothing of a line is kept but numbers: the lines and their fields are borrowed, without an
	// allocation per line (a random chain of 10^6 states has 10^5 labelled ones).
	var fs, sf, lf []field
	for {
		var ok bool
		if fs, ok = l.nextDataInto(true, true, fs); !ok {
			break
		}
		stateText, rest, found := strings.Cut(l.text, ":")
		if !found {
			return nil, nil, l.errf(fs[0].col, "expected \"state: label indices\", found %q", l.text)
		}
		sf = appendFields(sf[:0], stateText)
		if len(sf) != 1 {
			return nil, nil, l.errf(fs[0].col, "expected one state number before ':'")
		}
		s, err := stateField(l, sf[0], n, "state")
		if err != nil {
			return nil, nil, err
		}
		off := len(stateText) + 1
		lf = appendFields(lf[:0], rest)
		for _, f := range lf {
			i, ok := parseIndex(f.s)
			if !ok || i >= len(names) {
				return nil, nil, l.errf(off+f.col, "label index %q is not one of 0..%d declared on line %d", f.s, len(names)-1, declLine)
			}
			sets[i] = append(sets[i], s)
		}
	}
	if l.err != nil {
		return nil, nil, l.err
	}
	return splitInit(names, sets, src.Name, declLine)
}

// parseLabelDecls reads `0="init" 1="deadlock" 2="done"` from the current line.
func parseLabelDecls(l *lines) ([]string, error) {
	text := l.text
	var names []string
	seen := map[string]bool{}
	i := 0
	for {
		for i < len(text) && isSpace(text[i]) {
			i++
		}
		if i == len(text) {
			break
		}
		start := i
		for i < len(text) && text[i] >= '0' && text[i] <= '9' {
			i++
		}
		idx, ok := parseIndex(text[start:i])
		if !ok {
			return nil, l.errf(start+1, "expected a label declaration like 0=\"init\"")
		}
		if idx != len(names) {
			return nil, l.errf(start+1, "label index %d out of order (expected %d)", idx, len(names))
		}
		if i+1 >= len(text) || text[i] != '=' || text[i+1] != '"' {
			return nil, l.errf(i+1, "expected =\"name\" after label index %d", idx)
		}
		i += 2
		nameStart := i
		for i < len(text) && text[i] != '"' {
			i++
		}
		if i == len(text) {
			return nil, l.errf(nameStart, "unterminated label name")
		}
		name := text[nameStart:i]
		i++
		if !isIdentifier(name) {
			return nil, l.errf(nameStart+1, "label name %q is not an identifier", name)
		}
		if seen[name] {
			return nil, l.errf(nameStart+1, "label %q is declared twice", name)
		}
		seen[name] = true
		names = append(names, name)
	}
	if len(names) == 0 {
		return nil, l.errf(1, "expected label declarations like 0=\"init\" 1=\"deadlock\"")
	}
	return names, nil
}

func dedupe(st []int) []int {
	seen := map[int]bool{}
	var out []int
	for _, s := range st {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// rewardHeader reads the comment lines recent PRISM releases put before a reward file's header line and
// returns the structure's name ("" if none) and the first data line.
func rewardHeader(l *lines, kind, other string) (string, []field, error) {
	name := ""
	for l.next() {
		t := strings.TrimSpace(l.text)
		if t == "" {
			continue
		}
		if !strings.HasPrefix(t, "#") {
			return name, fields(l.text), nil
		}
		c := strings.TrimSpace(strings.TrimPrefix(t, "#"))
		switch {
		case strings.HasPrefix(c, "Reward structure"):
			q := strings.TrimSpace(strings.TrimPrefix(c, "Reward structure"))
			if q == "" {
				continue
			}
			col := strings.Index(l.text, q) + 1
			if len(q) < 2 || q[0] != '"' || q[len(q)-1] != '"' {
				return "", nil, l.errf(col, "reward structure name %s is not in double quotes", q)
			}
			name = q[1 : len(q)-1]
			if name != "" && !isIdentifier(name) {
				return "", nil, l.errf(col+1, "reward structure name %q is not an identifier", name)
			}
		case strings.HasPrefix(c, other):
			return "", nil, l.errf(1, "this is a %s file, not a %s file", strings.ToLower(other), strings.ToLower(kind))
		}
	}
	if l.err != nil {
		return "", nil, l.err
	}
	return "", nil, &Error{File: l.name, Line: l.line, Msg: "no header line \"states nonzero\""}
}

// countHeader checks a reward file's "N nonzero" line and returns the announced count.
func countHeader(l *lines, fs []field, n int) (int, error) {
	if len(fs) != 2 {
		return 0, l.errf(fs[0].col, "expected a header \"states nonzero\", found %q", strings.TrimSpace(l.text))
	}
	got, ok := parseIndex(fs[0].s)
	if !ok || got != n {
		return 0, l.errf(fs[0].col, "header gives %q states but the transitions file has %d", fs[0].s, n)
	}
	nnz, ok := parseIndex(fs[1].s)
	if !ok {
		return 0, l.errf(fs[1].col, "count of rewards %q is not an integer", fs[1].s)
	}
	return nnz, nil
}

func readPRISMStateRewards(src Source, n int) (string, []stateValue, error) {
	if rs, pos, ok := seekable(src); ok {
		if name, out, ok := fastPRISMStateRewards(src, pos, n); ok {
			return name, out, nil
		}
		if _, err := rs.Seek(pos, io.SeekStart); err != nil {
			return "", nil, &Error{File: src.Name, Msg: "read error: " + err.Error()}
		}
	}
	l := newLines(src)
	name, fs, err := rewardHeader(l, "State rewards", "Transition rewards")
	if err != nil {
		return "", nil, err
	}
	nnz, err := countHeader(l, fs, n)
	if err != nil {
		return "", nil, err
	}
	headerLine := l.line
	var out []stateValue
	count := 0
	seen := map[int]int{}
	for {
		fs, ok := l.nextData(true)
		if !ok {
			break
		}
		if len(fs) != 2 {
			return "", nil, l.errf(fs[0].col, "expected \"state reward\", found %d fields", len(fs))
		}
		s, err := stateField(l, fs[0], n, "state")
		if err != nil {
			return "", nil, err
		}
		if first, dup := seen[s]; dup {
			return "", nil, l.errf(fs[0].col, "state %d is given twice (first on line %d)", s, first)
		}
		seen[s] = l.line
		v, verr := parseValue(fs[1].s, "reward")
		if verr != nil {
			return "", nil, l.errf(fs[1].col, "%v", verr)
		}
		count++
		if v != 0 {
			out = append(out, stateValue{s, v})
		}
	}
	if l.err != nil {
		return "", nil, l.err
	}
	if count != nnz {
		return "", nil, &Error{File: src.Name, Line: headerLine, Msg: fmt.Sprintf("header says %d rewards but the file has %d", nnz, count)}
	}
	return name, out, nil
}

func readPRISMTransRewards(src Source, n int, has func(from, to int) bool, parts map[[2]int][]float64) (string, []transValue, error) {
	l := newLines(src)
	name, fs, err := rewardHeader(l, "Transition rewards", "State rewards")
	if err != nil {
		return "", nil, err
	}
	nnz, err := countHeader(l, fs, n)
	if err != nil {
		return "", nil, err
	}
	headerLine := l.line
	out, count, err := readTransRewardLines(l, n, has, parts, true)
	if err != nil {
		return "", nil, err
	}
	if count != nnz {
		return "", nil, &Error{File: src.Name, Line: headerLine, Msg: fmt.Sprintf("header says %d rewards but the file has %d", nnz, count)}
	}
	return name, out, nil
}

// readTransRewardLines reads "src dst reward" lines, each of which must name a transition of
// the model; it returns the non-zero ones and how many lines there were. A transition in parts
// was written once per action, and PRISM writes its rewards so too (in the same order, leaving
// out zeros): they are combined into the reward that gives the same expected reward per step.
func readTransRewardLines(l *lines, n int, has func(from, to int) bool, parts map[[2]int][]float64, comments bool) ([]transValue, int, error) {
	var out []transValue
	count := 0
	seen := map[[2]int]int{}
	perAction := map[[2]int][]float64{}
	var order [][2]int
	for {
		fs, ok := l.nextData(comments)
		if !ok {
			break
		}
		if len(fs) != 3 {
			return nil, 0, l.errf(fs[0].col, "expected \"source target reward\", found %d fields", len(fs))
		}
		from, err := stateField(l, fs[0], n, "source state")
		if err != nil {
			return nil, 0, err
		}
		to, err := stateField(l, fs[1], n, "target state")
		if err != nil {
			return nil, 0, err
		}
		key := [2]int{from, to}
		if !has(from, to) {
			return nil, 0, l.errf(fs[0].col, "transition %d -> %d is not in the model", from, to)
		}
		p, split := parts[key]
		if first, dup := seen[key]; dup && (!split || len(perAction[key]) == len(p)) {
			return nil, 0, l.errf(fs[0].col, "transition %d -> %d is given twice (first on line %d)", from, to, first)
		}
		seen[key] = l.line
		v, verr := parseValue(fs[2].s, "reward")
		if verr != nil {
			return nil, 0, l.errf(fs[2].col, "%v", verr)
		}
		count++
		switch {
		case split:
			if perAction[key] == nil {
				order = append(order, key)
			}
			perAction[key] = append(perAction[key], v)
		case v != 0:
			out = append(out, transValue{from, to, v})
		}
	}
	if l.err != nil {
		return nil, 0, l.err
	}
	for _, key := range order {
		p, rs := parts[key], perAction[key]
		total, expected := 0.0, 0.0
		for i, q := range p {
			total += q
			if len(rs) == len(p) {
				expected += q * rs[i]
			} else if q != p[0] {
				// Some actions' zero rewards were left out and the actions' probabilities differ,
				// so which reward belongs to which probability cannot be told.
				return nil, 0, &Error{File: l.name, Msg: fmt.Sprintf("transition %d -> %d is written for %d actions with different probabilities but has rewards for %d of them: cannot tell which reward is whose", key[0], key[1], len(p), len(rs))}
			}
		}
		if len(rs) != len(p) {
			for _, r := range rs {
				expected += p[0] * r
			}
		}
		if v := expected / total; v != 0 {
			out = append(out, transValue{key[0], key[1], v})
		}
	}
	return out, count, nil
}

// WritePRISMTra writes the transitions file.
func WritePRISMTra(w io.Writer, m *dtmc.Model, opt PRISMWriteOptions) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%d %d\n", m.N, m.NumTransitions())
	for s := 0; s < m.N; s++ {
		for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
			p := formatFloat(m.Prob[k])
			if opt.Rationals && m.Exact != nil && m.Exact[k] != nil {
				p = formatRat(m.Exact[k])
			}
			fmt.Fprintf(bw, "%d %d %s", s, m.Col[k], p)
			if m.Action != nil && m.Action[k] != "" {
				if !isIdentifier(m.Action[k]) {
					return fmt.Errorf("PRISM explicit format: action %q of transition %d -> %d is not an identifier", m.Action[k], s, m.Col[k])
				}
				fmt.Fprintf(bw, " %s", m.Action[k])
			}
			bw.WriteByte('\n')
		}
	}
	return bw.Flush()
}

// WritePRISMLab writes the labels file: "init" and "deadlock" first, as PRISM does, then the
// model's labels in sorted order.
func WritePRISMLab(w io.Writer, m *dtmc.Model) error {
	init, err := uniformInit(m, "PRISM's explicit format")
	if err != nil {
		return err
	}
	names, deadlock, err := writerLabels(m, init, "PRISM's explicit format")
	if err != nil {
		return err
	}
	for _, name := range names {
		if !isIdentifier(name) {
			return fmt.Errorf("PRISM explicit format: label %q is not an identifier", name)
		}
	}
	all := append([]string{"init", "deadlock"}, names...)
	sets := append([][]int{init, deadlock}, make([][]int, len(names))...)
	for i, name := range names {
		sets[i+2] = m.Labels[name]
	}
	return writeLabelRows(w, m.N, all, sets, func(bw *bufio.Writer, s int) {
		fmt.Fprintf(bw, "%d:", s)
	}, func(bw *bufio.Writer, i int, _ string) {
		fmt.Fprintf(bw, " %d", i)
	}, func(bw *bufio.Writer) {
		for i, name := range all {
			if i > 0 {
				bw.WriteByte(' ')
			}
			fmt.Fprintf(bw, "%d=%q", i, name)
		}
		bw.WriteByte('\n')
	})
}

// writeLabelRows writes a header and then, for every state holding at least one label, a row
// made by start and item; both formats list a state's labels in declaration order.
func writeLabelRows(w io.Writer, n int, names []string, sets [][]int, start func(*bufio.Writer, int), item func(*bufio.Writer, int, string), header func(*bufio.Writer)) error {
	bw := bufio.NewWriter(w)
	header(bw)
	pos := make([]int, len(sets))
	for s := 0; s < n; s++ {
		started := false
		for i, set := range sets {
			if pos[i] < len(set) && set[pos[i]] == s {
				pos[i]++
				if !started {
					start(bw, s)
					started = true
				}
				item(bw, i, names[i])
			}
		}
		if started {
			bw.WriteByte('\n')
		}
	}
	return bw.Flush()
}

func prismRewardHeader(bw *bufio.Writer, r *dtmc.Reward, kind string) error {
	if !isIdentifier(r.Name) {
		return fmt.Errorf("PRISM explicit format: reward structure name %q is not an identifier", r.Name)
	}
	fmt.Fprintf(bw, "# Reward structure %q\n# %s\n", r.Name, kind)
	return nil
}

// WritePRISMStateRewards writes the state rewards of structure r (an index into m.Rewards).
func WritePRISMStateRewards(w io.Writer, m *dtmc.Model, r int) error {
	rw := m.Rewards[r]
	bw := bufio.NewWriter(w)
	if err := prismRewardHeader(bw, rw, "State rewards"); err != nil {
		return err
	}
	fmt.Fprintf(bw, "%d %d\n", m.N, nonZero(rw.State))
	for s, v := range rw.State {
		if v != 0 {
			fmt.Fprintf(bw, "%d %s\n", s, formatFloat(v))
		}
	}
	return bw.Flush()
}

// WritePRISMTransRewards writes the transition rewards of structure r (an index into m.Rewards).
func WritePRISMTransRewards(w io.Writer, m *dtmc.Model, r int) error {
	rw := m.Rewards[r]
	bw := bufio.NewWriter(w)
	if err := prismRewardHeader(bw, rw, "Transition rewards"); err != nil {
		return err
	}
	fmt.Fprintf(bw, "%d %d\n", m.N, nonZero(rw.Trans))
	writeTransRewards(bw, m, rw)
	return bw.Flush()
}

func writeTransRewards(bw *bufio.Writer, m *dtmc.Model, rw *dtmc.Reward) {
	if rw.Trans == nil {
		return
	}
	for s := 0; s < m.N; s++ {
		for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
			if v := rw.Trans[k]; v != 0 {
				fmt.Fprintf(bw, "%d %d %s\n", s, m.Col[k], formatFloat(v))
			}
		}
	}
}

// WritePRISMFiles writes base.tra, base.lab and, as PRISM does, a state and a transition
// rewards file for every reward structure: base.srew and base.trew for one, base1.srew,
// base1.trew, base2.srew, ... for several. It returns the files written.
func WritePRISMFiles(base string, m *dtmc.Model, opt PRISMWriteOptions) (PRISMFiles, error) {
	f := PRISMFiles{Tra: base + ".tra", Lab: base + ".lab"}
	for i := range m.Rewards {
		b := base
		if len(m.Rewards) > 1 {
			b += strconv.Itoa(i + 1)
		}
		f.Srew = append(f.Srew, b+".srew")
		f.Trew = append(f.Trew, b+".trew")
	}
	if err := writeFile(f.Tra, func(w io.Writer) error { return WritePRISMTra(w, m, opt) }); err != nil {
		return f, err
	}
	if err := writeFile(f.Lab, func(w io.Writer) error { return WritePRISMLab(w, m) }); err != nil {
		return f, err
	}
	for i := range m.Rewards {
		if err := writeFile(f.Srew[i], func(w io.Writer) error { return WritePRISMStateRewards(w, m, i) }); err != nil {
			return f, err
		}
		if err := writeFile(f.Trew[i], func(w io.Writer) error { return WritePRISMTransRewards(w, m, i) }); err != nil {
			return f, err
		}
	}
	return f, nil
}

// writeFile writes path through write, leaving no half-written file behind on error.
func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		os.Remove(path)
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}

// nonZero counts the non-zero entries: the ones the explicit reward files list.
func nonZero(vs []float64) int {
	n := 0
	for _, v := range vs {
		if v != 0 {
			n++
		}
	}
	return n
}

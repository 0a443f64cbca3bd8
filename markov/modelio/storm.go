package modelio

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/augur-perf/augur/markov/dtmc"
)

// Storm's explicit files, as read by `storm --explicit model.tra model.lab --staterew ...
// --transrew ...` (checked against Storm's DeterministicSparseTransitionParser,
// AtomicPropositionLabelingParser and SparseStateRewardParser):
//
//	model.tra             an optional format hint line ("dtmc"), then "src dst prob" lines in
//	                      increasing (src, dst) order; the number of states is the highest
//	                      state number plus one
//	model.lab             "#DECLARATION", the label names, "#END", then "state label label ..."
//	                      lines with increasing states; "init" marks the initial states
//	model.NAME.state.rew  "state reward" lines with increasing states
//	model.NAME.trans.rew  "src dst reward" lines in increasing (src, dst) order
//
// Storm reads one reward model per run and names none; the NAME part of the file names is how
// augur keeps a structure's name (Storm's own test files are named this way, e.g.
// two_dice.flip.state.rew). Unnamed files (model.state.rew, model.trans.rew, or model.tra.rew as
// in Storm's examples) read as structure "r1". Storm has no comments, actions or exact values.

// stormMaxLabel is the longest label name Storm's parser accepts.
const stormMaxLabel = 127

// StormFiles names the files of one model in Storm's explicit format.
type StormFiles struct {
	Tra, Lab string
	Rewards  []StormRewardFiles
}

// StormRewardFiles names the files of one reward structure; either may be empty.
type StormRewardFiles struct {
	Name         string
	State, Trans string
}

// StormRewardSources gives the files of one reward structure as streams; either R may be nil.
type StormRewardSources struct {
	Name         string
	State, Trans Source
}

// FindStorm finds the explicit files of a model from its base name ("die") or the path of its
// .tra or .lab file: die.tra and die.lab (both required, as Storm needs them) and the reward
// files die.state.rew, die.trans.rew, die.tra.rew (unnamed) and die.NAME.state.rew,
// die.NAME.trans.rew. Structures come unnamed first, then by name.
func FindStorm(path string) (StormFiles, error) {
	base := path
	switch ext := filepath.Ext(path); ext {
	case ".tra", ".lab":
		base = strings.TrimSuffix(path, ext)
	}
	f := StormFiles{Tra: base + ".tra", Lab: base + ".lab"}
	for _, p := range []string{f.Tra, f.Lab} {
		if !fileExists(p) {
			return f, fmt.Errorf("%s: no Storm model file %s", path, p)
		}
	}
	unnamed := StormRewardFiles{Name: "r1"}
	if fileExists(base + ".state.rew") {
		unnamed.State = base + ".state.rew"
	}
	for _, p := range []string{base + ".trans.rew", base + ".tra.rew"} {
		if fileExists(p) {
			if unnamed.Trans != "" {
				return f, fmt.Errorf("both %s and %s exist: cannot tell which holds the transition rewards", unnamed.Trans, p)
			}
			unnamed.Trans = p
		}
	}
	if unnamed.State != "" || unnamed.Trans != "" {
		f.Rewards = append(f.Rewards, unnamed)
	}
	dir, prefix := filepath.Dir(base), filepath.Base(base)+"."
	entries, err := os.ReadDir(dir)
	if err != nil {
		return f, err
	}
	named := map[string]*StormRewardFiles{}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasPrefix(name, prefix) {
			continue
		}
		rest := strings.TrimPrefix(name, prefix)
		for _, kind := range []string{".state.rew", ".trans.rew"} {
			rname, ok := strings.CutSuffix(rest, kind)
			if !ok || rname == "" {
				continue
			}
			r := named[rname]
			if r == nil {
				r = &StormRewardFiles{Name: rname}
				named[rname] = r
			}
			if kind == ".state.rew" {
				r.State = filepath.Join(dir, name)
			} else {
				r.Trans = filepath.Join(dir, name)
			}
		}
	}
	names := make([]string, 0, len(named))
	for n := range named {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		f.Rewards = append(f.Rewards, *named[n])
	}
	return f, nil
}

// LoadStorm reads a model from Storm explicit files found by FindStorm.
func LoadStorm(path string) (*dtmc.Model, error) {
	f, err := FindStorm(path)
	if err != nil {
		return nil, err
	}
	return ReadStorm(f)
}

// ReadStorm reads a model from Storm explicit files.
func ReadStorm(f StormFiles) (*dtmc.Model, error) {
	if f.Lab == "" {
		return nil, fmt.Errorf("%s: Storm's explicit format needs a labels file for the initial states", f.Tra)
	}
	paths := []string{f.Tra, f.Lab}
	for _, r := range f.Rewards {
		paths = append(paths, r.State, r.Trans)
	}
	srcs, closeAll, err := openSources(paths...)
	if err != nil {
		return nil, err
	}
	defer closeAll()
	rs := make([]StormRewardSources, len(f.Rewards))
	for i, r := range f.Rewards {
		rs[i] = StormRewardSources{Name: r.Name, State: srcs[2+2*i], Trans: srcs[3+2*i]}
	}
	return DecodeStorm(srcs[0], srcs[1], rs)
}

// DecodeStorm reads a model from Storm explicit files given as streams. A reward structure with
// an empty name is called r1, r2, ... by its position.
func DecodeStorm(tra, lab Source, rewards []StormRewardSources) (*dtmc.Model, error) {
	raw, index, err := readStormTra(tra)
	if err != nil {
		return nil, err
	}
	if lab.R == nil {
		return nil, &Error{File: tra.Name, Msg: "Storm's explicit format needs a labels file for the initial states"}
	}
	if raw.init, raw.labels, err = readStormLab(lab, raw.n); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i, r := range rewards {
		rw := rawReward{name: r.Name}
		if rw.name == "" {
			rw.name = "r" + strconv.Itoa(i+1)
		}
		if seen[rw.name] {
			where := r.State.Name
			if where == "" {
				where = r.Trans.Name
			}
			return nil, &Error{File: where, Msg: fmt.Sprintf("reward structure %q is given twice", rw.name)}
		}
		seen[rw.name] = true
		if r.State.R != nil {
			if rw.state, err = readStormStateRewards(r.State, raw.n); err != nil {
				return nil, err
			}
		}
		if r.Trans.R != nil {
			if rw.trans, err = readStormTransRewards(r.Trans, raw.n, index); err != nil {
				return nil, err
			}
		}
		raw.rewards = append(raw.rewards, rw)
	}
	return raw.build(tra.Name)
}

// stormHint skips Storm's optional format hint line; only "dtmc" makes sense here.
func stormHint(l *lines) ([]field, bool, error) {
	fs, ok := l.nextData(false)
	if !ok {
		return nil, false, l.err
	}
	if c := fs[0].s[0]; c >= '0' && c <= '9' {
		return fs, true, nil
	}
	if len(fs) != 1 || fs[0].s != "dtmc" {
		return nil, false, l.errf(fs[0].col, "format hint %q: augur reads DTMCs only (expected \"dtmc\" or a transition)", strings.TrimSpace(l.text))
	}
	fs, ok = l.nextData(false)
	return fs, ok, l.err
}

func readStormTra(src Source) (*rawModel, map[[2]int]int, error) {
	l := newLines(src)
	fs, ok, err := stormHint(l)
	if err != nil {
		return nil, nil, err
	}
	raw := &rawModel{}
	index := map[[2]int]int{}
	last := [2]int{-1, -1}
	// Storm sizes the model by its highest state; where that state was named is where to point
	// if it asks for more states than there are transitions.
	var maxAt *Error
	for ; ok; fs, ok = l.nextData(false) {
		if len(fs) != 3 {
			return nil, nil, l.errf(fs[0].col, "expected \"source target probability\", found %d fields", len(fs))
		}
		var st [2]int
		for i, what := range []string{"source state", "target state"} {
			s, ok := parseIndex(fs[i].s)
			if !ok {
				return nil, nil, l.errf(fs[i].col, "%s %q is not a state number", what, fs[i].s)
			}
			if s >= raw.n {
				raw.n = s + 1
				maxAt = l.errf(fs[i].col, "state %d makes %d states", s, raw.n)
			}
			st[i] = s
		}
		if st[0] < last[0] || (st[0] == last[0] && st[1] <= last[1]) {
			return nil, nil, l.errf(fs[0].col, "transition %d -> %d comes after %d -> %d: Storm needs transitions sorted by source, then target, each once", st[0], st[1], last[0], last[1])
		}
		last = st
		p, _, perr := parseProb(fs[2].s, false)
		if perr != nil {
			return nil, nil, l.errf(fs[2].col, "%v", perr)
		}
		index[st] = len(raw.trans)
		raw.trans = append(raw.trans, rawTrans{from: st[0], to: st[1], p: p})
	}
	if l.err != nil {
		return nil, nil, l.err
	}
	if len(raw.trans) == 0 {
		return nil, nil, &Error{File: src.Name, Msg: "no transitions"}
	}
	if raw.n > len(raw.trans) {
		maxAt.Msg += fmt.Sprintf(", but there are only %d transitions and every state needs an outgoing one", len(raw.trans))
		return nil, nil, maxAt
	}
	return raw, index, nil
}

func readStormLab(src Source, n int) ([]int, map[string][]int, error) {
	l := newLines(src)
	// The declaration is a token stream that may span lines up to #END.
	var names []string
	declared := map[string]int{}
	state := 0 // 0: expect #DECLARATION, 1: names, 2: done
	for state < 2 && l.next() {
		for _, f := range fields(l.text) {
			switch {
			case state == 0:
				if f.s != "#DECLARATION" {
					return nil, nil, l.errf(f.col, "expected #DECLARATION, found %q", f.s)
				}
				state = 1
			case state == 2:
				return nil, nil, l.errf(f.col, "unexpected %q after #END on the same line", f.s)
			case f.s == "#END":
				state = 2
			case f.s == "#DECLARATION":
				return nil, nil, l.errf(f.col, "#DECLARATION given twice")
			case strings.HasPrefix(f.s, "#"):
				// Storm compares only the token's length against #END and #DECLARATION, so "#",
				// "#E" and the like are keywords to it; no label may start with '#'.
				return nil, nil, l.errf(f.col, "label %q starts with '#', which Storm's parser takes for #END or #DECLARATION", f.s)
			default:
				if len(f.s) > stormMaxLabel {
					return nil, nil, l.errf(f.col, "label name longer than Storm's %d characters", stormMaxLabel)
				}
				if i := strings.IndexFunc(f.s, notStormLabelRune); i >= 0 {
					return nil, nil, l.errf(f.col+i, "label %q contains the control character %U, which Storm's explicit format cannot carry", f.s, []rune(f.s[i:])[0])
				}
				if _, dup := declared[f.s]; dup {
					return nil, nil, l.errf(f.col, "label %q is declared twice", f.s)
				}
				declared[f.s] = len(names)
				names = append(names, f.s)
			}
		}
	}
	if l.err != nil {
		return nil, nil, l.err
	}
	if state < 2 {
		return nil, nil, &Error{File: src.Name, Line: l.line, Msg: "missing #DECLARATION ... #END header"}
	}
	declLine := l.line
	sets := make([][]int, len(names))
	last := -1
	for {
		fs, ok := l.nextData(false)
		if !ok {
			break
		}
		s, err := stateField(l, fs[0], n, "state")
		if err != nil {
			return nil, nil, err
		}
		if s <= last {
			return nil, nil, l.errf(fs[0].col, "state %d comes after state %d: Storm needs each state once, in increasing order", s, last)
		}
		last = s
		for _, f := range fs[1:] {
			i, ok := declared[f.s]
			if !ok {
				return nil, nil, l.errf(f.col, "label %q is not declared", f.s)
			}
			sets[i] = append(sets[i], s)
		}
	}
	if l.err != nil {
		return nil, nil, l.err
	}
	return splitInit(names, sets, src.Name, declLine)
}

func readStormStateRewards(src Source, n int) ([]stateValue, error) {
	l := newLines(src)
	var out []stateValue
	last := -1
	for {
		fs, ok := l.nextData(false)
		if !ok {
			break
		}
		if len(fs) != 2 {
			return nil, l.errf(fs[0].col, "expected \"state reward\", found %d fields", len(fs))
		}
		s, err := stateField(l, fs[0], n, "state")
		if err != nil {
			return nil, err
		}
		if s <= last {
			return nil, l.errf(fs[0].col, "state %d comes after state %d: Storm needs each state once, in increasing order", s, last)
		}
		last = s
		v, verr := parseValue(fs[1].s, "reward")
		if verr != nil {
			return nil, l.errf(fs[1].col, "%v", verr)
		}
		if v != 0 {
			out = append(out, stateValue{s, v})
		}
	}
	return out, l.err
}

func readStormTransRewards(src Source, n int, index map[[2]int]int) ([]transValue, error) {
	l := newLines(src)
	fs, ok, err := stormHint(l)
	if err != nil {
		return nil, err
	}
	var out []transValue
	last := [2]int{-1, -1}
	for ; ok; fs, ok = l.nextData(false) {
		if len(fs) != 3 {
			return nil, l.errf(fs[0].col, "expected \"source target reward\", found %d fields", len(fs))
		}
		from, err := stateField(l, fs[0], n, "source state")
		if err != nil {
			return nil, err
		}
		to, err := stateField(l, fs[1], n, "target state")
		if err != nil {
			return nil, err
		}
		key := [2]int{from, to}
		if _, ok := index[key]; !ok {
			return nil, l.errf(fs[0].col, "transition %d -> %d is not in the model", from, to)
		}
		if from < last[0] || (from == last[0] && to <= last[1]) {
			return nil, l.errf(fs[0].col, "transition %d -> %d comes after %d -> %d: Storm needs them sorted by source, then target, each once", from, to, last[0], last[1])
		}
		last = key
		v, verr := parseValue(fs[2].s, "reward")
		if verr != nil {
			return nil, l.errf(fs[2].col, "%v", verr)
		}
		if v != 0 {
			out = append(out, transValue{from, to, v})
		}
	}
	return out, l.err
}

// WriteStormTra writes the transitions file. Exact probabilities are written as their float64
// values and actions are dropped: Storm's explicit format has neither.
func WriteStormTra(w io.Writer, m *dtmc.Model) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("dtmc\n")
	for s := 0; s < m.N; s++ {
		for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
			fmt.Fprintf(bw, "%d %d %s\n", s, m.Col[k], formatFloat(m.Prob[k]))
		}
	}
	return bw.Flush()
}

// notStormLabelRune reports the characters a label of Storm's explicit format cannot hold:
// blanks, which separate labels, and control characters.
func notStormLabelRune(r rune) bool { return r <= ' ' || r == 0x7f }

// WriteStormLab writes the labels file: "init" and "deadlock" first, then the model's labels in
// sorted order.
func WriteStormLab(w io.Writer, m *dtmc.Model) error {
	init, err := uniformInit(m, "Storm's explicit format")
	if err != nil {
		return err
	}
	names, deadlock, err := writerLabels(m, init, "Storm's explicit format")
	if err != nil {
		return err
	}
	for _, name := range names {
		if name == "" || len(name) > stormMaxLabel || strings.HasPrefix(name, "#") || strings.ContainsFunc(name, notStormLabelRune) {
			return fmt.Errorf("label %q cannot be written in Storm's explicit format: it needs 1 to %d characters without blanks or control characters, not starting with '#'", name, stormMaxLabel)
		}
	}
	all := append([]string{"init", "deadlock"}, names...)
	sets := append([][]int{init, deadlock}, make([][]int, len(names))...)
	for i, name := range names {
		sets[i+2] = m.Labels[name]
	}
	return writeLabelRows(w, m.N, all, sets, func(bw *bufio.Writer, s int) {
		fmt.Fprintf(bw, "%d", s)
	}, func(bw *bufio.Writer, _ int, name string) {
		bw.WriteByte(' ')
		bw.WriteString(name)
	}, func(bw *bufio.Writer) {
		bw.WriteString("#DECLARATION\n")
		bw.WriteString(strings.Join(all, " "))
		bw.WriteString("\n#END\n")
	})
}

// WriteStormStateRewards writes the non-zero state rewards of structure r (an index into
// m.Rewards). A structure with no non-zero reward at all is written as the single entry "0 0",
// so that its file still declares it (Storm cannot map an empty file).
func WriteStormStateRewards(w io.Writer, m *dtmc.Model, r int) error {
	bw := bufio.NewWriter(w)
	wrote := false
	for s, v := range m.Rewards[r].State {
		if v != 0 {
			fmt.Fprintf(bw, "%d %s\n", s, formatFloat(v))
			wrote = true
		}
	}
	if !wrote {
		bw.WriteString("0 0\n")
	}
	return bw.Flush()
}

// WriteStormTransRewards writes the non-zero transition rewards of structure r (an index into
// m.Rewards).
func WriteStormTransRewards(w io.Writer, m *dtmc.Model, r int) error {
	bw := bufio.NewWriter(w)
	writeTransRewards(bw, m, m.Rewards[r])
	return bw.Flush()
}

// WriteStormFiles writes base.tra, base.lab and, for each reward structure, base.NAME.state.rew
// when it has non-zero state rewards and base.NAME.trans.rew when it has non-zero transition
// rewards (Storm rejects an empty transition rewards file); a structure with neither gets a
// state rewards file so that it is not lost. It returns the files written.
func WriteStormFiles(base string, m *dtmc.Model) (StormFiles, error) {
	f := StormFiles{Tra: base + ".tra", Lab: base + ".lab"}
	if err := writeFile(f.Tra, func(w io.Writer) error { return WriteStormTra(w, m) }); err != nil {
		return f, err
	}
	if err := writeFile(f.Lab, func(w io.Writer) error { return WriteStormLab(w, m) }); err != nil {
		return f, err
	}
	for i, r := range m.Rewards {
		if r.Name == "" || strings.ContainsAny(r.Name, `/\`) || r.Name == "." || r.Name == ".." {
			return f, fmt.Errorf("reward structure name %q cannot be part of a file name", r.Name)
		}
		rf := StormRewardFiles{Name: r.Name}
		hasState, hasTrans := stormRewardParts(r)
		if hasState {
			rf.State = base + "." + r.Name + ".state.rew"
			if err := writeFile(rf.State, func(w io.Writer) error { return WriteStormStateRewards(w, m, i) }); err != nil {
				return f, err
			}
		}
		if hasTrans {
			rf.Trans = base + "." + r.Name + ".trans.rew"
			if err := writeFile(rf.Trans, func(w io.Writer) error { return WriteStormTransRewards(w, m, i) }); err != nil {
				return f, err
			}
		}
		f.Rewards = append(f.Rewards, rf)
	}
	return f, nil
}

// stormRewardParts says which files a structure needs: one per part with a non-zero entry, and
// a state rewards file when there are none, so that the structure is not lost.
func stormRewardParts(r *dtmc.Reward) (state, trans bool) {
	state, trans = nonZero(r.State) > 0, nonZero(r.Trans) > 0
	return state || !trans, trans
}

package modelio

import (
	"bytes"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-perf/augur/internal/testmodels"
	"github.com/augur-perf/augur/markov/dtmc"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// golden compares got with testdata/name.golden, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it)\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// concatFiles joins files into one golden text, each under a "==> name <==" header.
func concatFiles(t *testing.T, paths ...string) []byte {
	t.Helper()
	var b bytes.Buffer
	for _, p := range paths {
		if p == "" {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString("==> " + filepath.Base(p) + " <==\n")
		b.Write(data)
	}
	return b.Bytes()
}

// strip drops the fields a format cannot carry, to compare a round trip through it.
func strip(m *dtmc.Model, actions, exact bool) *dtmc.Model {
	c := *m
	c.Line, c.Param = nil, nil
	if !actions {
		c.Action = nil
	}
	if !exact {
		c.Exact = nil
	}
	return &c
}

func TestJSONGoldenAndRoundTrip(t *testing.T) {
	for _, s := range testmodels.Samples {
		t.Run(s.Name, func(t *testing.T) {
			m := s.Model(t)
			var buf bytes.Buffer
			if err := WriteJSON(&buf, m); err != nil {
				t.Fatal(err)
			}
			golden(t, s.Name+".json", buf.Bytes())
			back, err := ReadJSON(bytes.NewReader(buf.Bytes()), s.Name+".json")
			if err != nil {
				t.Fatal(err)
			}
			if d := diffModels(m, back); d != "" {
				t.Fatal(d)
			}
			path := filepath.Join(t.TempDir(), "m.json")
			if err := WriteJSONFile(path, m); err != nil {
				t.Fatal(err)
			}
			back, err = ReadJSONFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if d := diffModels(m, back); d != "" {
				t.Fatal(d)
			}
		})
	}
}

func TestPRISMExplicitGoldenAndRoundTrip(t *testing.T) {
	for _, s := range testmodels.Samples {
		t.Run(s.Name, func(t *testing.T) {
			m := s.Model(t)
			dir := t.TempDir()
			f, err := WritePRISMFiles(filepath.Join(dir, "out"), m, PRISMWriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			golden(t, s.Name+".prism-explicit", concatFiles(t, append(append([]string{f.Tra, f.Lab}, f.Srew...), f.Trew...)...))
			back, err := LoadPRISM(filepath.Join(dir, "out"))
			if err != nil {
				t.Fatal(err)
			}
			if d := diffModels(strip(m, true, false), back); d != "" {
				t.Fatal(d)
			}

			// With rationals everything but lines and parameter names comes back.
			f, err = WritePRISMFiles(filepath.Join(dir, "exact"), m, PRISMWriteOptions{Rationals: true})
			if err != nil {
				t.Fatal(err)
			}
			back, err = ReadPRISM(f.Tra, f.Lab, f.Srew, f.Trew)
			if err != nil {
				t.Fatal(err)
			}
			if d := diffModels(strip(m, true, true), back); d != "" {
				t.Fatal(d)
			}
		})
	}
}

func TestStormGoldenAndRoundTrip(t *testing.T) {
	for _, s := range testmodels.Samples {
		t.Run(s.Name, func(t *testing.T) {
			m := s.Model(t)
			dir := t.TempDir()
			f, err := WriteStormFiles(filepath.Join(dir, s.Name), m)
			if err != nil {
				t.Fatal(err)
			}
			paths := []string{f.Tra, f.Lab}
			for _, r := range f.Rewards {
				paths = append(paths, r.State, r.Trans)
			}
			golden(t, s.Name+".storm", concatFiles(t, paths...))
			back, err := ReadStorm(f)
			if err != nil {
				t.Fatal(err)
			}
			if d := diffModels(strip(m, false, false), back); d != "" {
				t.Fatal(d)
			}
			// Discovery finds the same files (rewards come sorted by name, as here).
			found, err := FindStorm(f.Tra)
			if err != nil {
				t.Fatal(err)
			}
			back, err = ReadStorm(found)
			if err != nil {
				t.Fatal(err)
			}
			if d := diffModels(strip(m, false, false), back); d != "" {
				t.Fatal(d)
			}
		})
	}
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const (
	coinTra  = "2 3\n0 0 0.5\n0 1 0.5\n1 1 1\n"
	coinLab  = "0=\"init\" 1=\"deadlock\" 2=\"heads\"\n0: 0\n1: 2\n"
	coinSrew = "# Reward structure \"%s\"\n# State rewards\n2 1\n0 %s\n"
)

func TestFindPRISMNaming(t *testing.T) {
	srew := func(name, v string) string {
		return strings.Replace(strings.Replace(coinSrew, "%s", name, 1), "%s", v, 1)
	}
	cases := []struct {
		files   map[string]string
		rewards []string // expected names
		err     string
	}{
		{files: map[string]string{"out.tra": coinTra, "out.lab": coinLab}},
		{files: map[string]string{"out.tra": coinTra, "out.lab": coinLab, "out.srew": srew("a", "1")}, rewards: []string{"a"}},
		// Current PRISM: out1.srew, out2.srew, ...
		{files: map[string]string{"out.tra": coinTra, "out.lab": coinLab, "out1.srew": srew("a", "1"), "out2.srew": srew("b", "2")}, rewards: []string{"a", "b"}},
		// Older PRISM code counted from 0.
		{files: map[string]string{"out.tra": coinTra, "out.lab": coinLab, "out0.srew": srew("a", "1"), "out1.srew": srew("b", "2")}, rewards: []string{"a", "b"}},
		{files: map[string]string{"out.tra": coinTra, "out.srew": srew("a", "1"), "out1.srew": srew("b", "2")}, err: "cannot tell"},
		{files: map[string]string{"out.lab": coinLab}, err: "no PRISM transitions file"},
	}
	for i, c := range cases {
		dir := t.TempDir()
		writeFiles(t, dir, c.files)
		for _, arg := range []string{"out", "out.tra", "out.lab"} {
			m, err := LoadPRISM(filepath.Join(dir, arg))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Errorf("case %d %s: error %v, want %q", i, arg, err, c.err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("case %d %s: %v", i, arg, err)
			}
			var names []string
			for _, r := range m.Rewards {
				names = append(names, r.Name)
			}
			if strings.Join(names, ",") != strings.Join(c.rewards, ",") {
				t.Errorf("case %d %s: rewards %v, want %v", i, arg, names, c.rewards)
			}
		}
	}
}

func TestPRISMExplicitSemantics(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		// Headers as PRISM 4.8 writes them, an unnamed structure, several initial states.
		"m.tra":  "# Transitions\n3 4\n0 1 1/2 go\n0 2 0.5 go\n1 1 1\n2 2 1\n",
		"m.lab":  "# Labels\n0=\"init\" 1=\"deadlock\" 2=\"end\"\n0: 0\n1: 0 2\n2: 2\n",
		"m.srew": "3 2\n0 1.5\n1 0\n",
		"m.trew": "# Reward structure\n# Transition rewards\n3 1\n0 1 2\n",
	})
	m, err := LoadPRISM(filepath.Join(dir, "m"))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Init) != 2 || m.Init[0].P != 0.5 || m.Init[1].State != 1 {
		t.Errorf("init %v, want uniform over {0, 1}", m.Init)
	}
	if m.Exact == nil || m.Exact[0] == nil || m.Exact[0].RatString() != "1/2" || m.Exact[1] != nil {
		t.Errorf("exact %v", m.Exact)
	}
	if m.Action == nil || m.Action[0] != "go" || m.Action[2] != "" {
		t.Errorf("actions %q", m.Action)
	}
	if _, ok := m.Labels["deadlock"]; ok {
		t.Errorf("an empty deadlock label should not become a model label")
	}
	r := m.Rewards[0]
	if r.Name != "r1" || r.State[0] != 1.5 || r.Trans[0] != 2 {
		t.Errorf("reward %+v", r)
	}
	// A model with a non-uniform initial distribution cannot be written.
	b := dtmc.NewBuilder(2)
	b.Add(0, 0, 1)
	b.Add(1, 1, 1)
	b.AddInit(0, 0.25)
	b.AddInit(1, 0.75)
	nu := testmodels.MustBuild(t, b)
	if err := WritePRISMLab(&bytes.Buffer{}, nu); err == nil || !strings.Contains(err.Error(), "not uniform") {
		t.Errorf("non-uniform init: %v", err)
	}
	if err := WriteStormLab(&bytes.Buffer{}, nu); err == nil || !strings.Contains(err.Error(), "not uniform") {
		t.Errorf("non-uniform init: %v", err)
	}
}

// PRISM writes a line per action, so a DTMC in which two commands with different actions lead
// from one state to the same state has two lines for one transition; the chain takes it with
// their total probability (issue 13, item 6).
func TestPRISMActionsSummed(t *testing.T) {
	tra := "# header counts lines, not transitions\n3 6\n0 1 1/4 a\n0 1 1/4 b\n0 2 0.25 a\n0 2 0.25 a\n1 1 1 c\n2 2 1\n"
	m, err := DecodePRISM(Source{Name: "m.tra", R: strings.NewReader(tra)}, Source{}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.NumTransitions() != 4 {
		t.Fatalf("%d transitions, want 4 after summing", m.NumTransitions())
	}
	k, ok := m.Find(0, 1)
	if !ok || m.Prob[k] != 0.5 || m.Exact == nil || m.Exact[k] == nil || m.Exact[k].RatString() != "1/2" || m.Action[k] != "" {
		t.Errorf("0 -> 1: %v %v %q, want 0.5, exactly 1/2, no single action", m.Prob[k], m.Exact[k], m.Action[k])
	}
	k, ok = m.Find(0, 2)
	if !ok || m.Prob[k] != 0.5 || m.Exact[k] != nil || m.Action[k] != "a" {
		t.Errorf("0 -> 2: %v %v %q, want 0.5, inexact, action a (both lines name it)", m.Prob[k], m.Exact[k], m.Action[k])
	}
	// The header counts lines as PRISM writes them, not the transitions left after summing.
	_, err = DecodePRISM(Source{Name: "m.tra", R: strings.NewReader(strings.Replace(tra, "3 6", "3 4", 1))}, Source{}, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "header says 4 transitions but the file has 6") {
		t.Errorf("header counting merged transitions: %v", err)
	}
}

// TestPRISMActionRewards: PRISM writes transition rewards per action as well, in the .tra's
// order and without the zero ones; a summed transition gets the reward that keeps the expected
// reward of the step.
func TestPRISMActionRewards(t *testing.T) {
	read := func(tra, trew string) (*dtmc.Model, error) {
		return DecodePRISM(Source{Name: "m.tra", R: strings.NewReader(tra)}, Source{}, nil, []Source{{Name: "m.trew", R: strings.NewReader(trew)}})
	}
	equal := "2 4\n0 0 0.5\n0 1 0.25 a\n0 1 0.25 b\n1 1 1\n"
	unequal := "2 4\n0 0 0.5\n0 1 0.2 a\n0 1 0.3 b\n1 1 1\n"
	for _, c := range []struct {
		tra, trew string
		want      float64
	}{
		{equal, "2 1\n0 1 4\n", 2},            // one action's reward left out as zero
		{equal, "2 2\n0 1 4\n0 1 2\n", 3},     // both
		{unequal, "2 2\n0 1 1\n0 1 2\n", 1.6}, // (0.2·1 + 0.3·2) / 0.5
		{unequal, "2 1\n0 0 7\n", 0},
	} {
		m, err := read(c.tra, c.trew)
		if err != nil {
			t.Fatalf("%q: %v", c.trew, err)
		}
		k, _ := m.Find(0, 1)
		if got := m.Rewards[0].Trans[k]; math.Abs(got-c.want) > 1e-15 {
			t.Errorf("%q: reward of 0 -> 1 = %v, want %v", c.trew, got, c.want)
		}
	}
	if _, err := read(unequal, "2 1\n0 1 4\n"); err == nil || !strings.Contains(err.Error(), "cannot tell which reward is whose") {
		t.Errorf("ambiguous rewards: %v", err)
	}
	if _, err := read(equal, "2 3\n0 1 4\n0 1 2\n0 1 1\n"); err == nil || !strings.Contains(err.Error(), "given twice") {
		t.Errorf("more reward lines than actions: %v", err)
	}
}

func TestStormSemantics(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		// As in Storm's resources/examples: no hint line, unnamed transition rewards as .tra.rew.
		"die.tra":            "0 1 0.5\n0 2 0.5\n1 1 1\n2 2 1\n",
		"die.lab":            "#DECLARATION\ninit one done deadlock\n#END\n0 init\n1 one done\n2 done\n",
		"die.tra.rew":        "0 1 1\n0 2 1\n",
		"die.flip.state.rew": "0 1\n",
	})
	m, err := LoadStorm(filepath.Join(dir, "die"))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Rewards) != 2 || m.Rewards[0].Name != "r1" || m.Rewards[1].Name != "flip" {
		t.Fatalf("rewards %+v", m.Rewards)
	}
	if m.Rewards[0].Trans[1] != 1 || m.Rewards[1].State[0] != 1 {
		t.Errorf("reward values %+v %+v", m.Rewards[0], m.Rewards[1])
	}
	if got := m.Labels["done"]; len(got) != 2 {
		t.Errorf("done = %v", got)
	}
}

func TestReadErrors(t *testing.T) {
	tra := func(s string) Source { return Source{Name: "m.tra", R: strings.NewReader(s)} }
	lab := func(s string) Source { return Source{Name: "m.lab", R: strings.NewReader(s)} }
	rew := func(s string) []Source { return []Source{{Name: "m.srew", R: strings.NewReader(s)}} }
	cases := []struct {
		name string
		read func() error
		want string
	}{
		{"prism header", func() error { _, err := DecodePRISM(tra("2 3 4\n"), lab(coinLab), nil, nil); return err }, "m.tra:1:1: header \"2 3 4\" is that of a nondeterministic model"},
		{"prism prob", func() error {
			_, err := DecodePRISM(tra("2 3\n0 0 0.5\n0 1 1.5\n1 1 1\n"), lab(coinLab), nil, nil)
			return err
		}, "m.tra:3:5: probability 1.5 is greater than 1"},
		{"prism nan", func() error { _, err := DecodePRISM(tra("2 3\n0 0 NaN\n"), lab(coinLab), nil, nil); return err }, "m.tra:2:5: probability \"NaN\" is not a number"},
		{"prism negative", func() error { _, err := DecodePRISM(tra("2 3\n0 0 -0.5\n"), lab(coinLab), nil, nil); return err }, "m.tra:2:5: probability -0.5 is negative"},
		{"prism range", func() error {
			_, err := DecodePRISM(tra("2 3\n0 0 0.5\n0 7 0.5\n"), lab(coinLab), nil, nil)
			return err
		}, "m.tra:3:3: target state 7 is out of range 0..1"},
		{"prism duplicate", func() error {
			_, err := DecodePRISM(tra("2 3\n0 0 0.5\n0 0 0.5\n1 1 1\n"), lab(coinLab), nil, nil)
			return err
		}, "m.tra:3:1: transition 0 -> 0 is given twice (first on line 2) and neither line names an action"},
		{"prism count", func() error {
			_, err := DecodePRISM(tra("2 4\n0 0 0.5\n0 1 0.5\n1 1 1\n"), lab(coinLab), nil, nil)
			return err
		}, "m.tra:1:3: header says 4 transitions but the file has 3"},
		{"prism row sum", func() error {
			_, err := DecodePRISM(tra("2 3\n0 0 0.5\n0 1 0.25\n1 1 1\n"), lab(coinLab), nil, nil)
			return err
		}, "m.tra: the probabilities of state 0 sum to 0.75"},
		{"prism label index", func() error {
			_, err := DecodePRISM(tra(coinTra), lab("0=\"init\" 1=\"deadlock\"\n0: 0 5\n"), nil, nil)
			return err
		}, "m.lab:2:6: label index \"5\" is not one of 0..1"},
		{"prism label name", func() error { _, err := DecodePRISM(tra(coinTra), lab("0=\"init\" 1=\"a b\"\n"), nil, nil); return err }, "m.lab:1:13: label name \"a b\" is not an identifier"},
		{"prism no init", func() error { _, err := DecodePRISM(tra(coinTra), lab("0=\"x\"\n"), nil, nil); return err }, "m.lab:1: no \"init\" label"},
		{"prism reward states", func() error { _, err := DecodePRISM(tra(coinTra), lab(coinLab), rew("3 0\n"), nil); return err }, "m.srew:1:1: header gives \"3\" states but the transitions file has 2"},
		{"prism reward value", func() error { _, err := DecodePRISM(tra(coinTra), lab(coinLab), rew("2 1\n1 -2\n"), nil); return err }, "m.srew:2:3: reward -2 is negative"},
		{"prism trans reward missing", func() error {
			_, err := DecodePRISM(tra(coinTra), lab(coinLab), nil, []Source{{Name: "m.trew", R: strings.NewReader("2 1\n1 0 1\n")}})
			return err
		}, "m.trew:2:1: transition 1 -> 0 is not in the model"},
		{"storm hint", func() error { _, err := DecodeStorm(tra("mdp\n0 0 0 1\n"), lab(""), nil); return err }, "m.tra:1:1: format hint \"mdp\": augur reads DTMCs only"},
		{"storm order", func() error { _, err := DecodeStorm(tra("dtmc\n0 1 0.5\n0 0 0.5\n"), lab(""), nil); return err }, "m.tra:3:1: transition 0 -> 0 comes after 0 -> 1"},
		{"storm huge state", func() error { _, err := DecodeStorm(tra("0 0 1\n0 999999999 0\n"), lab(""), nil); return err }, "m.tra:2:3: state 999999999 makes 1000000000 states, but there are only 2 transitions"},
		{"storm dangling", func() error {
			_, err := DecodeStorm(tra("0 0 0.5\n0 1 0.5\n"), lab("#DECLARATION\ninit\n#END\n0 init\n"), nil)
			return err
		}, "m.tra: state 1 has no outgoing transitions"},
		{"storm undeclared", func() error {
			_, err := DecodeStorm(tra("0 0 1\n"), lab("#DECLARATION\ninit\n#END\n0 init done\n"), nil)
			return err
		}, "m.lab:4:8: label \"done\" is not declared"},
		{"storm lab order", func() error {
			_, err := DecodeStorm(tra("0 1 1\n1 0 1\n"), lab("#DECLARATION\ninit\n#END\n1 init\n0 init\n"), nil)
			return err
		}, "m.lab:5:1: state 0 comes after state 1"},
		{"storm no declaration", func() error { _, err := DecodeStorm(tra("0 0 1\n"), lab("init\n"), nil); return err }, "m.lab:1:1: expected #DECLARATION, found \"init\""},
	}
	for _, c := range cases {
		err := c.read()
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: got %v\nwant prefix %s", c.name, err, c.want)
		}
	}
}

func TestJSONErrors(t *testing.T) {
	const good = `{"format": "augur-dtmc/1", "states": 2, "init": 0, "transitions": [[0, 1, 1], [1, 1, 1]]}`
	cases := []struct {
		in, want string
	}{
		{`{"format": "augur-dtmc/1",` + "\n" + `  "states": 2,` + "\n" + `  "init": 0 x}`, "m.json:3:13: syntax error: invalid character 'x' after object key:value pair"},
		{`{"format": "augur-dtmc/1"`, "m.json:1:26: syntax error: unexpected end of JSON"},
		{`[1]`, "m.json:1:1: expected an object (an augur JSON model), found a list"},
		{`{"format": "augur-dtmc/2"}`, "m.json:1:12: format: unsupported format \"augur-dtmc/2\""},
		{strings.Replace(good, `"states": 2`, `"states": 2, "state": 3`, 1), "m.json:1:41: unknown field \"state\""},
		{strings.Replace(good, `[0, 1, 1]`, `[0, 1, 1.5]`, 1), "m.json:1:75: transitions[0][2]: probability 1.5 is greater than 1"},
		{strings.Replace(good, `[0, 1, 1]`, `[0, 1, "2/3"]`, 1), "m.json: the probabilities of state 0 sum to"},
		{strings.Replace(good, `[0, 1, 1]`, `[0, 5, 1]`, 1), "m.json:1:72: transitions[0][1]: state 5 is out of range 0..1"},
		{strings.Replace(good, `[0, 1, 1]`, `[0, 1, 1, 4]`, 1), "m.json:1:78: transitions[0]: a transition [from, to, p] has too many elements"},
		{strings.Replace(good, `[0, 1, 1]`, `[0, 1]`, 1), "m.json:1:73: transitions[0][2]: expected a probability"},
		{strings.Replace(good, `"states": 2`, `"states": 2000000000`, 1), "m.json:1:38: states: 2000000000 states but only 2 transitions"},
		{strings.Replace(good, `"init": 0`, `"init": [{"state": 0, "p": 0}]`, 1), "m.json:1:68: init[0].p: an initial probability must be positive"},
		{strings.Replace(good, `}`, `, "rewards": [{"name": "r", "state": {"01": 1}}]}`, 1), "m.json:1:127: rewards[0].state: state reward keys are state numbers written plainly"},
		{strings.Replace(good, `}`, `, "rewards": [{"name": "r", "transitions": [[1, 0, 1]]}]}`, 1), "m.json:1:134: rewards[0].transitions[0][0]: transition 1 -> 0 is not in the model"},
		{strings.Replace(good, `}`, `, "labels": {"a": [0], "a": [1]}}`, 1), "m.json:1:112: labels: field \"a\" is given twice"},
		{good + " {}", "m.json:1:91: unexpected data after the model"},
	}
	for _, c := range cases {
		_, err := ReadJSON(strings.NewReader(c.in), "m.json")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s\ngot  %v\nwant %s", c.in, err, c.want)
		}
	}
	if _, err := ReadJSON(strings.NewReader(good), "m.json"); err != nil {
		t.Fatal(err)
	}
}

func TestJSONKeepsPresence(t *testing.T) {
	in := `{"format": "augur-dtmc/1", "states": 1, "init": [{"state": 0, "p": "1"}],
	  "transitions": [[0, 0, "1"]], "actions": [""], "params": [""],
	  "labels": {"none": []},
	  "rewards": [{"name": "z", "state": [0], "transitions": []}, {"name": "empty"}],
	  "lines": [0]}`
	m, err := ReadJSON(strings.NewReader(in), "m.json")
	if err != nil {
		t.Fatal(err)
	}
	if m.Action == nil || m.Param == nil || m.Line == nil || m.Exact == nil {
		t.Fatalf("optional parts lost: %+v", m)
	}
	if _, ok := m.Labels["none"]; !ok {
		t.Fatalf("declared label lost: %v", m.Labels)
	}
	if m.Rewards[0].State == nil || m.Rewards[0].Trans == nil || m.Rewards[1].State != nil || m.Rewards[1].Trans != nil {
		t.Fatalf("reward presence lost: %+v %+v", m.Rewards[0], m.Rewards[1])
	}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, m); err != nil {
		t.Fatal(err)
	}
	back, err := ReadJSON(&buf, "again.json")
	if err != nil {
		t.Fatal(err)
	}
	if d := diffModels(m, back); d != "" {
		t.Fatal(d)
	}
}

// TestDocExample keeps the example in docs/model-json.md a valid model.
func TestDocExample(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "model-json.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```json\n")
	example, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("no json example in docs/model-json.md")
	}
	m, err := ReadJSON(strings.NewReader(example), "model-json.md")
	if err != nil {
		t.Fatal(err)
	}
	if m.N != 4 || len(m.Rewards) != 2 || m.Exact == nil || m.Param == nil || m.Line == nil {
		t.Errorf("example read as %+v", m)
	}
}

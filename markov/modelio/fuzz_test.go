package modelio

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-perf/augur/markov/dtmc"
)

// The fuzz targets check that no input makes a reader panic and that whatever a reader accepts
// survives being written and read again unchanged.

func src(name, s string) Source { return Source{Name: name, R: strings.NewReader(s)} }

func goldenSeeds(f *testing.F, suffix string) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*"+suffix))
	for _, p := range paths {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(string(data))
		}
	}
}

func FuzzReadJSON(f *testing.F) {
	goldenSeeds(f, ".json.golden")
	f.Add(`{"format": "augur-dtmc/1", "states": 1, "init": [{"state": 0, "p": "1"}], "transitions": [[0, 0, "1/1"]], "rewards": [{"name": "r", "state": [0], "transitions": []}]}`)
	f.Fuzz(func(t *testing.T, in string) {
		m, err := ReadJSON(strings.NewReader(in), "f.json")
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteJSON(&buf, m); err != nil {
			t.Fatalf("write: %v", err)
		}
		back, err := ReadJSON(&buf, "again.json")
		if err != nil {
			t.Fatalf("re-read: %v\n%s", err, buf.String())
		}
		if d := diffModels(m, back); d != "" {
			t.Fatalf("round trip changed the model: %s", d)
		}
	})
}

// prismRoundTrip writes m in PRISM's explicit format (with rationals, so nothing the reader
// took is lost) and reads it back.
func prismRoundTrip(t *testing.T, m *dtmc.Model) {
	t.Helper()
	var tra, lab bytes.Buffer
	if err := WritePRISMTra(&tra, m, PRISMWriteOptions{Rationals: true}); err != nil {
		t.Fatalf("write tra: %v", err)
	}
	if err := WritePRISMLab(&lab, m); err != nil {
		t.Fatalf("write lab: %v", err)
	}
	var srew, trew []Source
	for i := range m.Rewards {
		var s, tr bytes.Buffer
		if err := WritePRISMStateRewards(&s, m, i); err != nil {
			t.Fatalf("write srew: %v", err)
		}
		if err := WritePRISMTransRewards(&tr, m, i); err != nil {
			t.Fatalf("write trew: %v", err)
		}
		srew = append(srew, src("again.srew", s.String()))
		trew = append(trew, src("again.trew", tr.String()))
	}
	back, err := DecodePRISM(src("again.tra", tra.String()), src("again.lab", lab.String()), srew, trew)
	if err != nil {
		t.Fatalf("re-read: %v\n%s\n%s", err, tra.String(), lab.String())
	}
	if d := diffModels(m, back); d != "" {
		t.Fatalf("round trip changed the model: %s", d)
	}
}

func FuzzReadPRISMTra(f *testing.F) {
	f.Add(coinTra)
	f.Add("# Transitions\n3 4\n0 1 1/2 go\n0 2 0.5 go\n1 1 1\n2 2 1\n")
	f.Add("1 1\n0 0 1e0\n")
	f.Fuzz(func(t *testing.T, tra string) {
		m, err := DecodePRISM(src("f.tra", tra), Source{}, nil, nil)
		if err != nil {
			return
		}
		prismRoundTrip(t, m)
	})
}

func FuzzReadPRISMLab(f *testing.F) {
	f.Add(coinLab)
	f.Add("# Labels\n0=\"init\" 1=\"deadlock\" 2=\"end\"\n0: 0\n1: 0 2\n1: 1\n")
	f.Fuzz(func(t *testing.T, lab string) {
		m, err := DecodePRISM(src("f.tra", "3 3\n0 1 1\n1 2 1\n2 2 1\n"), src("f.lab", lab), nil, nil)
		if err != nil {
			return
		}
		prismRoundTrip(t, m)
	})
}

func FuzzReadPRISMRewards(f *testing.F) {
	f.Add("# Reward structure \"a\"\n# State rewards\n2 1\n0 1.5\n", "# Reward structure \"a\"\n# Transition rewards\n2 1\n0 1 2\n")
	f.Add("2 2\n0 0\n1 3\n", "2 0\n")
	f.Fuzz(func(t *testing.T, srew, trew string) {
		m, err := DecodePRISM(src("f.tra", coinTra), src("f.lab", coinLab), []Source{src("f.srew", srew)}, []Source{src("f.trew", trew)})
		if err != nil {
			return
		}
		prismRoundTrip(t, m)
	})
}

// stormRoundTrip writes m in Storm's explicit format and reads it back.
func stormRoundTrip(t *testing.T, m *dtmc.Model) {
	t.Helper()
	var tra, lab bytes.Buffer
	if err := WriteStormTra(&tra, m); err != nil {
		t.Fatalf("write tra: %v", err)
	}
	if err := WriteStormLab(&lab, m); err != nil {
		t.Fatalf("write lab: %v", err)
	}
	var rs []StormRewardSources
	for i, r := range m.Rewards {
		rs = append(rs, StormRewardSources{Name: r.Name})
		hasState, hasTrans := stormRewardParts(r)
		if hasState {
			var b bytes.Buffer
			if err := WriteStormStateRewards(&b, m, i); err != nil {
				t.Fatal(err)
			}
			rs[i].State = src("again.state.rew", b.String())
		}
		if hasTrans {
			var b bytes.Buffer
			if err := WriteStormTransRewards(&b, m, i); err != nil {
				t.Fatal(err)
			}
			rs[i].Trans = src("again.trans.rew", b.String())
		}
	}
	back, err := DecodeStorm(src("again.tra", tra.String()), src("again.lab", lab.String()), rs)
	if err != nil {
		t.Fatalf("re-read: %v\n%s\n%s", err, tra.String(), lab.String())
	}
	if d := diffModels(m, back); d != "" {
		t.Fatalf("round trip changed the model: %s", d)
	}
}

const stormInitLab = "#DECLARATION\ninit\n#END\n0 init\n"

func FuzzReadStormTra(f *testing.F) {
	f.Add("dtmc\n0 1 0.5\n0 2 0.5\n1 1 1\n2 2 1\n")
	f.Add("0 0 1\n")
	f.Fuzz(func(t *testing.T, tra string) {
		m, err := DecodeStorm(src("f.tra", tra), src("f.lab", stormInitLab), nil)
		if err != nil {
			return
		}
		stormRoundTrip(t, m)
	})
}

func FuzzReadStormLab(f *testing.F) {
	f.Add("#DECLARATION\ninit one done deadlock\n#END\n0 init\n1 one done\n2 done\n")
	f.Add("#DECLARATION init #END\n0 init\n")
	f.Fuzz(func(t *testing.T, lab string) {
		m, err := DecodeStorm(src("f.tra", "0 1 1\n1 2 1\n2 2 1\n"), src("f.lab", lab), nil)
		if err != nil {
			return
		}
		stormRoundTrip(t, m)
	})
}

func FuzzReadStormRewards(f *testing.F) {
	f.Add("0 1\n1 2.5\n", "0 1 1\n0 2 0\n")
	f.Add("", "dtmc\n1 1 3\n")
	f.Fuzz(func(t *testing.T, state, trans string) {
		rs := []StormRewardSources{{Name: "a", State: src("f.state.rew", state), Trans: src("f.trans.rew", trans)}}
		m, err := DecodeStorm(src("f.tra", "0 1 0.5\n0 2 0.5\n1 1 1\n2 2 1\n"), src("f.lab", stormInitLab), rs)
		if err != nil {
			return
		}
		stormRoundTrip(t, m)
	})
}

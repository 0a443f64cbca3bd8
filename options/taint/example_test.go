package taint

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/augur-perf/augur/options/sources"
)

// TestRunningExample analyses examples/options, ConfigCrusher's running
// example, and checks the paper's influence sets line by line: {A},
// {A,B} (x is assigned under if a), {D,E,F} as one decision, {A,C} for
// moo's if c (calling context), one set per option for the trailing ifs,
// and J irrelevant (unit is the example's own time-unit flag).
func TestRunningExample(t *testing.T) {
	pkgs, err := Load(Config{Dir: "../../examples/options"}, ".")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Analyze(pkgs, sources.Decls{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r.WriteText(&buf, TextOptions{Base: "../../examples/options"}); err != nil {
		t.Fatal(err)
	}
	want := `main.go:51:2  if a            {A}
main.go:56:2  if b && x       {A, B}
main.go:59:2  if d && e && f  {D, E, F}
main.go:62:2  if a            {A}
main.go:65:2  if b            {B}
main.go:68:2  if c            {C}
main.go:71:2  if d            {D}
main.go:74:2  if e            {E}
main.go:77:2  if f            {F}
main.go:80:2  if g            {G}
main.go:83:2  if h            {H}
main.go:86:2  if i            {I}
main.go:92:2  if c            {A, C}
options: {A, B, C, D, E, F, G, H, I, J, unit}
irrelevant: {J, unit}
`
	if got := buf.String(); got != want {
		t.Errorf("statement-influence map:\n%s\nwant:\n%s", got, want)
	}
	for _, d := range r.Decisions {
		if d.Func != "foo" && d.Func != "moo" {
			t.Errorf("%v: func %q", d.Pos, d.Func)
		}
		if len(d.Regions) != 1 || d.Regions[0].IPDom == nil || !d.End.IsValid() {
			t.Errorf("%v %s: regions %+v end %v", d.Pos, d.Text, d.Regions, d.End)
		}
	}
	// if b && x is two SSA branches but one decision whose influence ends
	// at the next statement, if d && e && f.
	for _, d := range r.Decisions {
		if d.Text == "if b && x" {
			if len(d.Regions[0].Blocks) != 2 || d.End.Line != 59 {
				t.Errorf("if b && x: %d blocks, ends at %v", len(d.Regions[0].Blocks), d.End)
			}
		}
	}
	buf.Reset()
	if err := r.WriteJSON(&buf, "../../examples/options"); err != nil {
		t.Fatal(err)
	}
	var js struct {
		Decisions []struct {
			Pos     string
			Text    string
			Options []string
			End     string
		}
		Irrelevant []string
	}
	if err := json.Unmarshal(buf.Bytes(), &js); err != nil {
		t.Fatal(err)
	}
	if len(js.Decisions) != 13 || js.Decisions[1].Pos != "main.go:56:2" ||
		strings.Join(js.Decisions[1].Options, ",") != "A,B" || !strings.HasPrefix(js.Decisions[1].End, "main.go:59:") ||
		strings.Join(js.Irrelevant, ",") != "J,unit" {
		t.Errorf("JSON: %s", buf.String())
	}
}

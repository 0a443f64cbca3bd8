package instrument

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-perf/augur/source/frontend"
)

// writeSwitch writes a module whose function Big is a switch of n cases, as generated code has
// (a parser's tables, a stringer), each case a decision calling helper, and a test calling Big
// for x below calls.
func writeSwitch(t testing.TB, n, calls int) string {
	t.Helper()
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("package big\n\nfunc helper(x int) int { return x*3 + 1 }\n\nfunc Big(x int) int {\n\ts := 0\n\tswitch x {\n")
	for i := range n {
		fmt.Fprintf(&b, "\tcase %d:\n\t\tif x%%3 == %d {\n\t\t\ts -= helper(%d)\n\t\t} else {\n\t\t\ts += helper(x)\n\t\t}\n", i, i%2, i)
	}
	b.WriteString("\tdefault:\n\t\ts = -1\n\t}\n\treturn s\n}\n")
	test := fmt.Sprintf("package big\n\nimport \"testing\"\n\nfunc TestBig(t *testing.T) {\n\tfor x := range %d {\n\t\tBig(x)\n\t}\n}\n", calls)
	for name, text := range map[string]string{"go.mod": "module example.com/big\n\ngo 1.22\n", "big.go": b.String(), "big_test.go": test} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestGeneratedSwitch instruments a switch of 1500 cases (over 4000 nodes: planned with a frame,
// past maxFrameFree) and checks its counts against the truth. Planned frame-free, a function of
// 1000 cases took augur 12 s (each counter placed re-solved the flow equations) and the compiler
// a minute (a local per counter); finding each call's node among all nodes took 8 s at 3000
// cases, and formatting every clause's outcome to find one clause as long.
func TestGeneratedSwitch(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	const n, calls = 1500, 2000
	dir := writeSwitch(t, n, calls)
	prog, err := frontend.Load(dir, ".")
	if err != nil {
		t.Fatal(err)
	}
	fns, err := prog.Select("example.com/big")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Instrument(prog, fns, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "big.test")
	if out, err := goCmd(dir, "test", "-c", "-o", bin, "-overlay="+b.Overlay, "-vet=off", ".").CombinedOutput(); err != nil {
		t.Fatalf("go test -c: %v\n%s", err, out)
	}
	counters := t.TempDir()
	if r := runBin(t, bin, counters, "-test.run=^TestBig$"); r.code != 0 {
		t.Fatalf("exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	p, _, err := b.Collect(counters)
	if err != nil {
		t.Fatal(err)
	}
	big, helper := p.Funcs["example.com/big.Big"], p.Funcs["example.com/big.helper"]
	if big == nil || big.Invocations != calls || helper == nil || helper.Invocations != n {
		t.Fatalf("Big %v, helper %v: want %d and %d invocations", big, helper, calls, n)
	}
	byName := funcsOf(fns)
	for name, f := range p.Funcs {
		if err := conserves(byName[name].CFG, f); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		checkIdentity(t, byName[name], f, 9)
	}
}

// BenchmarkInstrumentSwitch is the time augur takes to instrument a switch of 3000 cases.
func BenchmarkInstrumentSwitch(b *testing.B) {
	dir := writeSwitch(b, 3000, 1)
	prog, err := frontend.Load(dir, ".")
	if err != nil {
		b.Fatal(err)
	}
	fns, err := prog.Select("example.com/big")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Instrument(prog, fns, b.TempDir()); err != nil {
			b.Fatal(err)
		}
	}
}

package instrument

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/augur-perf/augur/source/frontend"
)

// TestCgoFilesLeftOut instruments testdata/src/work/withc, whose file c.go imports "C": the go
// command compiles it from cgo's output, which an overlay of the file augur parsed (that output)
// never reaches, so its functions (a tiny method, a tiny function, one that calls C) are left
// out of the counting and the timing builds and named, cgo's own functions not; the package
// builds, and Sum, in a file of its own, calls them as functions augur does not count.
func TestCgoFilesLeftOut(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	out, err := goCmd(workDir, "env", "CGO_ENABLED", "CC").Output()
	env := strings.Fields(string(out))
	if err != nil || len(env) < 2 || env[0] != "1" {
		t.Skip("cgo is off")
	}
	if _, err := exec.LookPath(env[1]); err != nil {
		t.Skipf("no C compiler (%s)", env[1])
	}
	prog, err := frontend.Load(workDir, "./withc")
	if err != nil {
		t.Fatal(err)
	}
	fns, err := prog.Select("example.com/work/withc")
	if err != nil {
		t.Fatal(err)
	}
	const P = "example.com/work/withc."
	want := []string{P + "Box.Get", P + "CTwice", P + "Twice"}
	b, err := Instrument(prog, fns, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if slices.Sort(b.Cgo); !slices.Equal(b.Cgo, want) {
		t.Errorf("left out %v, want %v", b.Cgo, want)
	}
	_, _, timed, err := timingBuild(prog, fns, t.TempDir())
	if slices.Sort(timed); err != nil || !slices.Equal(timed, want) {
		t.Errorf("timing build: left out %v (%v), want %v", timed, err, want)
	}
	var only []*frontend.Func
	for _, fn := range fns {
		if fn.Name == P+"CTwice" {
			only = append(only, fn)
		}
	}
	if _, err := Instrument(prog, only, t.TempDir()); err == nil || !strings.Contains(err.Error(), `imports "C"`) {
		t.Errorf("instrumenting CTwice alone: %v, want an error naming the cgo file", err)
	}
	p, all := measureTest(t, "withc", "TestSum", 0, 1)
	sum := p.Funcs[P+"Sum"]
	if sum == nil || sum.Invocations != 1 || len(p.Funcs) != 1 {
		t.Fatalf("profile %v, want Sum alone, invoked once", p.Funcs)
	}
	checkIdentity(t, funcsOf(all)[P+"Sum"], sum, 7)
}

// TestLineDirectives instruments testdata/src/work/lined, whose F follows a //line directive
// naming grammar.y: the hash a profile records and the one FuncHash computes for analyze are of
// gen.go's text (FuncHash read grammar.y at gen.go's offsets: "the file changed while augur read
// it"), and the timing build edits gen.go (it edited grammar.y, which the go command never reads).
func TestLineDirectives(t *testing.T) {
	prog, err := frontend.Load(workDir, "./lined")
	if err != nil {
		t.Fatal(err)
	}
	fns, err := prog.Select("example.com/work/lined.F")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Instrument(prog, fns, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	h, err := FuncHash(fns[0])
	if err != nil || h != b.Packages[0].Funcs[0].Hash {
		t.Errorf("FuncHash %q (%v), want the profile's %q", h, err, b.Packages[0].Funcs[0].Hash)
	}
	overlay, _, _, err := timingBuild(prog, fns, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(overlay)
	if err != nil || !strings.Contains(string(data), filepath.Join("lined", "gen.go")+`"`) || strings.Contains(string(data), "grammar.y") {
		t.Errorf("timing overlay (%v):\n%s", err, data)
	}
}

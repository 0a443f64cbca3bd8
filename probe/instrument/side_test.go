package instrument

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

// TestSideEntries measures testdata/src/work/side, whose twins call package side/b's functions
// through their side entries (a leaf of two decisions, one that panics, a method whose twin calls
// b's own, a generic function), from 8 goroutines, with panics in b recovered by the test: the
// same counts with twins, without and with frames, and the invocations and panics the test
// makes.
func TestSideEntries(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	var fns []*frontend.Func
	var sources string
	profiles := inModes(func(mode string) *profile.Profile {
		prog, err := frontend.Load(workDir, "./side/...")
		if err != nil {
			t.Fatal(err)
		}
		fns = nil
		for _, pkg := range []string{"example.com/work/side", "example.com/work/side/b"} {
			f, err := prog.Select(pkg)
			if err != nil {
				t.Fatal(err)
			}
			fns = append(fns, f...)
		}
		b, err := Instrument(prog, fns, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if mode == "twins" {
			for _, f := range b.Files {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				sources += string(data)
			}
		}
		bin := filepath.Join(t.TempDir(), "side.test")
		if out, err := goCmd(filepath.Join(workDir, "side"), "test", "-c", "-o", bin, "-overlay="+b.Overlay, "-vet=off", ".").CombinedOutput(); err != nil {
			t.Fatalf("go test -c: %v\n%s", err, out)
		}
		dir := t.TempDir()
		if r := runBin(t, bin, dir, "-test.run=^TestAll$"); r.code != 0 {
			t.Fatalf("%s: exit %d:\n%s%s", mode, r.code, r.stdout, r.stderr)
		}
		p, n, err := b.Collect(dir)
		if err != nil || n != 2 {
			t.Fatalf("%s: %d counter files: %v", mode, n, err)
		}
		for _, fn := range fns {
			if err := conserves(fn.CFG, p.Funcs[fn.Name]); err != nil {
				t.Errorf("%s: %s: %v", mode, fn.Name, err)
			}
		}
		return p
	})
	// Each goroutine g runs 500 rounds i: Scan of 9 bytes and Dot of one; Pick's fourth At panics where
	// i%4 == 3, and Late's where i%4 == 3 too; Total's third Sq where g-i%3 < 0 (the panic statement: Add's callee panicked),
	// and then Total calls no Max.
	var negative uint64
	for g := range 8 {
		for i := range 500 {
			if g-i%3 < 0 {
				negative++
			}
		}
	}
	for _, c := range []struct {
		name         string
		calls, panic uint64
	}{
		{"side.Scan", 4000, 0}, {"side.Dot", 4000, 0}, {"side/b.Class", 40000, 0}, {"side.Pick", 4000, 1000},
		{"side.Late", 4000, 1000}, {"side/b.At", 20000, 2000}, {"side/b.(*Acc).Add", 4000, negative},
		{"side/b.Sq", 12000, 0}, {"side/b.Max", 8000 - 2*negative, 0}, // Sq's panic is a node
		{"side/b.Twice", 4000 - negative, 0},
	} {
		f := profiles[0].Funcs["example.com/work/"+c.name]
		if f == nil {
			t.Errorf("%s: not in the profile", c.name)
			continue
		}
		if f.Invocations != c.calls || panicsOf(f) != c.panic {
			t.Errorf("%s: %d invocations, %d panics, want %d, %d", c.name, f.Invocations, panicsOf(f), c.calls, c.panic)
		}
	}
	checkAgree(t, "", fns, profiles)
	for _, call := range []string{"b.AugurSide_Class(", "_augur_bb, AugurSide_Class(", "b.AugurSide_At(", "a.AugurSide_Add(", "b.AugurSide_Max("} {
		if !strings.Contains(sources, call) {
			t.Errorf("no side call %s in the instrumented sources", call)
		}
	}
	// b declares an AugurSide_Twice of its own: Twice is called through its entry.
	if strings.Contains(sources, "b.AugurSide_Twice(&") || !strings.Contains(sources, "b.Twice(n)") {
		t.Error("Twice is called through a side entry, or not at all")
	}
}

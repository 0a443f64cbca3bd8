package modelio

import (
	"fmt"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/augur-perf/augur/internal/testmodels"

	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/markov/pctl"
)

// BenchmarkLoadCheck is the whole of `augur check` on PRISM explicit files but the process start:
// reading the .tra, .lab and .srew files and checking R=? [F "goal"]. The goal is under 1 s and
// under 400 MB for the whole process at 10^6 states; B/op counts everything allocated, the
// model included.
func BenchmarkLoadCheck(b *testing.B) {
	for _, n := range []int{1e5, 1e6} {
		dir := b.TempDir()
		base := filepath.Join(dir, "m")
		if _, err := WritePRISMFiles(base, testmodels.RandomChain(n), PRISMWriteOptions{}); err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		f, err := pctl.Parse(`R{"cost"}=? [ F "goal" ]`)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				m, err := Load(base + ".tra")
				if err != nil {
					b.Fatal(err)
				}
				if _, err := checker.Check(m, f, checker.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

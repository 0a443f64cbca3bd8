package modelio

import (
	"fmt"
	"io"
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/augur-perf/augur/markov/dtmc"
)

// onlyReader hides every method but Read, so that DecodePRISM cannot seek and takes the general
// path.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

// decodeBoth reads the same files through the fast path (seekable readers) and through the
// general reader alone, and describes how they differ ("" if they do not).
func decodeBoth(tra, lab, srew, trew string) (diff string, err error) {
	decode := func(seek bool) (*dtmc.Model, error) {
		mk := func(name, s string) Source {
			if seek {
				return Source{Name: name, R: strings.NewReader(s)}
			}
			return Source{Name: name, R: onlyReader{strings.NewReader(s)}}
		}
		return DecodePRISM(mk("f.tra", tra), mk("f.lab", lab), []Source{mk("f.srew", srew)}, []Source{mk("f.trew", trew)})
	}
	fast, ferr := decode(true)
	slow, serr := decode(false)
	switch {
	case ferr != nil || serr != nil:
		if fmt.Sprint(ferr) != fmt.Sprint(serr) {
			return fmt.Sprintf("fast path: %v\ngeneral reader: %v", ferr, serr), serr
		}
		return "", serr
	case !reflect.DeepEqual(fast, slow):
		return fmt.Sprintf("fast path: %+v\ngeneral reader: %+v\n%s", fast, slow, diffModels(fast, slow)), nil
	}
	return "", nil
}

// FuzzPRISMFastPath: the fast path gives exactly the model, or exactly the error, that the
// general reader gives, whatever the files.
func FuzzPRISMFastPath(f *testing.F) {
	f.Add(coinTra, coinLab, "2 1\n0 2\n", "2 1\n0 1 3\n", uint8(255))
	f.Add("3 4\n0 1 0.5\n0 2 0.5\n1 1 1\n2 2 1\n", "0=\"init\" 1=\"end\"\n0: 0\n2: 1\n1: 1\n", "# Reward structure \"a\"\n# State rewards\n3 2\n0 1\n1 2.5\n", "3 0\n", uint8(7))
	f.Add("# c\n\n3 4\r\n0 1 0.5\r\n  0 2 .5 \n# x\n1 1 1e0\n2 2 1\n", coinLab, "3 1\n2 0\n", "3 1\n0 2 1\n", uint8(7))
	f.Add("2 3\n0 1 0.5\n0 0 0.5\n1 1 1\n", coinLab, "2 0\n", "2 0\n", uint8(7))
	f.Add("2 3\n0 0 0.5\n0 1 0.5 a\n1 1 1\n", coinLab, "2 0\n", "2 0\n", uint8(7))
	f.Add("2 3\n0 0 1/2\n0 1 0.5\n1 1 1\n", coinLab, "2 0\n", "2 0\n", uint8(7))
	f.Add("3 3\n0 0 0.5\n0 1 0.5\n2 2 1\n", coinLab, "3 0\n", "3 0\n", uint8(7))
	f.Add("2 3\n0 0 0.5\n0 1 0.6\n1 1 1\n", coinLab, "2 0\n", "2 0\n", uint8(7))
	f.Add("2 3\n0 0 0.5\n0 1 0.5\n1 1 1", coinLab, "2 1\n1 -1\n", "2 0\n", uint8(7))
	f.Add("3 4\n0 1 0.5\n0 2 0.5\n1 1 1\n2 2 1\n", "0=\"init\"\n0: 0\n", "3 3\n0 1\n2 0\n2 2\n", "3 0\n", uint8(5))
	f.Add("3 4\n0 1 0.5\n0 2 0.5\n1 1 1\n2 2 1\n", "0=\"init\"\n0: 0\n", "3 3\n0 1\n2 0\n1 2\n", "3 0\n", uint8(0))
	// Texts repeated, and different texts of one value, for the last value kept by text.
	f.Add("4 7\n0 1 0.5\n0 2 0.50\n1 1 0.5\n1 3 .5\n2 2 1\n3 3 1.0\n3 3 1\n", coinLab, "4 3\n0 2\n1 2\n2 2.0\n", "4 0\n", uint8(255))
	defer func(size int) { blockSize = size }(blockSize)
	f.Fuzz(func(t *testing.T, tra, lab, srew, trew string, block uint8) {
		// Blocks of a few bytes put block boundaries everywhere.
		blockSize = 1 + int(block)
		if d, _ := decodeBoth(tra, lab, srew, trew); d != "" {
			t.Fatal(d)
		}
	})
}

// TestPRISMFastPathTaken: files as PRISM writes them take the fast path, across blocks, and the
// result is the general reader's.
func TestPRISMFastPathTaken(t *testing.T) {
	const n = 100000 // about 2.5 MB of transitions: several blocks
	var b strings.Builder
	fmt.Fprintf(&b, "%d %d\n", n, 2*n-1)
	for s := 0; s < n-1; s++ {
		fmt.Fprintf(&b, "%d %d 0.25\n%d %d 0.75\n", s, s, s, s+1)
	}
	fmt.Fprintf(&b, "%d %d 1\n", n-1, n-1)
	raw, ok := fastPRISMTra(src("m.tra", b.String()), 0)
	if !ok {
		t.Fatal("the fast path gave up")
	}
	if len(raw.csr.col) != 2*n-1 || len(raw.csr.rowPtr) != n+1 || raw.csr.col[2*n-3] != n-1 {
		t.Fatalf("%d transitions, %d rows", len(raw.csr.col), len(raw.csr.rowPtr))
	}
	d, err := decodeBoth(b.String(), "0=\"init\"\n0: 0\n", fmt.Sprintf("%d 0\n", n), fmt.Sprintf("%d 0\n", n))
	if err != nil || d != "" {
		t.Fatalf("%v %s", err, d)
	}
}

// slowDecimal is what the general reader does with a number: isDecimal, then strconv.
func slowDecimal(s string) (float64, bool) {
	if !isDecimal(s) {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil && !math.IsInf(v, 0) && !math.IsNaN(v)
}

func sameDecimal(t *testing.T, s string) {
	t.Helper()
	got, gok := decimalValue([]byte(s))
	want, wok := slowDecimal(s)
	if gok != wok || math.Float64bits(got) != math.Float64bits(want) {
		t.Fatalf("%q: decimalValue %v %v, strconv %v %v", s, got, gok, want, wok)
	}
}

// TestDecimalValue: the one-pass reading of numbers is strconv's to the bit, on every kind of
// decimal the writers produce and on the edges of its fast path.
func TestDecimalValue(t *testing.T) {
	for _, s := range []string{"0", "-0", "+0", "1", "0.5", ".5", "5.", ".", "", "+", "-", "+.5", "-.5",
		"1e0", "1E-5", "0.1", "0.3333333333333333", "0.9861370006552873", "123456789012345",
		"1234567890123456", "0.000000000000000000000123", "0.0000000000000000000001", "1.5x", "0x1p-2",
		"inf", "NaN", "1_000", "00000000000000000000001.5", "0.100000000000000000000000000",
		"999999999999999", "0.999999999999999", "18446744073709551616", "1e400", "1e-400"} {
		sameDecimal(t, s)
	}
	r := rand.New(rand.NewPCG(3, 4))
	// 16 to 19 significant digits (Eisel-Lemire), placed anywhere from 10^0 to 10^-22, and
	// half-way cases: a float64 and its neighbour averaged, written out in full.
	for range 300000 {
		digits := 16 + r.IntN(4)
		var b strings.Builder
		b.WriteString("0.")
		for range r.IntN(8) {
			b.WriteByte('0')
		}
		for range digits {
			b.WriteByte(byte('0' + r.IntN(10)))
		}
		sameDecimal(t, b.String())
		sameDecimal(t, strings.TrimPrefix(b.String(), "0"))
		v := r.Float64()
		mid := new(big.Float).SetPrec(200).SetFloat64(v)
		mid.Add(mid, new(big.Float).SetPrec(200).SetFloat64(math.Nextafter(v, 2)))
		mid.Quo(mid, big.NewFloat(2))
		sameDecimal(t, mid.Text('f', 19))
		sameDecimal(t, strconv.FormatFloat(v, 'f', 17+r.IntN(3), 64))
	}
	for range 200000 {
		v := r.Float64() * math.Pow(10, float64(r.IntN(8)-4))
		for _, s := range []string{strconv.FormatFloat(v, 'g', -1, 64), strconv.FormatFloat(v, 'f', -1, 64), strconv.FormatFloat(v, 'f', r.IntN(20), 64)} {
			sameDecimal(t, s)
		}
	}
}

// TestEiselLemire: where it answers, the 128-bit algorithm gives strconv's float64, and it
// answers nearly always.
func TestEiselLemire(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	answered := 0
	const tries = 200000
	for range tries {
		man, k := r.Uint64()%10000000000000000000, r.IntN(len(pow10))
		got, ok := eiselLemire(man, k, false)
		if !ok {
			continue
		}
		answered++
		want, _ := strconv.ParseFloat(fmt.Sprintf("%de-%d", man, k), 64)
		if got != want {
			t.Fatalf("%d·10^-%d: %v, strconv %v", man, k, got, want)
		}
	}
	if answered < tries*99/100 {
		t.Fatalf("answered %d of %d", answered, tries)
	}
}

func FuzzDecimalValue(f *testing.F) {
	f.Add("0.9861370006552873")
	f.Add("-0.5e3")
	f.Add("000.000")
	f.Fuzz(func(t *testing.T, s string) { sameDecimal(t, s) })
}

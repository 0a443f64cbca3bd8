// Command lz4 is augur's real-program example for `augur options`: it
// compresses generated data with github.com/pierrec/lz4/v4, a real,
// configurable open-source library taken through the module proxy, and
// passes its boolean flags on to the library's options. ConfigCrusher's
// pipeline (taint analysis with the library analysed from source, region
// timing, compression, local and global models) runs on it end to end; see
// docs/options-example.md.
//
// The work is deterministic CPU work on data generated from a fixed seed:
// no network, no files. Options:
//
//	-hc        compress with the high-compression compressor (lz4.Level4) instead of Fast
//	-big       4 MiB blocks instead of 64 KiB ones
//	-blockcrc  a checksum per block (xxh32 over each compressed block)
//	-nocrc     no content checksum (xxh32 over all the data, on by default)
//	-verify    decompress the stream and compare it with the input
//	-text      compress text-like data (words) instead of noisy binary data
//	-v         print sizes (not a performance option; it influences only the print)
//
// The input is 2 MiB, a constant rather than a flag so that every option is
// boolean. lz4's ConcurrencyOption is not offered: this example stays the
// single-goroutine reproduction of ConfigCrusher; examples/zstd is the
// concurrent one.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"

	"github.com/pierrec/lz4/v4"
)

var (
	hc       = flag.Bool("hc", false, "high compression (lz4.Level4) instead of Fast")
	big      = flag.Bool("big", false, "4 MiB blocks instead of 64 KiB")
	blockCRC = flag.Bool("blockcrc", false, "checksum every block")
	noCRC    = flag.Bool("nocrc", false, "no content checksum")
	verify   = flag.Bool("verify", false, "decompress and compare")
	text     = flag.Bool("text", false, "text-like input instead of noisy binary")
	verbose  = flag.Bool("v", false, "print sizes")
)

func main() {
	flag.Parse()
	data := generate(2<<20, *text)
	opts := []lz4.Option{lz4.ChecksumOption(!*noCRC), lz4.BlockChecksumOption(*blockCRC)}
	if *hc {
		opts = append(opts, lz4.CompressionLevelOption(lz4.Level4))
	}
	if *big {
		opts = append(opts, lz4.BlockSizeOption(lz4.Block4Mb))
	} else {
		opts = append(opts, lz4.BlockSizeOption(lz4.Block64Kb))
	}
	compressed, err := compress(data, opts)
	if err != nil {
		fail(err)
	}
	if *verify {
		if err := check(compressed, data); err != nil {
			fail(err)
		}
	}
	if *verbose {
		fmt.Printf("%d bytes -> %d bytes\n", len(data), len(compressed))
	}
}

func compress(data []byte, opts []lz4.Option) ([]byte, error) {
	var out bytes.Buffer
	w := lz4.NewWriter(&out)
	if err := w.Apply(opts...); err != nil {
		return nil, err
	}
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

func check(compressed, want []byte) error {
	got, err := io.ReadAll(lz4.NewReader(bytes.NewReader(compressed)))
	if err != nil {
		return err
	}
	if !bytes.Equal(got, want) {
		return fmt.Errorf("round trip changed the data")
	}
	return nil
}

// generate makes n bytes from a fixed seed: words from a small vocabulary
// (compressible, many matches) or bytes from a skewed distribution with
// short repeats (harder to compress, fewer matches).
func generate(n int, text bool) []byte {
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 0, n+16)
	if text {
		words := []string{"the", "option", "region", "influence", "config", "crusher", "lz4", "block",
			"taint", "measure", "model", "white", "box", "performance", "go", "analysis"}
		for len(buf) < n {
			buf = append(buf, words[rng.IntN(len(words))]...)
			buf = append(buf, ' ')
		}
		return buf[:n]
	}
	for len(buf) < n {
		if rng.IntN(4) == 0 && len(buf) > 64 {
			k := 4 + rng.IntN(12)
			start := len(buf) - 1 - rng.IntN(64)
			for i := 0; i < k; i++ {
				buf = append(buf, buf[start+i])
			}
			continue
		}
		buf = append(buf, byte(rng.ExpFloat64()*24))
	}
	return buf[:n]
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "lz4:", err)
	os.Exit(1)
}

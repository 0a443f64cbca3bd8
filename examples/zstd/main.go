// Command zstd is augur's second real-program example for `augur options`,
// and its concurrent one: it compresses generated data with
// github.com/klauspost/compress/zstd, a real, configurable library taken
// through the module proxy, and passes its boolean flags on to the
// encoder's options. Two of them run the library's code on several
// goroutines, so its regions are timed per goroutine; -mib, the input's size,
// is numeric, so its regions' times are curves in it; see
// docs/options-zstd.md.
//
// The work is deterministic CPU work on data generated from a fixed seed:
// no network, no files. Options:
//
//	-better  SpeedBetterCompression instead of SpeedFastest
//	-conc    two encoders instead of one: a stream compresses its next block
//	         on another goroutine while the last one is written
//	-jobs    job-based parallel compression (WithConcurrentBlocks): the input
//	         is cut into jobs of four windows, compressed on several
//	         goroutines; it needs -conc to have two encoders
//	-window  an 8 MiB window instead of 256 KiB (one job for the whole input)
//	-nocrc   no content checksum (xxhash64 over the data, on by default)
//	-verify  decompress the stream (with as many decoders as encoders) and
//	         compare it with the input
//	-text    compress text-like data (words) instead of noisy binary data
//	-v       print sizes (not a performance option)
//	-mib N   compress N MiB (default 4): a numeric option, measured with
//	         --values and held at its default with --fixed where the
//	         black-box baselines of `augur options evaluate`, which need
//	         every option boolean, are compared
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"

	"github.com/klauspost/compress/zstd"
)

var (
	better  = flag.Bool("better", false, "SpeedBetterCompression instead of SpeedFastest")
	conc    = flag.Bool("conc", false, "two encoders (and decoders) instead of one")
	jobs    = flag.Bool("jobs", false, "job-based parallel compression of the stream")
	window  = flag.Bool("window", false, "an 8 MiB window instead of 256 KiB")
	noCRC   = flag.Bool("nocrc", false, "no content checksum")
	verify  = flag.Bool("verify", false, "decompress and compare")
	text    = flag.Bool("text", false, "text-like input instead of noisy binary")
	verbose = flag.Bool("v", false, "print sizes")
	mib     = flag.Int("mib", 4, "the input's size in MiB")
)

func main() {
	flag.Parse()
	if *mib < 1 {
		fail(fmt.Errorf("-mib %d: want at least 1", *mib))
	}
	data := generate(*mib<<20, *text)
	workers := 1
	if *conc {
		workers = 2
	}
	level := zstd.SpeedFastest
	if *better {
		level = zstd.SpeedBetterCompression
	}
	size := 256 << 10
	if *window {
		size = 8 << 20
	}
	opts := []zstd.EOption{zstd.WithEncoderLevel(level), zstd.WithEncoderConcurrency(workers),
		zstd.WithConcurrentBlocks(*jobs), zstd.WithWindowSize(size), zstd.WithEncoderCRC(!*noCRC)}
	compressed, err := compress(data, opts)
	if err != nil {
		fail(err)
	}
	if *verify {
		if err := check(compressed, data, workers); err != nil {
			fail(err)
		}
	}
	if *verbose {
		fmt.Printf("%d bytes -> %d bytes\n", len(data), len(compressed))
	}
}

// compress writes data through a stream encoder in 64 KiB writes, as a
// program compressing a stream would.
func compress(data []byte, opts []zstd.EOption) ([]byte, error) {
	var out bytes.Buffer
	w, err := zstd.NewWriter(&out, opts...)
	if err != nil {
		return nil, err
	}
	for len(data) > 0 {
		n := min(len(data), 64<<10)
		if _, err := w.Write(data[:n]); err != nil {
			return nil, err
		}
		data = data[n:]
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

func check(compressed, want []byte, workers int) error {
	r, err := zstd.NewReader(bytes.NewReader(compressed), zstd.WithDecoderConcurrency(workers))
	if err != nil {
		return err
	}
	defer r.Close()
	got, err := io.ReadAll(r)
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
	rng := rand.New(rand.NewPCG(3, 4))
	buf := make([]byte, 0, n+16)
	if text {
		words := []string{"zstd", "window", "encoder", "level", "block", "frame", "entropy", "huffman",
			"sequence", "literal", "match", "offset", "goroutine", "stream", "checksum", "job"}
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
	fmt.Fprintln(os.Stderr, "zstd:", err)
	os.Exit(1)
}

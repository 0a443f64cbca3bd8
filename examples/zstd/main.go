// Command zstd is augur's second real-program example for `augur options`,
// and its concurrent one: it compresses 4 MiB of generated data (a fixed
// seed; no network, no files) with github.com/klauspost/compress/zstd, a
// real, configurable library taken through the module proxy, and its
// options are the library's own settings, read from flags as a program
// wrapping the library reads them and handed to the encoder unchanged:
//
//	-level N        the encoder level, the library's own scale: 1 fastest,
//	                2 default, 3 better, 4 best compression
//	                (zstd.WithEncoderLevel(zstd.EncoderLevel(N)))
//	-concurrency N  encoders working at once (zstd.WithEncoderConcurrency):
//	                with more than one the stream compresses its next
//	                block on another goroutine while the last is written
//	-window KiB     the window size (zstd.WithWindowSize), a power of two
//	-crc            the content checksum, xxhash64 over the data
//	                (zstd.WithEncoderCRC); on by default, -crc=false drops it
//	-v              print sizes (not a performance option)
//
// See docs/options-zstd.md.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"

	"github.com/klauspost/compress/zstd"
)

var (
	level       = flag.Int("level", int(zstd.SpeedDefault), "encoder level: 1 fastest, 2 default, 3 better, 4 best")
	concurrency = flag.Int("concurrency", 1, "encoders working at once")
	window      = flag.Int("window", 8<<10, "window size in KiB (a power of two)")
	crc         = flag.Bool("crc", true, "write a content checksum")
	verbose     = flag.Bool("v", false, "print sizes")
)

func main() {
	flag.Parse()
	opts := []zstd.EOption{zstd.WithEncoderLevel(zstd.EncoderLevel(*level)), zstd.WithEncoderConcurrency(*concurrency),
		zstd.WithWindowSize(*window << 10), zstd.WithEncoderCRC(*crc)}
	data := generate(4 << 20)
	compressed, err := compress(data, opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "zstd:", err)
		os.Exit(1)
	}
	if *verbose {
		fmt.Printf("%d bytes -> %d bytes\n", len(data), len(compressed))
	}
}

// compress writes data through a stream encoder in 64 KiB writes, as a
// program compressing a stream would. The library checks the options: a
// level outside 1-4, a negative concurrency or a window that is not a power
// of two between 1 KiB and 512 MiB is its error.
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

// generate makes n bytes from a fixed seed: runs of words from a small
// vocabulary (compressible, many matches) alternating with bytes from a
// skewed distribution with short repeats (fewer matches), so every level
// has work of both kinds.
func generate(n int) []byte {
	rng := rand.New(rand.NewPCG(3, 4))
	words := []string{"zstd", "window", "encoder", "level", "block", "frame", "entropy", "huffman",
		"sequence", "literal", "match", "offset", "goroutine", "stream", "checksum", "job"}
	buf := make([]byte, 0, n+16)
	for len(buf) < n {
		end := len(buf) + 32<<10
		if rng.IntN(2) == 0 {
			for len(buf) < end {
				buf = append(buf, words[rng.IntN(len(words))]...)
				buf = append(buf, ' ')
			}
			continue
		}
		for len(buf) < end {
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
	}
	return buf[:n]
}

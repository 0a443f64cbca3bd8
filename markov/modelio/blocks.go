package modelio

import (
	"bytes"
	"io"
	"runtime"
	"sync"
)

// blockSize is how much of a file one goroutine parses at a time: large enough that handing
// blocks over costs nothing, small enough that the blocks in flight stay a few megabytes. It is
// a variable so that tests can cut small files into many blocks.
var blockSize = 1 << 20

// parseBlocks reads r to its end in blocks that end at a newline (the last one may not), has
// parse turn each block into a result on as many goroutines as there are processors, and hands
// the results to merge in file order. parse must not keep the block it is given: its memory is
// reused. It returns false as soon as parse or merge rejects a block, a line is longer than
// blockSize or reading fails; the caller then reads the file again the slow way, which says why.
func parseBlocks[T any](r io.Reader, parse func(block []byte) (T, bool), merge func(T) bool) bool {
	workers := runtime.GOMAXPROCS(0)
	type result struct {
		v  T
		ok bool
	}
	type job struct {
		block []byte
		out   chan result
	}
	free := make(chan []byte, 2*workers+2)
	for range cap(free) {
		free <- make([]byte, blockSize)
	}
	jobs := make(chan job)
	order := make(chan chan result, 2*workers)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				v, ok := parse(j.block)
				free <- j.block[:cap(j.block)]
				j.out <- result{v, ok}
			}
		}()
	}
	readOK := true // written by the reader before it closes order
	go func() {
		defer close(order)
		defer close(jobs)
		var carry []byte // the unfinished last line of the previous block
		for {
			var buf []byte
			select {
			case buf = <-free:
			case <-stop:
				return
			}
			n := copy(buf, carry)
			m, err := io.ReadFull(r, buf[n:])
			n += m
			last := err == io.EOF || err == io.ErrUnexpectedEOF
			if err != nil && !last {
				readOK = false
				return
			}
			end := n
			if !last {
				end = bytes.LastIndexByte(buf[:n], '\n') + 1
				if end == 0 {
					readOK = false // a line longer than a block
					return
				}
			}
			carry = append(carry[:0], buf[end:n]...)
			out := make(chan result, 1)
			select {
			case order <- out:
			case <-stop:
				return
			}
			jobs <- job{buf[:end], out}
			if last {
				return
			}
		}
	}()
	ok := true
	for out := range order {
		res := <-out
		if ok && !(res.ok && merge(res.v)) {
			ok = false
			close(stop)
		}
	}
	wg.Wait()
	return ok && readOK
}

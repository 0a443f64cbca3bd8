// Package shadow redeclares, at package level, every predeclared identifier of Go and names
// like those of augur's injected runtime: instrumenting it must still build and count right.
package shadow

type (
	any        struct{}
	bool       struct{}
	byte       struct{}
	comparable struct{}
	complex64  struct{}
	complex128 struct{}
	error      struct{}
	float32    struct{}
	float64    struct{}
	int        struct{}
	int8       struct{}
	int16      struct{}
	int32      struct{}
	int64      struct{}
	rune       struct{}
	string     struct{}
	uint       struct{}
	uint8      struct{}
	uint16     struct{}
	uint32     struct{}
	uint64     struct{}
	uintptr    struct{}
)

const (
	true  = 0
	false = 1
	iota  = 2
)

var nil = 3

func append()  {}
func cap()     {}
func clear()   {}
func close()   {}
func complex() {}
func copy()    {}
func delete()  {}
func imag()    {}
func len()     {}
func make()    {}
func max()     {}
func min()     {}
func new()     {}
func panic()   {}
func print()   {}
func println() {}
func real()    {}
func recover() {}

// Names like those augur gives what it injects.
var (
	_augur_c     = 1
	_augur_r     = 2
	_augur_cs    = 3
	_augur_frame = 4
	_augur1_x    = 5
)

// Sink keeps the declarations used.
var Sink = []any{{}}

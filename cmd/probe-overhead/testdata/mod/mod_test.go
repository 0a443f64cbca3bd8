package mod

import "testing"

var sink int

func BenchmarkCount(b *testing.B) {
	for b.Loop() {
		sink += Count("a quick brown fox jumps over the lazy dog", 'o')
	}
}

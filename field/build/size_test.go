package build

import "testing"

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"16MB": 16 << 20, "512kb": 512 << 10, "1GB": 1 << 30, "700": 700, "9B": 9} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("%s: %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "MB", "-1MB", "1.5MB", "99999999999GB"} {
		if _, err := ParseSize(in); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}

// Any --spool-max text is a positive size or an error, never a panic or an overflow.
func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"16MB", "1gb", "700", "", "MB", "-1KB", "4611686018427387904B", "9223372036854775807"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if n, err := ParseSize(s); err == nil && n < 1 {
			t.Fatalf("%q: %d bytes", s, n)
		}
	})
}

package sources

import (
	"strings"
	"testing"
)

// FuzzParse: the command-line declarations are read or refused with an error, never a panic,
// and what they accept is well formed.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"example.com/app.LoadConfig", "example.com/app.Config.Level=level", "level=1,9",
		"a.T.F", "=x", "pkg.F=", "x=", "n=1,1", "gopkg.in/yaml.v3.Decoder.Decode=Y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if _, err := ParseSource(s); err == nil && !strings.Contains(s, ".") {
			t.Errorf("ParseSource(%q) accepted a spec without a package", s)
		}
		_, _ = ParseField(s)
		name, values, err := ParseValues(s)
		if err != nil {
			return
		}
		if name == "" || len(values) < 2 {
			t.Errorf("ParseValues(%q) = %q, %q: want a name and at least two values", s, name, values)
		}
		seen := map[string]bool{}
		for _, v := range values {
			if seen[v] {
				t.Errorf("ParseValues(%q) kept the duplicate value %q", s, v)
			}
			seen[v] = true
		}
	})
}

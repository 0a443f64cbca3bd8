package annot

import (
	"strings"
	"testing"
)

// FuzzDecode: a rewards file is read or refused with an error naming the file, never a panic.
func FuzzDecode(f *testing.F) {
	f.Add(`{"format":"augur-rewards/1","rewards":{"time":{"distance.go:11":1.8,"distance.go:14:3":0.5}}}`)
	f.Add(`{"format":"augur-rewards/1","rewards":{}}`)
	f.Add(`{"format":"augur-rewards/1","rewards":{"t":{"a.go:0":-1}}}`)
	f.Fuzz(func(t *testing.T, in string) {
		file, err := Decode(strings.NewReader(in), "fuzz.json")
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz.json") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		for _, e := range file.Entries {
			if e == nil {
				t.Fatal("nil entry")
			}
		}
	})
}

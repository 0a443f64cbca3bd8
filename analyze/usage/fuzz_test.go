package usage

import (
	"strings"
	"testing"
)

// FuzzDecode: any input is read or refused with an error, never a panic, and what is read
// keeps the counts it stated.
func FuzzDecode(f *testing.F) {
	f.Add(`{"format":"augur-usage/1","functions":{"p.F":{"invocations":100,"decisions":{"f.go:12":{"true":30,"false":70}}}}}`)
	f.Add(`{"format":"augur-usage/1","functions":{}}`)
	f.Add(`{"format":"augur-usage/1","functions":{"p.F":{"invocations":1,"decisions":{"f.go:3:9":{"case 2":1}}}}}`)
	f.Fuzz(func(t *testing.T, in string) {
		u, err := Decode(strings.NewReader(in), "fuzz.json")
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz.json") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		if u == nil {
			t.Fatal("nil usage without an error")
		}
	})
}

package modelio

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/augur-perf/augur/markov/dtmc"
)

// Load reads a model in whichever machine format its path names: augur's JSON (.json), or an
// explicit model given by its .tra file or base name — Storm's when the .tra file begins with
// "dtmc", PRISM's otherwise.
func Load(path string) (*dtmc.Model, error) {
	switch filepath.Ext(path) {
	case ".json":
		return ReadJSONFile(path)
	case ".tra", ".lab":
	default:
		if !fileExists(path + ".tra") {
			return nil, fmt.Errorf("%s: not a model: expected augur JSON (.json) or an explicit model (.tra, or its base name)", path)
		}
		path += ".tra"
	}
	tra := strings.TrimSuffix(path, filepath.Ext(path)) + ".tra"
	f, err := os.Open(tra)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	first := ""
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			first = line
			break
		}
	}
	if first == "dtmc" {
		return LoadStorm(path)
	}
	return LoadPRISM(path)
}

package export

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/augur-perf/augur/markov/dtmc"
	"github.com/augur-perf/augur/markov/modelio"
)

// WriteFiles writes m in one format under the base path (its directory created): "prism"
// (base.pm and base.props with props, and base.values when parametric), "storm" (base.tra,
// base.lab), "dot" (base.dot) or "json" (base.json). It returns the files written.
func WriteFiles(base, format string, m *dtmc.Model, props []string, parametric bool) ([]string, error) {
	if dir := filepath.Dir(base); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
	}
	var written []string
	write := func(path, text string) error {
		written = append(written, path)
		return os.WriteFile(path, []byte(text), 0o644)
	}
	switch format {
	case "prism":
		pm, err := PRISM(m, PRISMOptions{Parametric: parametric})
		if err != nil {
			return nil, err
		}
		if err := write(base+".pm", pm.Text); err != nil {
			return nil, err
		}
		if parametric {
			if err := write(base+".values", pm.ValuesFile()); err != nil {
				return nil, err
			}
		}
		text, err := Props(props)
		if err != nil {
			return nil, err
		}
		if err := write(base+".props", text); err != nil {
			return nil, err
		}
	case "storm":
		files, err := modelio.WriteStormFiles(base, m)
		if err != nil {
			return nil, err
		}
		written = append(written, files.Tra, files.Lab)
	case "dot":
		if err := write(base+".dot", DOT(m)); err != nil {
			return nil, err
		}
	case "json":
		if err := modelio.WriteJSONFile(base+".json", m); err != nil {
			return nil, err
		}
		written = append(written, base+".json")
	default:
		return nil, fmt.Errorf("--emit %q: choose prism, storm, dot or json", format)
	}
	return written, nil
}

package text_test

import (
	"os"
	"strings"
	"testing"

	"github.com/augur-perf/augur/options/influence"
	"github.com/augur-perf/augur/options/study"
	"github.com/augur-perf/augur/report/text"
)

// TestSavedModels prints saved model files as `augur options measure` printed them (no
// subcommand prints a saved model): AUGUR_MODELS="a.json b.json" go test ./report/text -run
// TestSavedModels -v. With AUGUR_MODELS_TERMWISE=1 it also prints the formulas with every
// term judged alone, as measure did before curves were judged with their constants.
func TestSavedModels(t *testing.T) {
	paths := strings.Fields(os.Getenv("AUGUR_MODELS"))
	if len(paths) == 0 {
		t.Skip("AUGUR_MODELS names no model files")
	}
	for _, path := range paths {
		mf, err := study.ReadModel(path)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := text.OptionsModel(&b, mf); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s:\n%s", path, b.String())
		if os.Getenv("AUGUR_MODELS_TERMWISE") != "" {
			o := mf.FormatOptions()
			o.Values = nil
			models := []influence.Model{mf.Model}
			if mf.Summed != nil {
				models = append(models, mf.Summed.Model)
			}
			for _, m := range models {
				t.Logf("%s, each term judged alone: %s", path, m.Format(o))
			}
		}
	}
}

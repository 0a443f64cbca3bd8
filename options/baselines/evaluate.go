package baselines

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/augur-perf/augur/options/influence"
)

// Entry is one approach to compare: how much it measured and the model it produced. White-box
// approaches (ConfigCrusher's own pipeline) make their Entry directly.
type Entry struct {
	Approach      string
	Configs       int
	MeasuringTime float64
	Wall          time.Duration
	Model         influence.Model
}

// Entry summarises a run for Evaluate.
func (r Run) Entry() Entry {
	return Entry{Approach: r.Approach, Configs: len(r.Configs), MeasuringTime: r.MeasuringTime, Wall: r.Wall, Model: r.Model}
}

// Row is one line of the comparison, as in ConfigCrusher's Tables 5 and 6.
type Row struct {
	Approach string `json:"approach"`
	Configs  int    `json:"configurations"`
	// MeasuringTime is in seconds, as the oracle reported.
	MeasuringTime float64 `json:"measuring_time_s"`
	WallTime      float64 `json:"wall_time_s"`
	// MAPE is the mean absolute percentage error on the held-out configurations.
	MAPE float64 `json:"mape"`
}

// Table is the comparison for one system.
type Table struct {
	System  string `json:"system"`
	HeldOut int    `json:"held_out"`
	Rows    []Row  `json:"rows"`
}

// Evaluate computes each entry's MAPE on held-out configurations of boolean options with
// measured ground truth.
func Evaluate(system string, names []string, entries []Entry, heldOut [][]bool, truth []float64) (Table, error) {
	return Space{Names: names}.Evaluate(system, entries, indices(heldOut), truth)
}

// Evaluate computes each entry's MAPE on held-out configurations (value indices) with measured
// ground truth. The truth must be non-zero: the percentage error of a zero time is undefined.
func (s Space) Evaluate(system string, entries []Entry, heldOut [][]int, truth []float64) (Table, error) {
	if len(heldOut) == 0 || len(heldOut) != len(truth) {
		return Table{}, fmt.Errorf("baselines: %d held-out configurations with %d times", len(heldOut), len(truth))
	}
	for k, t := range truth {
		if t == 0 || math.IsNaN(t) || math.IsInf(t, 0) {
			return Table{}, fmt.Errorf("baselines: held-out configuration %d has time %v; MAPE needs finite non-zero times", k, t)
		}
		if len(heldOut[k]) != len(s.Names) {
			return Table{}, fmt.Errorf("baselines: held-out configuration %d has %d options, want %d", k, len(heldOut[k]), len(s.Names))
		}
	}
	tab := Table{System: system, HeldOut: len(heldOut)}
	for _, e := range entries {
		mape, err := s.MAPE(e.Model, heldOut, truth)
		if err != nil {
			return Table{}, fmt.Errorf("baselines: %s: %v", e.Approach, err)
		}
		tab.Rows = append(tab.Rows, Row{
			Approach:      e.Approach,
			Configs:       e.Configs,
			MeasuringTime: e.MeasuringTime,
			WallTime:      e.Wall.Seconds(),
			MAPE:          mape,
		})
	}
	return tab, nil
}

// MAPE is the mean absolute percentage error of a model's predictions on configurations of
// boolean options.
func MAPE(m influence.Model, names []string, cfgs [][]bool, truth []float64) float64 {
	v, err := Space{Names: names}.MAPE(m, indices(cfgs), truth)
	if err != nil {
		return math.NaN()
	}
	return v
}

// MAPE is the mean absolute percentage error of a model's predictions on configurations of
// the space; a model that needs a numeric or categorical option's value the space lacks, or a
// categorical value the model never measured, is an error.
func (s Space) MAPE(m influence.Model, cfgs [][]int, truth []float64) (float64, error) {
	sum := 0.0
	for k, c := range cfgs {
		p, err := influence.PredictSetting(m, s.SettingOf(c))
		if err != nil {
			return 0, err
		}
		sum += math.Abs(p-truth[k]) / math.Abs(truth[k])
	}
	return 100 * sum / float64(len(cfgs)), nil
}

func indices(cfgs [][]bool) [][]int {
	out := make([][]int, len(cfgs))
	for k, c := range cfgs {
		out[k] = make([]int, len(c))
		for o, on := range c {
			if on {
				out[k][o] = 1
			}
		}
	}
	return out
}

// String lays the table out as text.
func (t Table) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (MAPE on %d held-out configurations)\n", t.System, t.HeldOut)
	width := len("Approach")
	for _, r := range t.Rows {
		width = max(width, len(r.Approach))
	}
	fmt.Fprintf(&b, "%-*s  %8s  %18s  %8s\n", width, "Approach", "Configs", "Measuring time (s)", "MAPE (%)")
	for _, r := range t.Rows {
		fmt.Fprintf(&b, "%-*s  %8d  %18.2f  %8.1f\n", width, r.Approach, r.Configs, r.MeasuringTime, r.MAPE)
	}
	return b.String()
}

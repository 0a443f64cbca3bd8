package profile

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/augur-perf/augur/source/annot"
	"github.com/augur-perf/augur/source/frontend"
)

// TimeWhat says what a measured time reward is, in every file that holds one and wherever it is
// printed.
const TimeWhat = "CPU time (not wall time) per execution of each statement in nanoseconds, inclusive of the functions it calls " +
	"(and, on the function's entry, of its callers' own work on the line of the call: passing the arguments, the call), " +
	"sampled on a build without augur's counting probes; the CPU time of every goroutine that ran the function adds up, " +
	"so it is the time per call only while calls do not overlap"

// A TimeFile is measured time saved for reuse: a rewards file (format annot.FileFormat, so that
// --rewards reads it like any other) whose "time" reward was measured, with what it was
// measured on and the samples behind each value, so that predictions from it keep their error.
type TimeFile struct {
	Format   string                        `json:"format"`
	Measured *TimeInfo                     `json:"measured"`
	Rewards  map[string]map[string]float64 `json:"rewards"`
}

// TimeInfo says how a time reward was measured.
type TimeInfo struct {
	What     string   `json:"what"`
	Workload []string `json:"workload"`
	// Runs is how many times the workload ran; Go, GOOS, GOARCH and CPU describe the machine.
	Runs   int    `json:"runs"`
	Go     string `json:"go"`
	GOOS   string `json:"goos"`
	GOARCH string `json:"goarch"`
	CPU    string `json:"cpu"`
	// Functions holds, per function, its calls in the timed runs and per statement position
	// (as in Rewards) the samples and executions behind its value.
	Functions map[string]*FuncTime `json:"functions"`
}

// FuncTime is one function's measurement.
type FuncTime struct {
	Invocations uint64 `json:"invocations"`
	// NS and Samples are the function's inclusive CPU time over all its calls and the samples
	// it rests on; NSPerSample and ProfileSamples are NodeTime's NSPerSample and TotalSamples.
	NS             float64             `json:"ns"`
	Samples        int64               `json:"samples"`
	NSPerSample    float64             `json:"ns_per_sample"`
	ProfileSamples float64             `json:"profile_samples"`
	Stmts          map[string]StmtTime `json:"statements"`
}

// StmtTime is what one statement's time rests on: how many CPU samples, and how often it ran.
type StmtTime struct {
	Samples    float64 `json:"samples"`
	Executions float64 `json:"executions"`
}

// NewTimeFile starts a time file for the functions measured by a workload.
func NewTimeFile(info TimeInfo) *TimeFile {
	info.What = TimeWhat
	if info.Functions == nil {
		info.Functions = map[string]*FuncTime{}
	}
	return &TimeFile{Format: annot.FileFormat, Measured: &info, Rewards: map[string]map[string]float64{"time": {}}}
}

// Add records fn's measured time t under the positions of its statements, file paths made
// relative to dir when they are inside it. Nodes that share a position (a defer statement and
// the runs of its call) are recorded once, with the count-weighted mean of their times.
func (tf *TimeFile) Add(fn *frontend.Func, t *NodeTime, lines Lines, invocations uint64, dir string) {
	tot := lines.Total()
	ft := &FuncTime{Invocations: invocations, NS: float64(tot.Samples) * t.NSPerSample, Samples: tot.Samples,
		NSPerSample: t.NSPerSample, ProfileSamples: t.TotalSamples, Stmts: map[string]StmtTime{}}
	sum := map[string]float64{}
	for id, nd := range fn.CFG.Nodes {
		if nd.IsExit() || t.Runs[id] == 0 {
			continue
		}
		k := posKey(nd, dir)
		st := ft.Stmts[k]
		st.Samples += t.Samples[id]
		st.Executions += t.Runs[id]
		ft.Stmts[k] = st
		sum[k] += t.NS[id] * t.Runs[id]
	}
	for k, st := range ft.Stmts {
		tf.Rewards["time"][k] = sum[k] / st.Executions
	}
	tf.Measured.Functions[fn.Name] = ft
}

func posKey(nd *frontend.Node, dir string) string {
	file := nd.Pos.Filename
	if dir != "" {
		if rel, ok := strings.CutPrefix(file, strings.TrimSuffix(dir, "/")+"/"); ok {
			file = rel
		}
	}
	return file + ":" + strconv.Itoa(nd.Pos.Line) + ":" + strconv.Itoa(nd.Pos.Column)
}

// Write writes the file as indented JSON.
func (tf *TimeFile) Write(path string) error {
	data, err := json.MarshalIndent(tf, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// ReadTimeFile reads a rewards file and, when it holds a measured time ("measured" is set),
// returns it; a rewards file of stated values gives nil and no error.
func ReadTimeFile(path string) (*TimeFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tf, err := DecodeTimeFile(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return tf, nil
}

// DecodeTimeFile is ReadTimeFile on a reader.
func DecodeTimeFile(r io.Reader) (*TimeFile, error) {
	var tf TimeFile
	if err := json.NewDecoder(r).Decode(&tf); err != nil {
		return nil, err
	}
	if tf.Format != annot.FileFormat {
		return nil, fmt.Errorf("format %q is not %q", tf.Format, annot.FileFormat)
	}
	if tf.Measured == nil {
		return nil, nil
	}
	if len(tf.Rewards) != 1 || tf.Rewards["time"] == nil {
		return nil, fmt.Errorf("a measured rewards file holds one reward, \"time\"")
	}
	for name, ft := range tf.Measured.Functions {
		if ft == nil || !(ft.NSPerSample > 0) || math.IsInf(ft.NSPerSample, 0) || !(ft.ProfileSamples >= 0) {
			return nil, fmt.Errorf("measured.functions[%q]: no time per sample", name)
		}
		for k, st := range ft.Stmts {
			v, ok := tf.Rewards["time"][k]
			if !ok || st.Samples < 0 || st.Executions <= 0 || math.IsNaN(st.Samples+st.Executions) || v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("measured.functions[%q].statements[%q]: bad entry (samples %v, executions %v, time %v)", name, k, st.Samples, st.Executions, v)
			}
		}
	}
	return &tf, nil
}

// For gives fn's measured time per node, or an error saying why the file has none: the
// function was not measured, or its source changed (a statement position the file names is no
// longer one of fn's).
func (tf *TimeFile) For(fn *frontend.Func) (*NodeTime, error) {
	ft := tf.Measured.Functions[fn.Name]
	if ft == nil {
		return nil, fmt.Errorf("it has no time for %s", fn.Name)
	}
	n := len(fn.CFG.Nodes)
	t := &NodeTime{NS: make([]float64, n), Samples: make([]float64, n), Runs: make([]float64, n),
		NSPerSample: ft.NSPerSample, TotalSamples: ft.ProfileSamples}
	used := map[string]bool{}
	for id, nd := range fn.CFG.Nodes {
		if nd.IsExit() {
			continue
		}
		for k, st := range ft.Stmts {
			if samePos(nd, k) {
				t.NS[id], t.Samples[id], t.Runs[id] = tf.Rewards["time"][k], st.Samples, st.Executions
				used[k] = true
			}
		}
	}
	for k := range ft.Stmts {
		if !used[k] {
			return nil, fmt.Errorf("%s names no statement of %s: the source changed since it was timed", k, fn.Name)
		}
	}
	return t, nil
}

// samePos reports whether key (file:line:col, file a path suffix) is node nd's position.
func samePos(nd *frontend.Node, key string) bool {
	i := strings.LastIndexByte(key, ':')
	j := strings.LastIndexByte(key[:max(i, 0)], ':')
	if i < 0 || j < 0 {
		return false
	}
	file, line, col := key[:j], key[j+1:i], key[i+1:]
	full := nd.Pos.Filename
	return strconv.Itoa(nd.Pos.Line) == line && strconv.Itoa(nd.Pos.Column) == col &&
		(full == file || strings.HasSuffix(full, "/"+file))
}

// Package runner executes a program instrumented by package timing once per
// configuration and repetition, and summarises region and end-to-end times
// per configuration, as ConfigCrusher measures its compressed configurations
// (Velez et al., ASE journal 2020).
//
// It owns building the instrumented binary (once, with -overlay), passing
// options, scheduling and caching runs, progress reporting and the
// adapters to package influence (Measurements) and package baselines
// (Oracle). It must not analyse or instrument code (packages taint, regions,
// timing do), choose configurations (package compress) or build models
// (package influence), and it never modifies the user's files.
//
// # Runs
//
// Setup.Build is the build command with the placeholder "BIN" for the
// output binary; the runner adds -overlay after "build" and runs it once in
// Setup.Dir. A configuration (compress.Config over Setup.Options.Options,
// indices into each option's Values) sets each option as its first site's
// sources.Setter says: a command-line flag (-A=true, placed before
// Setup.Args), an environment variable (NAME=value), or a key of a
// configuration file written for the run from Setup.ConfigTemplate; options
// without Values are never passed (the program's default, or whatever
// Setup.Args says). An option nothing says how to set is an error.
//
// Options.WarmUp runs of the first configuration come first (not recorded),
// then Options.Reps runs of every configuration in an order shuffled with
// Options.Seed, so drift in the machine does not line up with
// configurations. Each run gets a fresh timing directory (timing.EnvDir);
// its wall time is measured around the process. A run's record is cached in
// Options.CacheDir under a SHA-256 of the binary's content, the arguments,
// the environment options, the configuration and the repetition: a run
// interrupted half-way resumes without re-measuring what was done, and a
// rebuilt identical binary reuses results.
//
// # Models
//
// Measurements gives one influence.Measurement table per region (each run
// a measurement) plus the base region 0, so influence.LocalModel and
// influence.Global apply directly (Model does both). A region's time is
// its share of the wall time (Wall) or its CPU time summed over the
// goroutines it ran on (CPU); the two differ where regions run on several
// goroutines at once or wait. The base region is the run's wall time
// minus every other region's wall share: process start-up and the time no
// region ran. Numeric options get curves, categorical options (CategoricalOption)
// a term for each value but the first; the others are booleans, value
// index > 0 "on". Every option is passed to the program by its value,
// whatever its kind.
package runner

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/augur-perf/augur/options/compress"
	"github.com/augur-perf/augur/options/sources"
	"github.com/augur-perf/augur/options/timing"
)

// Setup says how to build and run the program.
type Setup struct {
	// Dir is where the build command and the program run.
	Dir string
	// Build is the build command, e.g. {"go", "build", "-o", "BIN",
	// "./examples/options"}; "BIN" is replaced by the binary's path.
	Build []string
	// Args are fixed arguments, after the option flags.
	Args []string
	// Env is added to the program's environment.
	Env []string
	// ConfigTemplate is the text of a configuration file for options set by a file key
	// (sources.Setter.Key): each run writes it with {{key}} replaced by the key's value, and
	// "CONFIG" in Args by the file's path. ConfigName gives the file's extension (config.yaml).
	ConfigTemplate string
	ConfigName     string
	Options        *sources.Set
	// Timing is the instrumented build (its overlay is used); nil runs the program as it is,
	// timed end to end only, as black-box baselines measure it.
	Timing *timing.Build
}

// Options control Run.
type Options struct {
	// Reps is the number of repetitions per configuration (default 5).
	Reps int
	// WarmUp runs precede the measurements (default 1; negative: none).
	WarmUp int
	Seed   uint64
	// CacheDir holds cached runs and binaries; "" disables the cache.
	CacheDir string
	// Progress receives a progress bar (nil: none).
	Progress io.Writer
	// Timeout bounds one run (0: none).
	Timeout time.Duration
}

// Stat summarises repetitions, in seconds.
type Stat struct {
	Mean float64 `json:"mean"`
	SD   float64 `json:"sd"`
	N    int     `json:"n"`
}

// RunRecord is one measured run.
type RunRecord struct {
	Rep    int   `json:"rep"`
	WallNs int64 `json:"wall_ns"`
	// CPUNs is the process's user and system CPU time.
	CPUNs  int64         `json:"cpu_ns"`
	Times  *timing.Times `json:"times"`
	Cached bool          `json:"-"`
}

// ConfigResult is everything measured for one configuration.
type ConfigResult struct {
	Config compress.Config `json:"config"`
	// Text is the configuration as Config.Format writes it.
	Text string `json:"text"`
	// Wall is the end-to-end time.
	Wall Stat `json:"wall"`
	// Regions are per region ID (0 = base); when the build has no base
	// region, 0 is wall time minus every region's self time.
	Regions map[int]Stat `json:"regions"`
	// CPU is the process's CPU time (user and system).
	CPU        Stat        `json:"cpu"`
	Runs       []RunRecord `json:"runs"`
	Concurrent bool        `json:"concurrent"`
	Goroutines int         `json:"goroutines"`
	Issues     []string    `json:"issues,omitempty"`
}

// Result is Run's answer.
type Result struct {
	// Options are the option names, in Setup.Options order (the index space
	// of every Config).
	Options []string `json:"options"`
	// Numeric holds the values of the numeric options (NumericOption), by name: their
	// configurations' value indices index these.
	Numeric map[string][]float64 `json:"numeric,omitempty"`
	// Categorical holds the values of the categorical options (CategoricalOption), by name, the
	// first the reference value their terms are coded against.
	Categorical map[string][]string `json:"categorical,omitempty"`
	Configs     []ConfigResult      `json:"configs"`
	// Concurrent is set when any run had regions open on two goroutines at
	// once, and Goroutines is the most goroutines with regions open at once.
	Concurrent bool `json:"concurrent"`
	Goroutines int  `json:"goroutines"`
	// Measured and Cached count runs.
	Measured int `json:"measured"`
	Cached   int `json:"cached"`
}

// binary is a built program.
type binary struct {
	path string
	hash string
	tmp  string
}

func build(ctx context.Context, s Setup, o Options) (*binary, error) {
	if len(s.Build) < 2 {
		return nil, errors.New("runner: Setup.Build must be a command such as go build -o BIN ./pkg")
	}
	tmp, err := os.MkdirTemp("", "augur-runner-")
	if err != nil {
		return nil, err
	}
	bin := filepath.Join(tmp, "prog")
	var args []string
	hasBin := false
	for i, a := range s.Build[1:] {
		if a == "BIN" {
			a, hasBin = bin, true
		}
		args = append(args, a)
		if i == 0 && a == "build" && s.Timing != nil {
			args = append(args, "-overlay", s.Timing.Overlay)
		}
	}
	if !hasBin {
		os.RemoveAll(tmp)
		return nil, errors.New(`runner: Setup.Build has no "BIN" placeholder for the output`)
	}
	cmd := exec.CommandContext(ctx, s.Build[0], args...)
	cmd.Dir = s.Dir
	if out, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("runner: %s: %v\n%s", strings.Join(cmd.Args, " "), err, out)
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	h := sha256.Sum256(data)
	return &binary{path: bin, hash: hex.EncodeToString(h[:]), tmp: tmp}, nil
}

// An inv is how one configuration is run: its arguments, its environment, and the
// configuration file written from Setup.ConfigTemplate for it ("" if none), whose path replaces
// "CONFIG" in the arguments when it runs.
type inv struct {
	args, env []string
	config    string
}

// invocation turns a configuration into arguments, environment and configuration file, each
// option set as its first site's Setter says.
func invocation(s Setup, c compress.Config) (inv, error) {
	var in inv
	if s.Options == nil {
		in.args = append([]string(nil), s.Args...)
		return in, nil
	}
	keys := map[string]string{}
	for i, opt := range s.Options.Options {
		v := 0
		if i < len(c) {
			v = c[i]
		}
		if len(opt.Values) == 0 {
			if v != 0 {
				return inv{}, fmt.Errorf("runner: option %s has no values but the configuration sets index %d", opt.Name, v)
			}
			continue
		}
		if v < 0 || v >= len(opt.Values) {
			return inv{}, fmt.Errorf("runner: option %s: value index %d out of range", opt.Name, v)
		}
		val := opt.Values[v]
		site := opt.Sites[0]
		switch set := site.Set; {
		case set.Flag != "":
			in.args = append(in.args, set.Flag+"="+val)
		case set.Env != "":
			in.env = append(in.env, set.Env+"="+val)
		case set.Key != "":
			if s.ConfigTemplate == "" {
				return inv{}, fmt.Errorf("%s: runner: option %s is the configuration file key %q: give the file's template (ConfigTemplate, with {{%s}} where its value goes)", site.Position, opt.Name, set.Key, set.Key)
			}
			keys[set.Key] = val
		default:
			return inv{}, fmt.Errorf("%s: runner: option %s is loaded by %q, and nothing says how to set it: declare it with @env:NAME, @flag:-name or @key:name", site.Position, opt.Name, site.Callee)
		}
	}
	if s.ConfigTemplate != "" {
		in.config = fillTemplate(s.ConfigTemplate, keys)
	}
	in.args = append(in.args, s.Args...)
	return in, nil
}

// fillTemplate replaces each {{key}} of the template by the key's value; keys the configuration
// does not set are left to the template's own text.
func fillTemplate(t string, keys map[string]string) string {
	var b strings.Builder
	for {
		i := strings.Index(t, "{{")
		j := strings.Index(t[max(i, 0):], "}}")
		if i < 0 || j < 0 {
			b.WriteString(t)
			return b.String()
		}
		key := strings.TrimSpace(t[i+2 : i+j])
		b.WriteString(t[:i])
		if v, ok := keys[key]; ok {
			b.WriteString(v)
		} else {
			b.WriteString(t[i : i+j+2])
		}
		t = t[i+j+2:]
	}
}

func names(s Setup) []string {
	if s.Options == nil {
		return nil
	}
	return s.Options.Names()
}

func values(s Setup) [][]string {
	var v [][]string
	if s.Options != nil {
		for _, o := range s.Options.Options {
			v = append(v, o.Values)
		}
	}
	return v
}

func cacheKey(b *binary, in inv, c compress.Config, rep int) string {
	h := sha256.New()
	fmt.Fprintf(h, "bin %s\nargs %q\nenv %q\nfile %q\nconfig %v\nrep %d\n", b.hash, in.args, in.env, in.config, []int(c), rep)
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// runOnce executes the program and collects its times.
func runOnce(ctx context.Context, s Setup, b *binary, in inv, o Options) (*RunRecord, error) {
	tdir, err := os.MkdirTemp("", "augur-timing-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tdir)
	args, env := in.args, in.env
	if in.config != "" {
		path := filepath.Join(tdir, "config"+filepath.Ext(s.ConfigName))
		if err := os.WriteFile(path, []byte(in.config), 0o644); err != nil {
			return nil, err
		}
		args = slices.Clone(args)
		for i, a := range args {
			args[i] = strings.ReplaceAll(a, "CONFIG", path)
		}
	}
	if o.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.Timeout)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, b.path, args...)
	cmd.Dir = s.Dir
	cmd.Env = append(append(append(os.Environ(), s.Env...), env...), timing.EnvDir+"="+tdir)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)
	if err != nil {
		msg := stderr.String()
		if len(msg) > 2000 {
			msg = msg[len(msg)-2000:]
		}
		return nil, fmt.Errorf("runner: %s %s: %v\n%s", b.path, strings.Join(args, " "), err, msg)
	}
	rec := &RunRecord{WallNs: wall.Nanoseconds(), CPUNs: (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Nanoseconds()}
	if s.Timing != nil {
		if rec.Times, err = s.Timing.Collect(tdir); err != nil {
			return nil, err
		}
	}
	return rec, nil
}

type task struct{ ci, rep int }

// Run measures every configuration Reps times; see the package doc.
func Run(ctx context.Context, s Setup, configs []compress.Config, o Options) (*Result, error) {
	if o.Reps <= 0 {
		o.Reps = 5
	}
	if o.WarmUp == 0 {
		o.WarmUp = 1
	}
	b, err := build(ctx, s, o)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(b.tmp)
	res := &Result{Options: names(s)}
	if s.Options != nil {
		res.Numeric, res.Categorical = Kinds(s.Options)
	}
	invs := make([]inv, len(configs))
	for i, c := range configs {
		in, err := invocation(s, c)
		if err != nil {
			return nil, err
		}
		invs[i] = in
		res.Configs = append(res.Configs, ConfigResult{Config: c, Text: c.Format(names(s), values(s)), Runs: make([]RunRecord, o.Reps)})
	}
	var tasks []task
	for ci := range configs {
		for r := 0; r < o.Reps; r++ {
			tasks = append(tasks, task{ci, r})
		}
	}
	rng := rand.New(rand.NewPCG(o.Seed, o.Seed^0x9e3779b97f4a7c15))
	rng.Shuffle(len(tasks), func(i, j int) { tasks[i], tasks[j] = tasks[j], tasks[i] })

	// Cached runs first, so the warm-up is skipped when nothing is left.
	var todo []task
	for _, t := range tasks {
		in := invs[t.ci]
		if rec := loadCache(o.CacheDir, cacheKey(b, in, configs[t.ci], t.rep)); rec != nil {
			rec.Rep, rec.Cached = t.rep, true
			res.Configs[t.ci].Runs[t.rep] = *rec
			res.Cached++
			continue
		}
		todo = append(todo, t)
	}
	bar := newBar(o.Progress, len(tasks))
	bar.set(res.Cached)
	if len(todo) > 0 && len(configs) > 0 {
		for w := 0; w < o.WarmUp; w++ {
			if _, err := runOnce(ctx, s, b, invs[0], o); err != nil {
				return nil, err
			}
		}
	}
	for _, t := range todo {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		in := invs[t.ci]
		rec, err := runOnce(ctx, s, b, in, o)
		if err != nil {
			return nil, err
		}
		rec.Rep = t.rep
		if err := storeCache(o.CacheDir, cacheKey(b, in, configs[t.ci], t.rep), rec); err != nil {
			return nil, err
		}
		res.Configs[t.ci].Runs[t.rep] = *rec
		res.Measured++
		bar.set(res.Cached + res.Measured)
	}
	bar.done()
	for i := range res.Configs {
		summarise(&res.Configs[i], s.Timing)
		res.Concurrent = res.Concurrent || res.Configs[i].Concurrent
		res.Goroutines = max(res.Goroutines, res.Configs[i].Goroutines)
	}
	return res, nil
}

func summarise(cr *ConfigResult, tb *timing.Build) {
	var wall, cpu []float64
	per := map[int][]float64{}
	seen := map[string]bool{}
	for _, r := range cr.Runs {
		wall = append(wall, float64(r.WallNs)/1e9)
		cpu = append(cpu, float64(r.CPUNs)/1e9)
		if tb == nil || r.Times == nil {
			continue // the plain program: wall time only
		}
		var sum int64
		for _, rt := range r.Times.Regions {
			if rt.ID == 0 && !tb.Base {
				continue
			}
			per[rt.ID] = append(per[rt.ID], float64(rt.SelfNs)/1e9)
			if rt.ID != 0 {
				sum += rt.SelfNs
			}
		}
		if !tb.Base {
			per[0] = append(per[0], float64(r.WallNs-sum)/1e9)
		}
		if r.Times.Concurrent {
			cr.Concurrent = true
		}
		cr.Goroutines = max(cr.Goroutines, r.Times.Goroutines)
		for _, is := range r.Times.Issues {
			if !seen[is] {
				seen[is] = true
				cr.Issues = append(cr.Issues, is)
			}
		}
	}
	cr.Wall, cr.CPU = stat(wall), stat(cpu)
	cr.Regions = map[int]Stat{}
	for id, xs := range per {
		cr.Regions[id] = stat(xs)
	}
}

func stat(xs []float64) Stat {
	if len(xs) == 0 {
		return Stat{}
	}
	var m float64
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	var v float64
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	sd := 0.0
	if len(xs) > 1 {
		sd = math.Sqrt(v / float64(len(xs)-1))
	}
	return Stat{Mean: m, SD: sd, N: len(xs)}
}

func loadCache(dir, key string) *RunRecord {
	if dir == "" {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(dir, key[:2], key+".json"))
	if err != nil {
		return nil
	}
	var r RunRecord
	if json.Unmarshal(data, &r) != nil || r.Times == nil {
		return nil
	}
	return &r
}

// storeCache writes through a temporary file and a rename, so an
// interrupted run never leaves a truncated record behind.
func storeCache(dir, key string, r *RunRecord) error {
	if dir == "" {
		return nil
	}
	sub := filepath.Join(dir, key[:2])
	if err := os.MkdirAll(sub, 0o755); err != nil {
		return err
	}
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	tmp := filepath.Join(sub, key+".tmp")
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(sub, key+".json"))
}

// SortedRegionIDs lists the region IDs measured, ascending.
func (r *Result) SortedRegionIDs() []int {
	set := map[int]bool{}
	for _, c := range r.Configs {
		for id := range c.Regions {
			set[id] = true
		}
	}
	var ids []int
	for id := range set {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	return ids
}

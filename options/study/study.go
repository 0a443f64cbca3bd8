// Package study is ConfigCrusher's pipeline as one Go API, the way `augur options` drives it:
// analyse a program's options (Analyse), derive its configuration space and compress it
// (NewSpace, Space.Compress), measure the compressed configurations with region timing and
// build the performance-influence model (Measure), predict a configuration's time from a saved
// model (ReadModel, ModelFile.Predict), and compare the white-box model with black-box
// baselines on held-out configurations (Evaluate). Each subcommand of augur options is one call
// of a request holding what its flags say: Analyse, Regions, Compressed, PredictFile,
// MeasureProgram and EvaluateProgram.
//
// It owns the glue between the options packages and the model file format
// (augur-options-model/1). It must not print (progress goes to the writer it is given) or
// import anything outside the options and source groups, and it never modifies the user's
// files: builds go through overlays into temporary directories.
//
// Its size (about 1.7k lines) is one pipeline of six steps, each a file: the space and its
// compression (space.go), settings on the command line or in the environment (setting.go),
// measuring (measure.go, program.go), the model file (model.go) and the evaluation against
// black-box baselines (evaluate.go).
package study

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/augur-perf/augur/options/regions"
	"github.com/augur-perf/augur/options/sources"
	"github.com/augur-perf/augur/options/taint"
)

// Request says what to analyse: the packages, where the module is, and what the user declared
// about the program's options.
type Request struct {
	// Dir is the module directory the patterns are resolved in ("" is the current directory).
	Dir string
	// Patterns are package patterns (./cmd/server, ./...).
	Patterns []string
	// Deps analyses the module's dependencies from source too, so that decisions libraries
	// take on the options are found.
	Deps bool
	// Decls are the declared option sources, fields, values and fixed options.
	Decls sources.Decls
	// Sources, Fields, Values and Fixed are more declarations, in the command line's syntax
	// (ParseDecls: --source, --source-field, --values, --fixed).
	Sources, Fields, Values, Fixed []string
	// Log receives the analysis's warnings (nil: discarded).
	Log io.Writer
}

// CategoricalMarker, after an option's name in a --values specification ("level:cat=1,2,3,4"),
// declares its values an unordered set of categories even when they are numbers: a mode, an
// algorithm, numbered levels that are not a quantity. Values that are not all numbers are
// categories without it when there are three or more; two values are two levels.
const CategoricalMarker = ":cat"

// ParseDecls reads declarations in the command line's syntax: sources
// ("import/path.Func[=Name][@env:NAME]"), fields ("import/path.Type.Field[=Name]"), values
// ("name=v1,v2", or "name:cat=v1,v2,v3" for a categorical option: CategoricalMarker) and fixed
// option names.
func ParseDecls(srcs, fields, values, fixed []string) (sources.Decls, error) {
	var d sources.Decls
	for _, s := range srcs {
		src, err := sources.ParseSource(s)
		if err != nil {
			return d, &sources.DeclError{Msg: fmt.Sprintf("--source %q: %v", s, err)}
		}
		d.Sources = append(d.Sources, src)
	}
	for _, s := range fields {
		f, err := sources.ParseField(s)
		if err != nil {
			return d, &sources.DeclError{Msg: fmt.Sprintf("--source-field %q: %v", s, err)}
		}
		d.Fields = append(d.Fields, f)
	}
	for _, s := range values {
		name, vals, err := sources.ParseValues(s)
		if err != nil {
			return d, &sources.DeclError{Msg: fmt.Sprintf("--values %q: %v", s, err)}
		}
		base, categorical := strings.CutSuffix(name, CategoricalMarker)
		if categorical {
			if name = strings.TrimSpace(base); name == "" {
				return d, &sources.DeclError{Msg: fmt.Sprintf("--values %q: want NAME%s=v1,v2,...", s, CategoricalMarker)}
			}
		}
		if d.Values == nil {
			d.Values = map[string][]string{}
		}
		d.Values[name] = vals
		// A later --values for the same option replaces an earlier one, marker included.
		d.Categorical = slices.DeleteFunc(d.Categorical, func(n string) bool { return n == name })
		if categorical {
			d.Categorical = append(d.Categorical, name)
		}
	}
	d.Fixed = fixed
	return d, nil
}

// parseDecls adds the declarations given in the command line's syntax to Decls (a copy).
func (req *Request) parseDecls() error {
	more, err := ParseDecls(req.Sources, req.Fields, req.Values, req.Fixed)
	if err != nil {
		return err
	}
	d := &req.Decls
	d.Sources = append(slices.Clip(d.Sources), more.Sources...)
	d.Fields = append(slices.Clip(d.Fields), more.Fields...)
	d.Fixed = append(slices.Clip(d.Fixed), more.Fixed...)
	d.Categorical = append(slices.Clip(d.Categorical), more.Categorical...)
	if len(more.Values) > 0 {
		values := maps.Clone(d.Values)
		if values == nil {
			values = map[string][]string{}
		}
		maps.Copy(values, more.Values)
		d.Values = values
	}
	req.Sources, req.Fields, req.Values, req.Fixed = nil, nil, nil, nil
	return nil
}

// Analyse loads the packages and runs the taint analysis; warnings go to Log. A program in
// which no option is found, and values for an option the program does not have, are declaration errors
// (*sources.DeclError): the analysis would otherwise answer about nothing.
func Analyse(req Request) (*taint.Result, error) {
	if err := req.parseDecls(); err != nil {
		return nil, err
	}
	if len(req.Patterns) == 0 {
		return nil, &sources.DeclError{Msg: "no packages given (e.g. ./examples/options)"}
	}
	loaded, err := taint.Load(taint.Config{Dir: req.Dir, Deps: req.Deps}, req.Patterns...)
	if err != nil {
		return nil, err
	}
	res, err := taint.Analyze(loaded, req.Decls)
	if err != nil {
		return nil, err
	}
	for name := range req.Decls.Values {
		if res.Options.Lookup(name) == nil {
			return nil, &sources.DeclError{Msg: fmt.Sprintf("--values %s: no option %q was found (options: %s)", name, name, strings.Join(res.Options.Names(), ", "))}
		}
	}
	for _, name := range req.Decls.Categorical {
		if o := res.Options.Lookup(name); o != nil && o.IsBool() {
			return nil, &sources.DeclError{Msg: fmt.Sprintf("--values %s%s: %s is boolean; its two values are already two levels", name, CategoricalMarker, name)}
		}
	}
	if req.Log != nil {
		for _, w := range res.Options.Warnings {
			fmt.Fprintf(req.Log, "warning: %v\n", w)
		}
		if len(res.Cgo) > 0 {
			fmt.Fprintf(req.Log, "note: the decisions of %s are left out: a file that imports \"C\" is compiled from cgo's output, which augur cannot rewrite to time its regions\n", strings.Join(res.Cgo, ", "))
		}
	}
	if len(res.Options.Options) == 0 {
		return nil, &sources.DeclError{Msg: fmt.Sprintf("no configuration option found in %s: augur recognises the flag package, pflag/cobra, urfave/cli, viper, os.Getenv and os.LookupEnv, env-struct tags and configuration decoders; declare others with --source or --source-field", strings.Join(req.Patterns, " "))}
	}
	return res, nil
}

// Regions analyses and finds the code regions before and after ConfigCrusher's optimisation.
func Regions(req Request) (res *taint.Result, before, after []regions.Region, err error) {
	if res, err = Analyse(req); err != nil {
		return nil, nil, nil, err
	}
	before, after, err = regions.Find(res)
	return res, before, after, err
}

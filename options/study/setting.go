package study

import (
	"fmt"
	"slices"
	"strings"

	"github.com/augur-perf/augur/options/runner"
)

// InputError is a configuration or a specification the caller got wrong (an unknown option,
// a numeric option without its value); a command line reports it as a usage error.
type InputError struct{ msg string }

func (e *InputError) Error() string { return e.msg }

// UsageError says that the caller, not the program analysed, is at fault.
func (e *InputError) UsageError() bool { return true }

func inputf(format string, a ...any) error { return &InputError{fmt.Sprintf(format, a...)} }

// ParseSetting reads a configuration to predict: config lists the boolean options that are on
// ("A,C"), and each of args is NAME (on), NAME=0|1 (also true/false, on/off, yes/no),
// NUMERIC=VALUE (a number or a Go duration) for a numeric option, or CATEGORICAL=VALUE, one of
// the values measured, for a categorical option (config may hold those too). Boolean options
// not given are off; numeric and categorical ones need their values. A categorical option's
// value comes back in on as the key NAME=VALUE (see PredictAt).
func (mf *ModelFile) ParseSetting(config string, args []string) (on map[string]bool, num map[string]float64, err error) {
	on, num = map[string]bool{}, map[string]float64{}
	cat := map[string]string{}
	level := func(a, name, val string) error {
		vs := mf.Levels(name)
		if !slices.Contains(vs, val) {
			return inputf("%q: %s is categorical, measured at %s only: give one of them (the time of a value never measured is not inferred from the others')", a, name, strings.Join(vs, ", "))
		}
		if prev, ok := cat[name]; ok && prev != val {
			return inputf("%q: %s is already %s", a, name, prev)
		}
		cat[name] = val
		on[name+"="+val] = true
		return nil
	}
	for _, name := range strings.Split(config, ",") {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		if opt, val, ok := strings.Cut(name, "="); ok && mf.IsCategorical(opt) {
			if err := level("--config "+name, opt, val); err != nil {
				return nil, nil, err
			}
			continue
		}
		if err := mf.Check(name); err != nil {
			return nil, nil, inputf("--config: %v", err)
		}
		on[name] = true
	}
	for _, a := range args {
		name, val, hasVal := strings.Cut(a, "=")
		if mf.IsNumeric(name) {
			xs, ok := runner.NumericValues([]string{val, val, val})
			if !hasVal || !ok {
				return nil, nil, inputf("%q: %s is numeric: give its value, %s=NUMBER or a duration", a, name, name)
			}
			num[name] = xs[0]
			continue
		}
		if mf.IsCategorical(name) {
			if !hasVal {
				return nil, nil, inputf("%q: %s is categorical: give its value, %s=VALUE (one of %s)", a, name, name, strings.Join(mf.Levels(name), ", "))
			}
			if err := level(a, name, val); err != nil {
				return nil, nil, err
			}
			continue
		}
		v := true
		if hasVal {
			if v, err = parseOnOff(val); err != nil {
				return nil, nil, inputf("%q: %v", a, err)
			}
		}
		if err := mf.Check(name); err != nil {
			return nil, nil, inputf("%q: %v", a, err)
		}
		on[name] = v
	}
	return on, num, nil
}

func parseOnOff(s string) (bool, error) {
	switch strings.ToLower(s) {
	case "1", "true", "on", "yes":
		return true, nil
	case "0", "false", "off", "no":
		return false, nil
	}
	return false, fmt.Errorf("want 0 or 1 (or true/false), got %q", s)
}

// ParseHeldOut reads NAME=v1,v2,... specifications of held-out numeric values
// (EvaluateValues).
func ParseHeldOut(specs []string) (map[string][]string, error) {
	held := map[string][]string{}
	for _, spec := range specs {
		name, vals, ok := strings.Cut(spec, "=")
		if !ok || name == "" || vals == "" {
			return nil, inputf("--held-out-values %q: want NAME=v1,v2,...", spec)
		}
		held[name] = strings.Split(vals, ",")
	}
	return held, nil
}

package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// PRISM's public regression tests (the prism-tests repository) are the reference for
// PRISM-compatible checking. CI cannot reach them: bring them here (git clone, or the search
// tool's fetch) and point AUGUR_PRISM_TESTS at the checkout. The test runs every DTMC model in
// the PRISM language with its properties files, compares each result with the file's
// "// RESULT:" annotation, prints the agree / disagree / unsupported counts, and compares each
// outcome with testdata/prism-tests.expected (what this code gave when it was last recorded with
// -conformance.update): an outcome that got worse fails.
var conformanceUpdate = flag.Bool("conformance.update", false, "record this run's outcomes in testdata/prism-tests.expected")

func TestPRISMConformance(t *testing.T) {
	root := os.Getenv("AUGUR_PRISM_TESTS")
	if root == "" {
		t.Skip("AUGUR_PRISM_TESTS is not set: point it at a checkout of PRISM's prism-tests to run the conformance harness")
	}
	var models []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".pm") || strings.HasSuffix(p, ".prism")) {
			models = append(models, p)
		}
		return nil
	})
	sort.Strings(models)
	outcomes := map[string]string{}
	counts := map[string]int{}
	for _, model := range models {
		src, _ := os.ReadFile(model)
		if !isDTMC(string(src)) {
			continue
		}
		props, _ := filepath.Glob(model + "*.props")
		for _, props := range props {
			for key, outcome := range conformance(t, root, model, props) {
				// Messages name files relative to the checkout, wherever it is.
				outcome = strings.ReplaceAll(outcome, root+string(filepath.Separator), "")
				outcomes[key] = outcome
				counts[strings.SplitN(outcome, ":", 2)[0]]++
			}
		}
	}
	t.Logf("PRISM regression tests, DTMC models in the PRISM language: %d agree, %d disagree, %d unsupported, %d without an expected value",
		counts["agree"], counts["disagree"], counts["unsupported"], counts["unknown"])
	path := filepath.Join("testdata", "prism-tests.expected")
	if *conformanceUpdate {
		var keys []string
		for k := range outcomes {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var b strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&b, "%s\t%s\n", k, outcomes[k])
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (record with -conformance.update)", err)
	}
	rank := map[string]int{"agree": 3, "unknown": 2, "unsupported": 1, "disagree": 0}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		key, want, _ := strings.Cut(line, "\t")
		got, ok := outcomes[key]
		if !ok {
			continue
		}
		w, g := strings.SplitN(want, ":", 2)[0], strings.SplitN(got, ":", 2)[0]
		if rank[g] < rank[w] {
			t.Errorf("%s: was %s, now %s", key, want, got)
		}
	}
}

func isDTMC(src string) bool {
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "//") {
			continue
		}
		return line == "dtmc" || line == "probabilistic"
	}
	return false
}

// conformance checks one properties file and returns each property's outcome, keyed by
// file:property: agree, disagree: got X want Y, unsupported: why, or unknown (no expected value).
func conformance(t *testing.T, root, model, props string) map[string]string {
	rel, _ := filepath.Rel(root, props)
	src, _ := os.ReadFile(props)
	text := string(src)
	args := []string{"check", model, "--props", props, "--json"}
	// Each line of the model's and the properties' .args files is one PRISM invocation; the
	// first that gives constants without asking for PRISM's parametric engine says which
	// constants to use (the others differ in engine or in what they export).
	var lines []string
	for _, f := range []string{model + ".args", props + ".args"} {
		if extra, err := os.ReadFile(f); err == nil {
			for _, l := range strings.Split(string(extra), "\n") {
				if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
					lines = append(lines, l)
				}
			}
		}
	}
	given := map[string]string{} // the constants given one value: RESULT (k=v) lines name them too
	for _, l := range lines {
		if slices.Contains(strings.Fields(l), "-noprobchecks") {
			args = append(args, "--no-prob-checks")
			break
		}
	}
	for _, l := range lines {
		fields := strings.Fields(l)
		if !slices.Contains(fields, "-const") || slices.Contains(fields, "-param") {
			continue
		}
		for i := 0; i < len(fields); i++ {
			if fields[i] == "-const" && i+1 < len(fields) {
				args = append(args, "--const", fields[i+1])
				for _, def := range strings.Split(fields[i+1], ",") {
					if k, v, ok := strings.Cut(def, "="); ok && !strings.Contains(v, ":") {
						given[k] = v
					}
				}
				i++
			}
		}
		break
	}
	var out, errb bytes.Buffer
	run(args, &out, &errb)
	outcomes := map[string]string{}
	var res struct {
		Results []struct {
			Property  string            `json:"property"`
			Constants map[string]string `json:"constants"`
			Value     json.RawMessage   `json:"value"`
			Holds     *bool             `json:"holds"`
			Error     string            `json:"error"`
		} `json:"results"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		msg := strings.TrimSpace(errb.String())
		if i := strings.IndexByte(msg, '\n'); i > 0 {
			msg = msg[:i]
		}
		outcomes[rel+"\t(model)"] = "unsupported: " + msg
		return outcomes
	}
	at := 0
	before, prev := "", ""
	for _, r := range res.Results {
		key := rel + "\t" + r.Property
		point := constKey(r.Constants)
		if point != "" {
			key += "\t" + point
		}
		// The runs of one property's experiment share the RESULT lines above it.
		if point == "" || r.Property != prev {
			before = ""
			if i := strings.Index(text[at:], r.Property); i >= 0 {
				before = text[at : at+i]
				at += i + len(r.Property)
			}
		}
		prev = r.Property
		values := maps.Clone(given)
		maps.Copy(values, r.Constants)
		want := expectedResult(before, values)
		switch {
		case want == "" || want == "?":
			outcomes[key] = "unknown"
		case strings.HasPrefix(want, "Error"):
			if r.Error != "" {
				outcomes[key] = "agree"
			} else {
				outcomes[key] = "disagree: no error, want " + want
			}
		case r.Error != "":
			outcomes[key] = "unsupported: " + firstLine(r.Error)
		default:
			outcomes[key] = compareResult(r.Value, r.Holds, want)
		}
	}
	return outcomes
}

// constKey renders an experiment's point as PRISM's RESULT annotations name it: k=v pairs sorted
// by name, comma-separated ("" for no constants).
func constKey(consts map[string]string) string {
	var parts []string
	for k, v := range consts {
		parts = append(parts, k+"="+v)
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// expectedResult finds, in the comment lines above a property, its expected value: the last
// "RESULT (k=v,...): v" whose constants all have those values in the run, else the last plain
// "RESULT: v" (which PRISM applies to every run).
func expectedResult(before string, values map[string]string) string {
	want, plain := "", ""
	for _, line := range strings.Split(before, "\n") {
		j := strings.Index(line, "RESULT")
		if j < 0 {
			continue
		}
		rest := strings.TrimSpace(line[j+len("RESULT"):])
		if strings.HasPrefix(rest, "(") {
			end := strings.Index(rest, ")")
			if end < 0 {
				continue
			}
			match := true
			for _, kv := range strings.Split(rest[1:end], ",") {
				k, v, _ := strings.Cut(strings.TrimSpace(kv), "=")
				got, ok := values[strings.TrimSpace(k)]
				match = match && ok && sameConst(got, strings.TrimSpace(v))
			}
			if match {
				if c := strings.Index(rest[end:], ":"); c >= 0 {
					want = strings.TrimSpace(rest[end+c+1:])
				}
			}
			continue
		}
		if c := strings.Index(rest, ":"); c >= 0 {
			plain = strings.TrimSpace(rest[c+1:])
		}
	}
	if want == "" {
		want = plain
	}
	// What follows a ';' is a comment ("1/3 ; for concrete constants").
	want, _, _ = strings.Cut(want, ";")
	return strings.TrimSpace(want)
}

// sameConst compares constant values as numbers where both are (0.5 and .5), else as text.
func sameConst(a, b string) bool {
	x, errA := strconv.ParseFloat(a, 64)
	y, errB := strconv.ParseFloat(b, 64)
	if errA == nil && errB == nil {
		return x == y
	}
	return a == b
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// compareResult compares a value with PRISM's expected text: true/false, Infinity, a decimal
// or a fraction, to a relative 1e-5 (PRISM's test mode's own tolerance).
func compareResult(value json.RawMessage, holds *bool, want string) string {
	got := string(value)
	if holds != nil {
		got = strconv.FormatBool(*holds)
	}
	switch want {
	case "true", "false":
		if got == want {
			return "agree"
		}
		return "disagree: got " + got + ", want " + want
	}
	w, ok := new(big.Rat).SetString(strings.TrimPrefix(want, "~"))
	var wf float64
	if ok {
		wf, _ = w.Float64()
	} else if want == "Infinity" {
		wf = math.Inf(1)
	} else {
		return "unknown"
	}
	var gf float64
	if err := json.Unmarshal(value, &gf); err != nil {
		var s string
		if json.Unmarshal(value, &s) == nil && (s == "Infinity" || s == "+Inf") {
			gf = math.Inf(1)
		} else {
			return "disagree: got " + got + ", want " + want
		}
	}
	if gf == wf || math.Abs(gf-wf) <= 1e-5*math.Max(math.Abs(wf), 1e-10) {
		return "agree"
	}
	return fmt.Sprintf("disagree: got %v, want %s", gf, want)
}

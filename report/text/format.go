// Package text prints augur's results the way the augur command shows them: the text reports
// and tables of each subcommand, and the JSON shapes of their --json output. A library user
// who has a result (a model check, a prediction, an options model, a field report) gets the
// same output as the command line from it, without copying the command's code.
//
// It reads the results of every library group and must not import cmd; no library group may
// import it (printing consumes analyses, never feeds them). It computes nothing a result does
// not already hold but the arrangement (order, truncation, shares of a total).
//
// Its size (about 1.6k lines) is one output per subcommand of augur — check, param, analyze and
// its ranking, validate, fit, options, field — each with its text, its JSON shape and its
// either-format Output function (output.go); they share only the number formats of this file.
package text

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
)

// Float prints a value with every digit it needs to be read back, +Inf as "Infinity" (PRISM's
// spelling).
func Float(v float64) string {
	if math.IsInf(v, 1) {
		return "Infinity"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// Num prints a value with five significant digits, and more for large values so that they keep
// two decimals (33590104.08, not 3.35901e+07): enough to compare scenarios, without the noise
// of a measured ratio's last digits (0.7, not 0.6999999). JSON output has every digit.
func Num(v float64) string {
	prec := 5
	if a := math.Abs(v); a >= 1e5 && !math.IsInf(a, 0) {
		prec = int(math.Floor(math.Log10(a))) + 3
	}
	return strconv.FormatFloat(v, 'g', min(prec, 17), 64)
}

// Num2 prints an error bar with two significant digits.
func Num2(v float64) string { return strconv.FormatFloat(v, 'g', 2, 64) }

// Plural counts a noun: "1 state", "2 states".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// Number is a float64 in JSON with every digit, +Inf and NaN as strings ("Infinity"), which
// JSON has no number for.
type Number float64

// MarshalJSON writes the number, or its name when JSON has no number for it.
func (n Number) MarshalJSON() ([]byte, error) {
	if math.IsInf(float64(n), 0) || math.IsNaN(float64(n)) {
		return json.Marshal(Float(float64(n)))
	}
	return []byte(strconv.FormatFloat(float64(n), 'g', -1, 64)), nil
}

// Numbers converts a slice (nil stays nil).
func Numbers(v []float64) []Number {
	if v == nil {
		return nil
	}
	out := make([]Number, len(v))
	for i, x := range v {
		out[i] = Number(x)
	}
	return out
}

func ptr(v float64) *Number {
	n := Number(v)
	return &n
}

// JSON writes v indented by two spaces, as every --json output is.
func JSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

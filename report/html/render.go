package html

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

//go:embed page.tmpl
var pageText string

//go:embed style.css
var styleText string

var page = template.Must(template.New("page").Funcs(template.FuncMap{
	// The stylesheet and the charts are this package's own text, trusted as such; every string
	// from the analysis inside a chart went through esc.
	"css":   func() template.CSS { return template.CSS(styleText) },
	"graph": func(g *Graph) template.HTML { return template.HTML(graphSVG(g)) },
	"bars": func(i int, p Property, scenarios []string) template.HTML {
		return template.HTML(barChart(i, p, scenarios))
	},
	"hist":    func(i int, d Distribution) template.HTML { return template.HTML(histogram(i, d)) },
	"ranking": func(r *Ranking) template.HTML { return template.HTML(rankingChart(r, rankingRows)) },
	"terms":   func(m *OptionsModel) template.HTML { return template.HTML(termsChart(m)) },
	"sites":   func(r *FieldReport) template.HTML { return template.HTML(sitesChart(r)) },
	"law":     func(i int, l FitLaw) template.HTML { return template.HTML(lawChart(i, l)) },
	"num":     num,
	"barLegend": func(p Property) string {
		var seen []string
		for _, c := range p.Cells {
			for _, e := range c.Bars {
				if !slices.Contains(seen, e.Label) {
					seen = append(seen, e.Label)
				}
			}
		}
		return strings.Join(seen, "; ")
	},
	"pct": func(v float64) string { return strconv.FormatFloat(100*v, 'f', 1, 64) + "%" },
	"levels": func() []int {
		out := make([]int, Levels+1)
		for i := range out {
			out[i] = i
		}
		return out
	},
}).Parse(pageText))

// rankingRows bounds the functions of a ranking's chart; its table lists them all.
const rankingRows = 40

// Write renders the report as one HTML page.
func Write(w io.Writer, r *Report) error {
	shown := 0
	for _, set := range []bool{r.Function != nil, r.Ranking != nil, r.Options != nil, r.Field != nil, r.Fit != nil} {
		if set {
			shown++
		}
	}
	if shown != 1 {
		return fmt.Errorf("report: a report shows one function's analysis, a ranking, an options model, a field report or fitted laws")
	}
	return page.Execute(w, r)
}

// WriteFile renders the report into the file at path.
func WriteFile(path string, r *Report) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := Write(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Target is where a report goes, as --html and --open say: a file (none: no report), and
// whether to open it in the desktop's browser once written.
type Target struct {
	Path string
	Open bool
}

// TargetError is a Target that asks for the impossible (Open without a Path): the caller's
// mistake, a usage error.
type TargetError struct{ msg string }

func (e *TargetError) Error() string { return e.msg }

// UsageError says that the caller is at fault.
func (e *TargetError) UsageError() bool { return true }

// Check refuses Open without a Path.
func (t Target) Check() error {
	if t.Open && t.Path == "" {
		return &TargetError{"--open opens the --html report: give --html FILE"}
	}
	return nil
}

// Show builds the report, when there is a Path (a large one costs to build), writes it there
// (WriteFile) and says so on log; with Open it shows the file in the browser too (Open), where a
// browser that cannot be started is a warning on log, not a failure: the report is written.
func (t Target) Show(build func() (*Report, error), log io.Writer) error {
	if t.Path == "" {
		return nil
	}
	r, err := build()
	if err != nil {
		return err
	}
	if err := WriteFile(t.Path, r); err != nil {
		return fmt.Errorf("--html: %v", err)
	}
	fmt.Fprintf(log, "wrote %s\n", t.Path)
	if t.Open {
		if err := Open(t.Path); err != nil {
			fmt.Fprintf(log, "warning: %v\n", err)
		}
	}
	return nil
}

// Open shows the file at path in the desktop's browser (xdg-open, open or the Windows shell),
// without waiting for it.
func Open(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", abs)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", abs)
	default:
		cmd = exec.Command("xdg-open", abs)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("opening %s: %v", path, err)
	}
	// The opener hands the file to the browser and exits; reap it in the background.
	go cmd.Wait()
	return nil
}

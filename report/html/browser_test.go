package html

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// browser finds a Chromium or Chrome binary: Debian's chromium package first (.ci/run installs
// it), then whatever the PATH has.
func browser() string {
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// pageFacts is what the page says about itself once a real browser has laid it out.
type pageFacts struct {
	Rows    int   `json:"rows"`
	Lines   []int `json:"lines"`
	Hottest []struct {
		Line  int    `json:"line"`
		Class string `json:"class"`
		Fill  string `json:"fill"`
	} `json:"hottest"`
	// Other is the background of every other line of the heat map.
	Other     []string `json:"other"`
	Hot9      string   `json:"hot9"`
	Nodes     int      `json:"nodes"`
	NodeBoxes int      `json:"nodeBoxes"`
	Edges     int      `json:"edges"`
	Charts    []struct {
		Property  string   `json:"property"`
		Scenarios []string `json:"scenarios"`
		Heights   []float64
	} `json:"charts"`
	Dist    int     `json:"dist"`
	CDF     float64 `json:"cdf"`
	Ranking int     `json:"ranking"`
	Terms   int     `json:"terms"`
	TermRow int     `json:"termRows"`
	Units   int     `json:"units"`
	Sites   int     `json:"sites"`
	Points  int     `json:"points"`
	Curve   float64 `json:"curve"`
}

const factsJS = `(() => {
  const rows = [...document.querySelectorAll('#heat-time tr.src')];
  const most = Math.max(...rows.map(r => +r.dataset.share));
  const bg = r => getComputedStyle(r.querySelector('td.code')).backgroundColor;
  const swatch = document.querySelector('.legend .heat-9');
  return {
    rows: rows.length,
    lines: rows.map(r => +r.dataset.line),
    hottest: rows.filter(r => +r.dataset.share === most).map(r => ({line: +r.dataset.line, class: r.className, fill: bg(r)})),
    other: rows.filter(r => +r.dataset.share !== most).map(bg),
    hot9: swatch ? getComputedStyle(swatch).backgroundColor : '',
    nodes: document.querySelectorAll('#graph g.node').length,
    nodeBoxes: [...document.querySelectorAll('#graph g.node')].filter(g => g.getBBox().width > 0).length,
    edges: document.querySelectorAll('#graph g.edge').length,
    charts: [...document.querySelectorAll('svg.bars')].map(s => ({
      property: s.dataset.property,
      scenarios: [...s.querySelectorAll('g.scenario')].map(g => g.dataset.scenario),
      Heights: [...s.querySelectorAll('g.scenario')].map(g => { const b = g.querySelector('rect.bar'); return b ? b.getBBox().height : -1; }),
    })),
    dist: document.querySelectorAll('svg.dist').length,
    cdf: [...document.querySelectorAll('svg.dist path.cdf')].reduce((w, p) => w + p.getTotalLength(), 0),
    ranking: document.querySelectorAll('#ranking-chart g.func rect.inclusive').length,
    terms: [...document.querySelectorAll('#terms-chart g.term rect')].filter(r => r.getBBox().width > 0).length,
    termRows: document.querySelectorAll('#terms-table tbody tr').length,
    units: document.querySelectorAll('#units-table tr.unit').length,
    points: document.querySelectorAll('svg.law circle.point').length,
    curve: [...document.querySelectorAll('svg.law path.curve')].reduce((w, p) => w + p.getTotalLength(), 0),
    sites: [...document.querySelectorAll('#sites-chart g.site rect')].filter(r => r.getBBox().width > 0).length,
  };
})()`

// The distance report in headless Chromium: it renders with no console error, no exception and
// no request but the file itself; the heat map has one row per source line of L1 (counted
// from the source by go/parser, not by the report), the hottest line is drawn in the hottest
// colour and no other line is; the graph has one node per state of the model; each property
// has a bar per scenario; the ranking has a bar and a call-graph node per function. With -update the page's screenshot becomes docs/report.png.
func TestBrowser(t *testing.T) {
	bin := browser()
	if bin == "" {
		t.Skip("!!!!!! SKIPPED: NO CHROMIUM OR CHROME BINARY (looked for /usr/bin/chromium and chromium, google-chrome on the PATH): THE BROWSER TEST OF THE HTML REPORT DID NOT RUN. Install Debian's chromium (apt-get install -y chromium; .ci/run does so as root). !!!!!!")
	}
	start := time.Now()
	r := distanceReport(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	if err := WriteFile(page, r); err != nil {
		t.Fatal(err)
	}
	ranking := filepath.Join(dir, "ranking.html")
	if err := WriteFile(ranking, rankingReport()); err != nil {
		t.Fatal(err)
	}
	optionsPage := filepath.Join(dir, "options.html")
	if err := WriteFile(optionsPage, BuildOptions(optionsModel())); err != nil {
		t.Fatal(err)
	}
	fieldPage := filepath.Join(dir, "field.html")
	if err := WriteFile(fieldPage, BuildField(fieldRelease())); err != nil {
		t.Fatal(err)
	}
	fitPage := filepath.Join(dir, "fit.html")
	if err := WriteFile(fitPage, BuildFit(fitResult())); err != nil {
		t.Fatal(err)
	}

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin), chromedp.WindowSize(1200, 900),
		chromedp.UserDataDir(filepath.Join(dir, "profile")))
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox) // Chromium refuses to run as root with its sandbox
	}
	alloc, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()

	var mu sync.Mutex
	var problems, requests []string
	if err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning || ev.Type == runtime.ConsoleAPICalledTypeAssert {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				problems = append(problems, fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(args, " ")))
			}
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			what := d.Text
			if d.Exception != nil {
				what += " " + d.Exception.Description
			}
			problems = append(problems, fmt.Sprintf("exception: %s at %s:%d", what, d.URL, d.LineNumber+1))
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError || ev.Entry.Level == log.EntryLevelWarning {
				problems = append(problems, fmt.Sprintf("%s %s: %s", ev.Entry.Source, ev.Entry.Level, ev.Entry.Text))
			}
		case *network.EventRequestWillBeSent:
			requests = append(requests, ev.Request.URL)
		}
	}); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	timeout, stop := context.WithTimeout(ctx, 25*time.Second)
	defer stop()
	pageURL := (&url.URL{Scheme: "file", Path: page}).String()
	if err := chromedp.Do(timeout, chromedp.Navigate(pageURL), chromedp.WaitVisible(chromedp.ID("graph"))); err != nil {
		t.Fatalf("loading %s: %v", pageURL, err)
	}
	facts, err := chromedp.Run(timeout, chromedp.Evaluate[pageFacts](factsJS))
	if err != nil {
		t.Fatal(err)
	}

	lo, hi := declLines(t, "../../examples/distance/distance.go", "L1")
	if facts.Rows != hi-lo+1 || len(facts.Lines) == 0 || facts.Lines[0] != lo || facts.Lines[len(facts.Lines)-1] != hi {
		t.Errorf("heat map rows %v: want one per line of L1, %d to %d", facts.Lines, lo, hi)
	}
	if len(facts.Hottest) != 1 || facts.Hottest[0].Line != 21 || !strings.Contains(facts.Hottest[0].Class, fmt.Sprintf("heat-%d", Levels)) {
		t.Errorf("hottest lines %+v: want line 21 (the loop body) with class heat-%d", facts.Hottest, Levels)
	}
	if want := "rgb(179, 0, 0)"; facts.Hot9 != want || len(facts.Hottest) == 0 || facts.Hottest[0].Fill != want {
		t.Errorf("the hottest colour is %q and the hottest line is drawn in %+v: want red, %s", facts.Hot9, facts.Hottest, want)
	}
	for _, bg := range facts.Other {
		if bg == facts.Hot9 {
			t.Errorf("a line that is not the hottest is drawn in the hottest colour (%v)", facts.Other)
			break
		}
	}
	states := r.Function.Graph.States
	if facts.Nodes != states || facts.NodeBoxes != states {
		t.Errorf("the graph has %d nodes (%d drawn with a size), want the model's %d states", facts.Nodes, facts.NodeBoxes, states)
	}
	if want := len(r.Function.Graph.Edges); facts.Edges != want {
		t.Errorf("%d edges, want %d", facts.Edges, want)
	}
	if len(facts.Charts) != 2 {
		t.Errorf("%d bar charts, want one per property (cost, time)", len(facts.Charts))
	}
	for _, c := range facts.Charts {
		if strings.Join(c.Scenarios, "|") != "baseline|time@distance.go:21=1.8" {
			t.Errorf("%s: scenarios %v", c.Property, c.Scenarios)
		}
		for i, h := range c.Heights {
			if h <= 0 {
				t.Errorf("%s: the bar of %s has height %v", c.Property, c.Scenarios[i], h)
			}
		}
	}
	if facts.Dist != 2 || facts.CDF <= 0 {
		t.Errorf("%d distributions, CDF length %v: want 2 drawn", facts.Dist, facts.CDF)
	}
	if *update {
		png, err := chromedp.Run(timeout, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("../../docs/report.png", png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote docs/report.png (%d bytes)", len(png))
	}

	rankURL := (&url.URL{Scheme: "file", Path: ranking}).String()
	if err := chromedp.Do(timeout, chromedp.Navigate(rankURL), chromedp.WaitVisible(chromedp.ID("ranking-chart"))); err != nil {
		t.Fatalf("loading %s: %v", rankURL, err)
	}
	rf, err := chromedp.Run(timeout, chromedp.Evaluate[pageFacts](factsJS))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(rankingReport().Ranking.Funcs); rf.Ranking != n || rf.Nodes != n || rf.NodeBoxes != n {
		t.Errorf("the ranking has %d bars and its call graph %d nodes (%d drawn), want one per function (%d)", rf.Ranking, rf.Nodes, rf.NodeBoxes, n)
	}

	optURL := (&url.URL{Scheme: "file", Path: optionsPage}).String()
	if err := chromedp.Do(timeout, chromedp.Navigate(optURL), chromedp.WaitVisible(chromedp.ID("terms-chart"))); err != nil {
		t.Fatalf("loading %s: %v", optURL, err)
	}
	of, err := chromedp.Run(timeout, chromedp.Evaluate[pageFacts](factsJS))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(BuildOptions(optionsModel()).Options.Terms); of.Terms != n || of.TermRow != n {
		t.Errorf("the options page draws %d term bars and lists %d terms, want %d", of.Terms, of.TermRow, n)
	}

	fieldURL := (&url.URL{Scheme: "file", Path: fieldPage}).String()
	if err := chromedp.Do(timeout, chromedp.Navigate(fieldURL), chromedp.WaitVisible(chromedp.ID("sites-chart"))); err != nil {
		t.Fatalf("loading %s: %v", fieldURL, err)
	}
	ff, err := chromedp.Run(timeout, chromedp.Evaluate[pageFacts](factsJS))
	if err != nil {
		t.Fatal(err)
	}
	if ff.Units != 4 || ff.Sites != 2 {
		t.Errorf("the field page has %d unit rows and %d site bars, want 4 and 2", ff.Units, ff.Sites)
	}

	fitURL := (&url.URL{Scheme: "file", Path: fitPage}).String()
	if err := chromedp.Do(timeout, chromedp.Navigate(fitURL), chromedp.WaitVisible(chromedp.ID("law-0"))); err != nil {
		t.Fatalf("loading %s: %v", fitURL, err)
	}
	lf, err := chromedp.Run(timeout, chromedp.Evaluate[pageFacts](factsJS))
	if err != nil {
		t.Fatal(err)
	}
	if lf.Points != 8 || lf.Curve <= 0 {
		t.Errorf("the fit page draws %d points and a curve of length %v, want 8 and a drawn curve", lf.Points, lf.Curve)
	}

	mu.Lock()
	defer mu.Unlock()
	for _, p := range problems {
		t.Errorf("the browser reported %s", p)
	}
	for _, u := range requests {
		if u != pageURL && u != rankURL && u != optURL && u != fieldURL && u != fitURL {
			t.Errorf("the page requested %s: it must load nothing", u)
		}
	}
	t.Logf("%s: %d requests, %s", bin, len(requests), time.Since(start).Round(time.Millisecond))
}

// declLines gives the first and last line of function name's declaration in file.
func declLines(t *testing.T, file, name string) (int, int) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == name {
			return fset.Position(fd.Pos()).Line, fset.Position(fd.End()).Line
		}
	}
	t.Fatalf("%s has no func %s", file, name)
	return 0, 0
}

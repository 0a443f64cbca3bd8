package main

import (
	"flag"
	"fmt"
	"io"

	reporthtml "github.com/augur-perf/augur/report/html"
)

// htmlFlags declares --html and --open, the report flags every analysis shares.
func htmlFlags(fs *flag.FlagSet) (path *string, open *bool) {
	path = fs.String("html", "", "also write the analysis as one self-contained HTML report (source heat map, model graph, charts) to this file")
	open = fs.Bool("open", false, "with --html: open the report in the desktop's browser")
	return path, open
}

// writeHTML writes the report and, with open, shows it; a browser that cannot be started is a
// warning, not a failure: the report is written.
func writeHTML(path string, open bool, r *reporthtml.Report, stderr io.Writer) error {
	if err := reporthtml.WriteFile(path, r); err != nil {
		return fmt.Errorf("--html: %v", err)
	}
	fmt.Fprintf(stderr, "wrote %s\n", path)
	if open {
		if err := reporthtml.Open(path); err != nil {
			fmt.Fprintf(stderr, "warning: %v\n", err)
		}
	}
	return nil
}

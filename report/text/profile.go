package text

import (
	"fmt"
	"io"

	"github.com/augur-perf/augur/probe/profile"
)

// Profiled is `augur profile`'s line on the profile it wrote to path: its functions, how many
// were invoked and how often, and the runs it adds up.
func Profiled(w io.Writer, p *profile.Profile, path string) {
	invoked, total := p.Invoked()
	fmt.Fprintf(w, "augur profile: %s, %d invoked, %s; wrote %s (%s)\n",
		Plural(len(p.Funcs), "function"), invoked, Plural(int(total), "invocation"), path, Plural(p.Runs, "run"))
}

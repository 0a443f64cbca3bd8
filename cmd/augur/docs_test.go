package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var (
	docsSlow   = flag.Bool("docs.slow", false, "also run the documented commands marked slow (they take minutes)")
	docsUpdate = flag.Bool("docs.update", false, "rewrite the documented outputs with this run's (keeping one \"...\" elision)")
)

// A docCommand is one `$ augur ...` line of a fenced block in the documentation, with the output
// shown under it. Comments in the line before the fence tune the comparison:
//
//	<!-- doctest: measured -->  the output holds measurements: any number matches any number
//	<!-- doctest: slow -->      run only with -docs.slow (go test ./cmd/augur -run Docs -docs.slow)
//	<!-- doctest: exit N -->    the command is shown failing with exit status N
//	<!-- doctest: augur ARGS --> the block holds only output, of `augur ARGS`
//
// In the shown output a line starting with "..." stands for any number of lines.
//
// go test ./cmd/augur -run Docs -docs.update rewrites every shown output with the output of this
// run, so the figures in the documentation come from the code as it is.
type docCommand struct {
	pos            string // file:line of the command
	file           string
	first          int // index of the first output line in the file's lines
	args           []string
	want           []string
	measured, slow bool
	exit           int
}

func TestDocs(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	files = append([]string{filepath.Join(root, "README.md")}, files...)
	var cmds []docCommand
	for _, f := range files {
		cs, err := docCommands(f, root)
		if err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cs...)
	}
	if len(cmds) < 5 {
		t.Fatalf("found %d documented commands; the extraction must be broken", len(cmds))
	}
	// Commands write files (-o model.json) and build: run them in a copy of the module, so that
	// the documentation can show them as a user types them without the tree changing.
	dir := copyModule(t, root)
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	modcache := goEnv(t, "GOMODCACHE")
	clean := func(s string) string {
		s = strings.ReplaceAll(s, dir+string(filepath.Separator), "")
		return strings.ReplaceAll(s, modcache, "$GOMODCACHE")
	}
	updates := map[string][]docCommand{}
	for _, c := range cmds {
		t.Run(c.pos, func(t *testing.T) {
			if c.slow && !*docsSlow {
				t.Skip("slow: run with -docs.slow")
			}
			var got, withErr []string
			var okOut, okErr bool
			// A measured block gets a second, fresh run before it fails: a model measured on a
			// busy machine may show a noise term the documented one has not.
			for try := 0; try < 2 && !okOut && !okErr && (try == 0 || c.measured && !*docsUpdate); try++ {
				var out, errb bytes.Buffer
				code := run(c.args, &out, &errb)
				if code != c.exit {
					t.Fatalf("augur %s: exit %d, documented %d\nstderr:\n%s", strings.Join(c.args, " "), code, c.exit, errb.String())
				}
				// The documentation may show stderr's summary lines too.
				got, withErr = lines(clean(out.String())), lines(clean(errb.String()+out.String()))
				okOut, okErr = matchLines(c.want, got, c.measured), matchLines(c.want, withErr, c.measured)
			}
			switch {
			case *docsUpdate && (c.measured || !okOut && !okErr):
				// Measured blocks are rewritten too, so that their figures are this run's.
				if okErr && !okOut {
					got = withErr
				}
				c.want = elide(c.want, got)
				updates[c.file] = append(updates[c.file], c)
			case okOut || okErr:
			default:
				t.Errorf("augur %s: output differs from the documentation\n--- documented:\n%s\n--- got:\n%s", strings.Join(c.args, " "), strings.Join(c.want, "\n"), strings.Join(withErr, "\n"))
			}
		})
	}
	for file, cs := range updates {
		if err := rewriteOutputs(file, cs); err != nil {
			t.Error(err)
		}
	}
}

// elide shapes a new output like the documented one: with the documented "..." line kept, and
// as many lines before and after it as the documentation showed.
func elide(doc, got []string) []string {
	at := -1
	for i, l := range doc {
		if strings.HasPrefix(strings.TrimSpace(l), "...") {
			at = i
			break
		}
	}
	after := len(doc) - at - 1
	if at < 0 || at+after >= len(got) {
		return got
	}
	out := append(append([]string(nil), got[:at]...), doc[at])
	return append(out, got[len(got)-after:]...)
}

// rewriteOutputs replaces the documented outputs of cs in file by their new lines (c.want).
// The commands' old outputs are found again by their first line and old length.
func rewriteOutputs(file string, cs []docCommand) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	old, err := docCommands(file, filepath.Dir(file))
	if err != nil {
		return err
	}
	ls := strings.Split(string(b), "\n")
	// Bottom up, so that earlier line numbers stay valid.
	for i := len(old) - 1; i >= 0; i-- {
		for _, c := range cs {
			if c.first == old[i].first {
				ls = append(ls[:c.first], append(append([]string(nil), c.want...), ls[c.first+len(old[i].want):]...)...)
			}
		}
	}
	return os.WriteFile(file, []byte(strings.Join(ls, "\n")), 0o644)
}

func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

var doctestMark = regexp.MustCompile(`^<!-- doctest: (.*) -->$`)

// docCommands extracts the documented commands of one Markdown file.
func docCommands(file, root string) ([]docCommand, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	rel, _ := filepath.Rel(root, file)
	var (
		cmds   []docCommand
		mark   []string // directives of the comment before the current fence
		inside bool
		cur    *docCommand
	)
	flush := func() {
		if cur != nil {
			for len(cur.want) > 0 && strings.TrimSpace(cur.want[len(cur.want)-1]) == "" {
				cur.want = cur.want[:len(cur.want)-1]
			}
			cmds = append(cmds, *cur)
			cur = nil
		}
	}
	newCmd := func(line, first int, text string) error {
		args, err := shellWords(text)
		if err != nil {
			return fmt.Errorf("%s:%d: %v", rel, line, err)
		}
		c := &docCommand{pos: fmt.Sprintf("%s:%d", rel, line), file: file, first: first, args: args}
		for _, m := range mark {
			switch f := strings.Fields(m); {
			case m == "measured":
				c.measured = true
			case m == "slow":
				c.slow = true
			case len(f) == 2 && f[0] == "exit":
				if c.exit, err = strconv.Atoi(f[1]); err != nil {
					return fmt.Errorf("%s:%d: bad doctest mark %q", rel, line, m)
				}
			case len(f) > 0 && f[0] == "augur":
			default:
				return fmt.Errorf("%s:%d: unknown doctest mark %q", rel, line, m)
			}
		}
		cur = c
		return nil
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case !inside && doctestMark.MatchString(line):
			mark = append(mark, doctestMark.FindStringSubmatch(line)[1])
		case !inside && strings.HasPrefix(line, "```"):
			inside = true
			for _, m := range mark {
				if strings.HasPrefix(m, "augur ") {
					if err := newCmd(n, n, strings.TrimPrefix(m, "augur ")); err != nil {
						return nil, err
					}
				}
			}
		case inside && strings.HasPrefix(line, "```"):
			inside = false
			mark = nil
			flush()
		case inside && strings.HasPrefix(line, "$ augur "):
			flush()
			start := n
			text := strings.TrimPrefix(line, "$ augur ")
			for strings.HasSuffix(text, `\`) && sc.Scan() {
				n++
				text = strings.TrimSuffix(text, `\`) + " " + strings.TrimSpace(sc.Text())
			}
			if err := newCmd(start, n, text); err != nil {
				return nil, err
			}
		case inside && cur != nil:
			cur.want = append(cur.want, line)
		case !inside && strings.TrimSpace(line) != "":
			mark = nil
		}
	}
	return cmds, sc.Err()
}

// shellWords splits a command line as a POSIX shell would for the quoting the documentation uses:
// single and double quotes, backslash escapes, and a trailing # comment.
func shellWords(s string) ([]string, error) {
	var (
		words []string
		cur   strings.Builder
		in    bool // inside a word
		quote rune
	)
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote == '\'':
			cur.WriteRune(r)
		case quote == '"' && r == '\\' && i+1 < len(rs) && strings.ContainsRune(`"\$`, rs[i+1]):
			i++
			cur.WriteRune(rs[i])
		case quote == '"':
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == '\\' && i+1 < len(rs):
			i++
			cur.WriteRune(rs[i])
			in = true
		case r == '#' && !in:
			i = len(rs)
		case r == ' ' || r == '\t':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated %c quote in %q", quote, s)
	}
	if in {
		words = append(words, cur.String())
	}
	return words, nil
}

var number = regexp.MustCompile(`[-+]?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?`)

// normal folds white space, and with measured every number, so that column widths and
// measurements do not count.
func normal(s string, measured bool) string {
	s = strings.Join(strings.Fields(s), " ")
	if measured {
		s = number.ReplaceAllString(s, "#")
	}
	return s
}

// matchLines reports whether got matches the documented lines want, where a documented line
// starting with "..." matches any run of lines.
func matchLines(want, got []string, measured bool) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if strings.HasPrefix(strings.TrimSpace(want[0]), "...") {
		for k := 0; k <= len(got); k++ {
			if matchLines(want[1:], got[k:], measured) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && normal(want[0], measured) == normal(got[0], measured) && matchLines(want[1:], got[1:], measured)
}

func lines(s string) []string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// copyModule copies the module's source (not .git) into a temporary directory.
func copyModule(t *testing.T, root string) string {
	t.Helper()
	dir := t.TempDir()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestShellWords(t *testing.T) {
	got, err := shellWords(`options measure ./x --run './examples/options / -unit=10ms' "a\"b" c\ d -- go test -run '^$'  # 0.35 s`)
	want := []string{"options", "measure", "./x", "--run", "./examples/options / -unit=10ms", `a"b`, "c d", "--", "go", "test", "-run", "^$"}
	if err != nil || strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, %v\nwant %q", got, err, want)
	}
	if _, err := shellWords(`check 'open`); err == nil {
		t.Error("an unterminated quote must be an error")
	}
}

func TestMatchLines(t *testing.T) {
	got := []string{"a  1.5", "b", "c", "d 2"}
	for _, c := range []struct {
		want     []string
		measured bool
		ok       bool
	}{
		{[]string{"a 1.5", "b", "c", "d 2"}, false, true},
		{[]string{"a 1.5", "...", "d 2"}, false, true},
		{[]string{"...", "c", "d 2"}, false, true},
		{[]string{"a 9", "...", "d 7"}, true, true},
		{[]string{"a 9", "...", "d 7"}, false, false},
		{[]string{"a 1.5", "c"}, false, false},
		{[]string{"a 1.5", "...", "e"}, false, false},
	} {
		if matchLines(c.want, got, c.measured) != c.ok {
			t.Errorf("matchLines(%q, measured=%v) = %v", c.want, c.measured, !c.ok)
		}
	}
}

package kern

import (
	"fmt"
	"strings"
	"testing"
)

// jsonDoc is a document of objects, arrays, strings with escapes, numbers and literals.
func jsonDoc() []byte {
	var b strings.Builder
	b.WriteString("[")
	for i := 0; i < 40; i++ {
		if i > 0 {
			b.WriteString(",\n ")
		}
		fmt.Fprintf(&b, `{"id": %d, "name": "item \"%d\"", "price": %d.%02d, "tags": ["a", "bc", "def"], "ok": %v, "next": null}`, i, i, i*3, i%100, i%2 == 0)
	}
	b.WriteString("]")
	return []byte(b.String())
}

func lexSrc() string {
	return strings.Repeat("if x1 >= 42 { name = \"hello world\" + y_2 * (z - 7) } else { w != 3 }\n", 24)
}

func exprSrc() string {
	return strings.Repeat("(1 + 2 * (3 - -4) % 5) * 6 - 7 / (8 - 1) + ", 30) + "0"
}

func markdownSrc() string {
	return strings.Repeat("# Title\n\nSome *emphasis* and _more_ text in a paragraph.\n- an item with *stars*\n- another item\n```\ncode line\ncode *not* emph\n```\n  indented paragraph line\n", 16)
}

func wordsSrc() string {
	return strings.Repeat("The quick brown Fox jumps over the lazy dog; the DOG sleeps, the fox runs. ", 24)
}

var matchLines = strings.Split(strings.Repeat("error: file not found\nwarning: unused variable x\ninfo: build ok in 12ms\nerror: timeout after 30s\n", 8), "\n")

func BenchmarkJSONScan(b *testing.B) {
	doc := jsonDoc()
	for b.Loop() {
		n, _ := JSONValid(doc)
		sink += n
	}
}

func BenchmarkLex(b *testing.B) {
	src := lexSrc()
	toks := make([]Token, 0, 1024)
	for b.Loop() {
		ts, _ := Lex(src, toks[:0])
		sink += len(ts)
	}
}

func BenchmarkParse(b *testing.B) {
	src := exprSrc()
	for b.Loop() {
		v, _ := Eval(src)
		sink += v
	}
}

func BenchmarkBTree(b *testing.B) {
	for b.Loop() {
		var t BTree
		for i := 0; i < 2000; i++ {
			t.Insert(i * 7919 % 4001)
		}
		for i := 0; i < 4000; i += 3 {
			if t.Has(i) {
				sink++
			}
		}
	}
}

func BenchmarkMarkdown(b *testing.B) {
	src := markdownSrc()
	for b.Loop() {
		st := Markdown(src)
		sink += st.Emph + st.Para
	}
}

func BenchmarkHashMap(b *testing.B) {
	src := wordsSrc()
	m := map[string]int{}
	for b.Loop() {
		clear(m)
		_, n, t := WordFreq(src, m)
		sink += n + t
	}
}

func BenchmarkQuickSort(b *testing.B) {
	src := make([]int, 2048)
	for i := range src {
		src[i] = (i * 7919) % 10007
	}
	xs := make([]int, len(src))
	for b.Loop() {
		copy(xs, src)
		QuickSort(xs)
	}
}

func BenchmarkRegexp(b *testing.B) {
	res := []string{"^error", "t.*out", "x$", "ok in [0-9]", "f.le", "zz*q"}
	for b.Loop() {
		for _, line := range matchLines {
			for _, re := range res {
				if Match(re, line) {
					sink++
				}
			}
		}
	}
}

// TestRealKernels checks the kernels' results (they are benchmarks of real-shaped code and must
// compute what they claim) and runs their error paths.
func TestRealKernels(t *testing.T) {
	if n, ok := JSONValid(jsonDoc()); !ok || n != 1+40*(1+6+3) {
		t.Errorf("JSONValid(doc) = %d, %v", n, ok)
	}
	for _, bad := range []string{"", "[1,", `{"a" 1}`, `{"a":1,}`, "[1 2]", `"abc`, "tru", "-", "1.", "[]]", `{"a":"\`, "\"\x01\""} {
		if _, ok := JSONValid([]byte(bad)); ok {
			t.Errorf("JSONValid(%q) = true", bad)
		}
	}
	if _, ok := JSONValid([]byte(` {"a": [1, -2.5, "x\"y", true, false, null, {}], "b": {}} `)); !ok {
		t.Error("JSONValid rejects a valid document")
	}
	toks, bad := Lex(`x1 >= 42 "s t" + y`, nil)
	if bad != -1 || len(toks) != 6 || toks[1].Kind != 'o' || toks[1].End-toks[1].Start != 2 || toks[3].Kind != 's' {
		t.Errorf("Lex = %v, %d", toks, bad)
	}
	if _, bad := Lex(`a "open`, nil); bad != 2 {
		t.Errorf("Lex of an open string: %d", bad)
	}
	if _, bad := Lex(`a # b`, nil); bad != 2 {
		t.Errorf("Lex of #: %d", bad)
	}
	for src, want := range map[string]int{"1 + 2 * 3": 7, "(1 + 2) * 3": 9, "-(4 - 10) % 4": 2, "7 / 2 - -1": 4} {
		if v, ok := Eval(src); !ok || v != want {
			t.Errorf("Eval(%q) = %d, %v; want %d", src, v, ok, want)
		}
	}
	for _, src := range []string{"1 +", "(1", "1 / 0", "2 % (1 - 1)", "1 2", "*"} {
		if _, ok := Eval(src); ok {
			t.Errorf("Eval(%q) ok", src)
		}
	}
	var bt BTree
	for i := 0; i < 500; i++ {
		bt.Insert(i * 37 % 503)
	}
	if bt.Insert(37) || bt.n != 500 {
		t.Errorf("BTree: %d keys", bt.n)
	}
	for i := 0; i < 503; i++ {
		if bt.Has(i) != hasKey(i) {
			t.Fatalf("BTree.Has(%d) = %v", i, bt.Has(i))
		}
	}
	st := Markdown("# h\n- *a* b\n```\nx\n```\npara _b_ *c\n\n  ## h2\nend")
	if st != (MarkdownStats{Headings: 2, Items: 1, Code: 1, Para: 2, Emph: 2}) {
		t.Errorf("Markdown = %+v", st)
	}
	if w, n, all := WordFreq(wordsSrc(), map[string]int{}); w != "the" || n != 4*24 || all != 15*24 {
		t.Errorf("WordFreq = %q, %d, %d", w, n, all)
	}
	xs := make([]int, 1000)
	for i := range xs {
		xs[i] = (i * 7919) % 1009
	}
	QuickSort(xs)
	for i := 1; i < len(xs); i++ {
		if xs[i-1] > xs[i] {
			t.Fatalf("QuickSort: xs[%d] = %d > xs[%d] = %d", i-1, xs[i-1], i, xs[i])
		}
	}
	for _, c := range []struct {
		re, text string
		want     bool
	}{{"^ab*c", "abbbc", true}, {"b.*d$", "abcd", true}, {"x$", "xy", false}, {"a*", "", true}, {"^a.c", "abd", false}, {"zz*q", "azzzq", true}} {
		if Match(c.re, c.text) != c.want {
			t.Errorf("Match(%q, %q) = %v", c.re, c.text, !c.want)
		}
	}
}

// hasKey says whether i is one of the keys i*37 % 503, i < 500, that TestRealKernels inserts.
func hasKey(k int) bool {
	for i := 0; i < 500; i++ {
		if i*37%503 == k {
			return true
		}
	}
	return false
}

package kern

// Kernels shaped like the code of real modules (a JSON scanner, a lexer, a recursive-descent
// parser, a B-tree, a Markdown line parser, a map workload, a sort, a regular-expression
// matcher): many small functions, short loops with early exits, recursion, calls in loops.

// JSONValid reports whether data is one valid JSON value (surrounded by white space) and how
// many values it holds, scanning bytes with early returns on the first error.
func JSONValid(data []byte) (int, bool) {
	n := 0
	i, ok := jsonValue(data, skipSpace(data, 0), &n)
	if !ok {
		return n, false
	}
	return n, skipSpace(data, i) == len(data)
}

func skipSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

func jsonValue(data []byte, i int, n *int) (int, bool) {
	if i >= len(data) {
		return i, false
	}
	*n++
	switch c := data[i]; {
	case c == '{':
		return jsonObject(data, i+1, n)
	case c == '[':
		return jsonArray(data, i+1, n)
	case c == '"':
		return jsonString(data, i+1)
	case c == '-' || c >= '0' && c <= '9':
		return jsonNumber(data, i)
	case c == 't':
		return jsonLiteral(data, i, "true")
	case c == 'f':
		return jsonLiteral(data, i, "false")
	case c == 'n':
		return jsonLiteral(data, i, "null")
	}
	return i, false
}

func jsonObject(data []byte, i int, n *int) (int, bool) {
	i = skipSpace(data, i)
	if i < len(data) && data[i] == '}' {
		return i + 1, true
	}
	for {
		i = skipSpace(data, i)
		if i >= len(data) || data[i] != '"' {
			return i, false
		}
		var ok bool
		if i, ok = jsonString(data, i+1); !ok {
			return i, false
		}
		i = skipSpace(data, i)
		if i >= len(data) || data[i] != ':' {
			return i, false
		}
		if i, ok = jsonValue(data, skipSpace(data, i+1), n); !ok {
			return i, false
		}
		i = skipSpace(data, i)
		if i >= len(data) {
			return i, false
		}
		if data[i] == '}' {
			return i + 1, true
		}
		if data[i] != ',' {
			return i, false
		}
		i++
	}
}

func jsonArray(data []byte, i int, n *int) (int, bool) {
	i = skipSpace(data, i)
	if i < len(data) && data[i] == ']' {
		return i + 1, true
	}
	for {
		var ok bool
		if i, ok = jsonValue(data, skipSpace(data, i), n); !ok {
			return i, false
		}
		i = skipSpace(data, i)
		if i >= len(data) {
			return i, false
		}
		if data[i] == ']' {
			return i + 1, true
		}
		if data[i] != ',' {
			return i, false
		}
		i++
	}
}

func jsonString(data []byte, i int) (int, bool) {
	for i < len(data) {
		c := data[i]
		if c == '"' {
			return i + 1, true
		}
		if c == '\\' {
			i++
			if i >= len(data) {
				return i, false
			}
		} else if c < 0x20 {
			return i, false
		}
		i++
	}
	return i, false
}

func jsonNumber(data []byte, i int) (int, bool) {
	if data[i] == '-' {
		i++
	}
	start := i
	for i < len(data) && data[i] >= '0' && data[i] <= '9' {
		i++
	}
	if i == start {
		return i, false
	}
	if i < len(data) && data[i] == '.' {
		i++
		frac := i
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
		if i == frac {
			return i, false
		}
	}
	return i, true
}

func jsonLiteral(data []byte, i int, lit string) (int, bool) {
	for k := 0; k < len(lit); k++ {
		if i+k >= len(data) || data[i+k] != lit[k] {
			return i + k, false
		}
	}
	return i + len(lit), true
}

// A Token is a lexeme of Lex's little language.
type Token struct {
	Kind       byte // 'i' identifier, 'n' number, 's' string, 'o' operator
	Start, End int
}

// Lex splits src into tokens, appending them to toks, and returns them with the offset of the
// first byte it could not read, or -1.
func Lex(src string, toks []Token) ([]Token, int) {
	lx := lexer{src: src}
	for {
		t, ok := lx.next()
		if !ok {
			break
		}
		if t.Kind == 0 {
			return toks, t.Start
		}
		toks = append(toks, t)
	}
	return toks, -1
}

type lexer struct {
	src string
	pos int
}

func (lx *lexer) next() (Token, bool) {
	for lx.pos < len(lx.src) && isSpace(lx.src[lx.pos]) {
		lx.pos++
	}
	if lx.pos >= len(lx.src) {
		return Token{}, false
	}
	start := lx.pos
	c := lx.src[lx.pos]
	switch {
	case isLetter(c):
		for lx.pos < len(lx.src) && (isLetter(lx.src[lx.pos]) || isDigit(lx.src[lx.pos])) {
			lx.pos++
		}
		return Token{'i', start, lx.pos}, true
	case isDigit(c):
		for lx.pos < len(lx.src) && isDigit(lx.src[lx.pos]) {
			lx.pos++
		}
		return Token{'n', start, lx.pos}, true
	case c == '"':
		lx.pos++
		for lx.pos < len(lx.src) && lx.src[lx.pos] != '"' {
			lx.pos++
		}
		if lx.pos == len(lx.src) {
			return Token{0, start, start}, true
		}
		lx.pos++
		return Token{'s', start, lx.pos}, true
	case c == '#':
		return Token{0, start, start}, true
	}
	lx.pos++
	if lx.pos < len(lx.src) && lx.src[lx.pos] == '=' && (c == '<' || c == '>' || c == '=' || c == '!') {
		lx.pos++
	}
	return Token{'o', start, lx.pos}, true
}

func isSpace(c byte) bool  { return c == ' ' || c == '\t' || c == '\n' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// Eval parses and evaluates an integer expression (+ - * / %, unary minus, parentheses) by
// recursive descent; ok is false on a syntax error or a division by zero.
func Eval(src string) (v int, ok bool) {
	p := parser{src: src}
	v, ok = p.expr()
	return v, ok && p.pos == len(p.src)
}

type parser struct {
	src string
	pos int
}

func (p *parser) peek() byte {
	for p.pos < len(p.src) && p.src[p.pos] == ' ' {
		p.pos++
	}
	if p.pos == len(p.src) {
		return 0
	}
	return p.src[p.pos]
}

func (p *parser) expr() (int, bool) {
	v, ok := p.term()
	for ok {
		switch p.peek() {
		case '+':
			p.pos++
			var w int
			w, ok = p.term()
			v += w
		case '-':
			p.pos++
			var w int
			w, ok = p.term()
			v -= w
		default:
			return v, true
		}
	}
	return 0, false
}

func (p *parser) term() (int, bool) {
	v, ok := p.unary()
	for ok {
		op := p.peek()
		if op != '*' && op != '/' && op != '%' {
			return v, true
		}
		p.pos++
		var w int
		if w, ok = p.unary(); !ok {
			break
		}
		switch {
		case op == '*':
			v *= w
		case w == 0:
			return 0, false
		case op == '/':
			v /= w
		default:
			v %= w
		}
	}
	return 0, false
}

func (p *parser) unary() (int, bool) {
	if p.peek() == '-' {
		p.pos++
		v, ok := p.unary()
		return -v, ok
	}
	return p.primary()
}

func (p *parser) primary() (int, bool) {
	c := p.peek()
	if c == '(' {
		p.pos++
		v, ok := p.expr()
		if !ok || p.peek() != ')' {
			return 0, false
		}
		p.pos++
		return v, true
	}
	if !isDigit(c) {
		return 0, false
	}
	v := 0
	for p.pos < len(p.src) && isDigit(p.src[p.pos]) {
		v = v*10 + int(p.src[p.pos]-'0')
		p.pos++
	}
	return v, true
}

// BTree is a B-tree of ints with at most 2*btreeMin-1 keys per node.
type BTree struct {
	root *bnode
	n    int
}

const btreeMin = 8

type bnode struct {
	keys []int
	kids []*bnode
}

// find is the index of the first key ≥ k in keys, by binary search.
func find(keys []int, k int) int {
	lo, hi := 0, len(keys)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if keys[m] < k {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// Has reports whether k is in t.
func (t *BTree) Has(k int) bool {
	n := t.root
	for n != nil {
		i := find(n.keys, k)
		if i < len(n.keys) && n.keys[i] == k {
			return true
		}
		if n.kids == nil {
			return false
		}
		n = n.kids[i]
	}
	return false
}

// Insert adds k to t; it reports whether k was new.
func (t *BTree) Insert(k int) bool {
	if t.root == nil {
		t.root = &bnode{keys: []int{k}}
		t.n++
		return true
	}
	if len(t.root.keys) == 2*btreeMin-1 {
		old := t.root
		t.root = &bnode{kids: []*bnode{old}}
		t.root.split(0)
	}
	if !t.root.insert(k) {
		return false
	}
	t.n++
	return true
}

// split splits the full child i of n around its middle key.
func (n *bnode) split(i int) {
	c := n.kids[i]
	mid := c.keys[btreeMin-1]
	right := &bnode{keys: append([]int(nil), c.keys[btreeMin:]...)}
	if c.kids != nil {
		right.kids = append([]*bnode(nil), c.kids[btreeMin:]...)
		c.kids = c.kids[:btreeMin]
	}
	c.keys = c.keys[:btreeMin-1]
	n.keys = append(n.keys, 0)
	copy(n.keys[i+1:], n.keys[i:])
	n.keys[i] = mid
	n.kids = append(n.kids, nil)
	copy(n.kids[i+2:], n.kids[i+1:])
	n.kids[i+1] = right
}

func (n *bnode) insert(k int) bool {
	for {
		i := find(n.keys, k)
		if i < len(n.keys) && n.keys[i] == k {
			return false
		}
		if n.kids == nil {
			n.keys = append(n.keys, 0)
			copy(n.keys[i+1:], n.keys[i:])
			n.keys[i] = k
			return true
		}
		if len(n.kids[i].keys) == 2*btreeMin-1 {
			n.split(i)
			if k == n.keys[i] {
				return false
			}
			if k > n.keys[i] {
				i++
			}
		}
		n = n.kids[i]
	}
}

// MarkdownStats classifies the lines of a Markdown-like text: headings, list items, lines in
// fenced code blocks, paragraph lines, and the emphasis spans (*x* or _x_) outside code.
type MarkdownStats struct {
	Headings, Items, Code, Para, Emph int
}

// Markdown scans text line by line.
func Markdown(text string) MarkdownStats {
	var st MarkdownStats
	fenced := false
	for len(text) > 0 {
		line := text
		if i := indexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		if hasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			st.Code++
			continue
		}
		line = trimLeft(line)
		switch {
		case line == "":
		case line[0] == '#':
			st.Headings++
		case len(line) > 1 && (line[0] == '-' || line[0] == '*') && line[1] == ' ':
			st.Items++
			st.Emph += emphasis(line[2:])
		default:
			st.Para++
			st.Emph += emphasis(line)
		}
	}
	return st
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }

func trimLeft(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	return s
}

// emphasis counts the spans *x* and _x_ of a line (a marker opens a span, the same marker
// closes it).
func emphasis(line string) int {
	n := 0
	var open byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c != '*' && c != '_' {
			continue
		}
		switch open {
		case 0:
			open = c
		case c:
			n++
			open = 0
		}
	}
	return n
}

// WordFreq counts the words of text (runs of letters, lower-cased) in m and returns the first
// word to reach the highest count, that count, and how many words m holds in all.
func WordFreq(text string, m map[string]int) (best string, most, total int) {
	var buf [32]byte
	for i := 0; i < len(text); {
		if !isLetter(text[i]) {
			i++
			continue
		}
		n := 0
		for i < len(text) && isLetter(text[i]) {
			if n < len(buf) {
				c := text[i]
				if c >= 'A' && c <= 'Z' {
					c += 'a' - 'A'
				}
				buf[n] = c
				n++
			}
			i++
		}
		w := string(buf[:n])
		c := m[w] + 1
		m[w] = c
		if c > most {
			best, most = w, c
		}
	}
	for _, c := range m {
		total += c
	}
	return best, most, total
}

// QuickSort sorts xs: median-of-three quicksort, insertion sort below 12 elements.
func QuickSort(xs []int) {
	for len(xs) > 12 {
		p := partition(xs)
		if p < len(xs)-p {
			QuickSort(xs[:p])
			xs = xs[p+1:]
		} else {
			QuickSort(xs[p+1:])
			xs = xs[:p]
		}
	}
	InsertionSort(xs)
}

func partition(xs []int) int {
	m, h := len(xs)/2, len(xs)-1
	if xs[m] < xs[0] {
		xs[m], xs[0] = xs[0], xs[m]
	}
	if xs[h] < xs[0] {
		xs[h], xs[0] = xs[0], xs[h]
	}
	if xs[h] < xs[m] {
		xs[h], xs[m] = xs[m], xs[h]
	}
	xs[m], xs[h-1] = xs[h-1], xs[m]
	pivot := xs[h-1]
	i, j := 0, h-1
	for {
		for i++; xs[i] < pivot; i++ {
		}
		for j--; xs[j] > pivot; j-- {
		}
		if i >= j {
			break
		}
		xs[i], xs[j] = xs[j], xs[i]
	}
	xs[i], xs[h-1] = xs[h-1], xs[i]
	return i
}

// Match reports whether the regular expression re matches somewhere in text: c, '.', '^',
// '$' and 'x*' (Kernighan and Pike's matcher).
func Match(re, text string) bool {
	if len(re) > 0 && re[0] == '^' {
		return matchHere(re[1:], text)
	}
	for {
		if matchHere(re, text) {
			return true
		}
		if len(text) == 0 {
			return false
		}
		text = text[1:]
	}
}

func matchHere(re, text string) bool {
	for {
		if len(re) == 0 {
			return true
		}
		if len(re) > 1 && re[1] == '*' {
			return matchStar(re[0], re[2:], text)
		}
		if re[0] == '$' && len(re) == 1 {
			return len(text) == 0
		}
		if len(text) == 0 || re[0] != '.' && re[0] != text[0] {
			return false
		}
		re, text = re[1:], text[1:]
	}
}

func matchStar(c byte, re, text string) bool {
	for {
		if matchHere(re, text) {
			return true
		}
		if len(text) == 0 || c != '.' && text[0] != c {
			return false
		}
		text = text[1:]
	}
}

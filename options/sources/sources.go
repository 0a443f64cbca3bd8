// Package sources finds where a Go program loads its configuration options:
// the places are declared, never guessed. Built in are the standard flag
// package (package functions and *flag.FlagSet methods) and os.Getenv /
// os.LookupEnv; users declare more with Decls (ParseSource, ParseField).
//
// It owns option discovery on type-checked syntax, option naming and the
// discretised values an experiment gives each option. It must not build SSA
// or follow data flow (package taint does), and it never changes the
// packages it inspects.
package sources

import (
	"errors"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"
)

// SiteKind says where the option's value appears at a site.
type SiteKind int

const (
	// Result: the call's result is the value (os.Getenv, declared sources).
	Result SiteKind = iota
	// ResultPointer: the call returns a pointer to the option's storage
	// (flag.Bool and friends): loads through it read the option.
	ResultPointer
	// ArgPointer: argument Arg is the address of the storage (flag.BoolVar).
	ArgPointer
	// FuncParam: argument Arg is a function whose first parameter receives
	// the value (flag.Func, flag.BoolFunc).
	FuncParam
	// FieldRead: every read of Field is the option (declared fields).
	FieldRead
)

func (k SiteKind) String() string {
	return [...]string{"result", "result-pointer", "arg-pointer", "func-param", "field-read"}[k]
}

// Site is one place an option is loaded.
type Site struct {
	Kind SiteKind
	// Pos is the call's Lparen (what go/ssa reports as the Call's Pos) or,
	// for FieldRead, the position of the field's declaration.
	Pos      token.Pos
	Position token.Position
	// Callee is the loading function, e.g. "flag.Bool" or
	// "(*flag.FlagSet).BoolVar"; empty for FieldRead.
	Callee string
	// Arg is the syntactic argument index for ArgPointer and FuncParam
	// (the receiver of a method call is not counted).
	Arg int
	// Method is true when the callee is a method called with a receiver,
	// so SSA's argument list is shifted by one.
	Method bool
	// Field is the declared field for FieldRead.
	Field *types.Var
	// Via is where a helper reads the option, for a site that is a call of that helper whose
	// arguments name the option (Pos is then the helper's call).
	Via token.Position
	// Set is how a run of the program sets the option.
	Set Setter
}

// A Setter says how a run sets an option: exactly one of a command-line flag (Flag, with its
// dashes: the run gets Flag=value), an environment variable (Env=value), or a key of a
// configuration file the run writes from a template (Key). The zero Setter cannot set it.
type Setter struct {
	Flag string `json:"flag,omitempty"`
	Env  string `json:"env,omitempty"`
	Key  string `json:"key,omitempty"`
}

// String gives the setter in the declaration syntax ParseSetter reads.
func (s Setter) String() string {
	switch {
	case s.Flag != "":
		return "@flag:" + s.Flag
	case s.Env != "":
		return "@env:" + s.Env
	case s.Key != "":
		return "@key:" + s.Key
	}
	return ""
}

// ParseSetter parses how a declared option is set: "env:NAME" (an environment variable),
// "flag:-name" or "flag:--name" (a command-line flag, dashes as the program wants them) or
// "key:name" (a configuration file key, dots for nesting).
func ParseSetter(s string) (Setter, error) {
	kind, v, _ := strings.Cut(s, ":")
	switch {
	case v == "":
	case kind == "env" && !strings.ContainsAny(v, "= \t"):
		return Setter{Env: v}, nil
	case kind == "flag" && strings.HasPrefix(v, "-") && !strings.ContainsAny(v, "= \t"):
		return Setter{Flag: v}, nil
	case kind == "key" && !strings.ContainsAny(v, "{} \t"):
		return Setter{Key: v}, nil
	}
	return Setter{}, fmt.Errorf("options: %q: say how the option is set: env:NAME, flag:-name, flag:--name or key:name", s)
}

// Option is one configuration option.
type Option struct {
	Name string
	// Type is the Go type of the option's value ("bool", "int",
	// "time.Duration", "string", ...).
	Type  string
	Sites []Site
	// Values are the values the analysis and experiments use: false/true
	// for booleans, the user's values (SetValues) otherwise; nil when none
	// were given.
	Values []string
	// Categorical is set when the user declared the values an unordered set
	// (Decls.Categorical), numbers or not: a mode, an algorithm, numbered
	// levels that are not a quantity.
	Categorical bool
	// ParsedBy and ParsedAt name the standard-library parser (e.g. "strconv.ParseBool") an
	// option read as a string reaches, and where, when the taint analysis found one; its Type is
	// then the parser's.
	ParsedBy string
	ParsedAt token.Position
}

// IsBool reports whether the option is boolean.
func (o *Option) IsBool() bool { return o.Type == "bool" }

// Source declares a function whose call results are option values.
type Source struct {
	Pkg  string // import path
	Recv string // receiver type name for a method, else ""
	Func string
	Name string // option name; defaults to Func
	Set  Setter // how a run sets it; zero if not declared
}

// Field declares a struct field every read of which is an option value.
type Field struct {
	Pkg   string
	Type  string
	Field string
	Name  string // option name; defaults to Field
	Set   Setter // how a run sets it; zero if not declared
}

// Decls are the user's declarations.
type Decls struct {
	Sources []Source
	Fields  []Field
	// Values maps option names to their discretised values.
	Values map[string][]string
	// Categorical names options whose Values are an unordered set of
	// categories even when they are numbers (Option.Categorical).
	Categorical []string
	// Fixed names options held at one value for the whole experiment (an output path, a
	// verbosity flag, a scale knob): they are left out of the set, so they are neither analysed
	// nor varied; the user passes their value with the program's fixed arguments.
	Fixed []string
}

// splitPath splits "import/path.Rest" at the first dot after the last slash:
// import paths may contain dots before the last slash (golang.org/x/...).
func splitPath(s string) (pkg, rest string, ok bool) {
	slash := strings.LastIndex(s, "/")
	dot := strings.Index(s[slash+1:], ".")
	if dot < 0 {
		return "", "", false
	}
	dot += slash + 1
	return s[:dot], s[dot+1:], s[:dot] != "" && s[dot+1:] != ""
}

func splitName(s string) (decl, name string) {
	if i := strings.LastIndex(s, "="); i >= 0 {
		return s[:i], s[i+1:]
	}
	return s, ""
}

// cutSetter splits a declaration's "@env:NAME" (or @flag:, @key:) suffix off.
func cutSetter(s string) (string, Setter, error) {
	decl, how, ok := strings.Cut(strings.TrimSpace(s), "@")
	if !ok {
		return decl, Setter{}, nil
	}
	set, err := ParseSetter(how)
	return decl, set, err
}

// ParseSource parses a --source argument: "import/path.Func",
// "import/path.Type.Method", optionally followed by "=Name" and by how a run sets the option
// ("@env:NAME", "@flag:-name", "@key:name"; see ParseSetter).
func ParseSource(s string) (Source, error) {
	decl, set, err := cutSetter(s)
	if err != nil {
		return Source{}, err
	}
	decl, name := splitName(decl)
	pkg, rest, ok := splitPath(decl)
	if !ok {
		return Source{}, fmt.Errorf("options: --source %q: want import/path.Func[=Name]", s)
	}
	src := Source{Pkg: pkg, Func: rest, Name: name, Set: set}
	if recv, fn, ok := strings.Cut(rest, "."); ok {
		src.Recv, src.Func = strings.TrimPrefix(recv, "*"), fn
	}
	if !token.IsIdentifier(src.Func) || (src.Recv != "" && !token.IsIdentifier(src.Recv)) {
		return Source{}, fmt.Errorf("options: --source %q: %q is not a function name", s, rest)
	}
	if src.Name == "" {
		src.Name = src.Func
	}
	return src, nil
}

// ParseField parses a --source-field argument: "import/path.Type.Field",
// optionally followed by "=Name" and by how a run sets the option (see ParseSource).
func ParseField(s string) (Field, error) {
	decl, set, err := cutSetter(s)
	if err != nil {
		return Field{}, err
	}
	decl, name := splitName(decl)
	pkg, rest, ok := splitPath(decl)
	typ, field, ok2 := strings.Cut(rest, ".")
	if !ok || !ok2 || !token.IsIdentifier(typ) || !token.IsIdentifier(field) {
		return Field{}, fmt.Errorf("options: --source-field %q: want import/path.Type.Field[=Name]", s)
	}
	if name == "" {
		name = field
	}
	return Field{Pkg: pkg, Type: typ, Field: field, Name: name, Set: set}, nil
}

// ParseValues parses a --values argument "name=v1,v2[,...]". At least two
// distinct values are needed: an option with one value cannot change
// anything.
func ParseValues(s string) (name string, values []string, err error) {
	name, list, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return "", nil, fmt.Errorf("options: --values %q: want name=v1,v2", s)
	}
	seen := map[string]bool{}
	for _, v := range strings.Split(list, ",") {
		v = strings.TrimSpace(v)
		if v == "" || seen[v] {
			return "", nil, fmt.Errorf("options: --values %q: empty or repeated value %q", s, v)
		}
		seen[v] = true
		values = append(values, v)
	}
	if len(values) < 2 {
		return "", nil, fmt.Errorf("options: --values %q: give at least two values", s)
	}
	return name, values, nil
}

// flagFuncs maps flag package functions (and FlagSet methods of the same
// name) to the option type and site kind.
var flagFuncs = map[string]struct {
	typ  string
	kind SiteKind
}{
	"Bool": {"bool", ResultPointer}, "Int": {"int", ResultPointer}, "Int64": {"int64", ResultPointer},
	"Uint": {"uint", ResultPointer}, "Uint64": {"uint64", ResultPointer}, "String": {"string", ResultPointer},
	"Float64": {"float64", ResultPointer}, "Duration": {"time.Duration", ResultPointer},
	"BoolVar": {"bool", ArgPointer}, "IntVar": {"int", ArgPointer}, "Int64Var": {"int64", ArgPointer},
	"UintVar": {"uint", ArgPointer}, "Uint64Var": {"uint64", ArgPointer}, "StringVar": {"string", ArgPointer},
	"Float64Var": {"float64", ArgPointer}, "DurationVar": {"time.Duration", ArgPointer},
	"Func": {"string", FuncParam}, "BoolFunc": {"bool", FuncParam},
}

// DeclError is a declaration (a source, field, fixed option or values) that does not fit the
// program: a mistake in how the analysis was asked for, not a failure of the analysis.
type DeclError struct{ Msg string }

func (e *DeclError) Error() string { return e.Msg }

// UsageError marks the error as the caller's: a command line maps it to its usage exit status.
func (e *DeclError) UsageError() bool { return true }

func declErrorf(format string, a ...any) error { return &DeclError{fmt.Sprintf(format, a...)} }

// Set is the result of Find.
type Set struct {
	Options []*Option // sorted by name
	// Warnings are sites skipped, with position: os.Getenv and
	// os.LookupEnv with a non-constant name.
	Warnings []error
	// Fixed are the options Decls.Fixed took out of the analysis.
	Fixed  []*Option
	byName map[string]*Option
	viper  viperState
	// called holds the keys of declared sources some loaded code calls.
	called map[string]bool
}

// Lookup returns the option called name, or nil.
func (s *Set) Lookup(name string) *Option { return s.byName[name] }

// WithValues returns a copy of the set in which the named options take other values (held-out
// values of a numeric option, say); the receiver is unchanged.
func (s *Set) WithValues(values map[string][]string) (*Set, error) {
	c := *s
	c.Options = make([]*Option, len(s.Options))
	c.byName = make(map[string]*Option, len(s.Options))
	for i, o := range s.Options {
		if vs, ok := values[o.Name]; ok {
			cp := *o
			cp.Values = append([]string(nil), vs...)
			o = &cp
		}
		c.Options[i] = o
		c.byName[o.Name] = o
	}
	for name := range values {
		if c.byName[name] == nil {
			return nil, declErrorf("no option %s to give values to (options: %s)", name, strings.Join(s.Names(), ", "))
		}
	}
	return &c, nil
}

// Names lists the option names, sorted.
func (s *Set) Names() []string {
	var ns []string
	for _, o := range s.Options {
		ns = append(ns, o.Name)
	}
	return ns
}

func (s *Set) add(name, typ string, site Site) *Option {
	o := s.byName[name]
	if o == nil {
		o = &Option{Name: name, Type: typ}
		s.byName[name] = o
		s.Options = append(s.Options, o)
	}
	o.Sites = append(o.Sites, site)
	return o
}

// Find finds every option load in the syntax of pkgs (packages loaded
// with syntax and type information; dependencies loaded from export data
// are not searched, but declared fields are resolved in them too). It
// returns the options found and, joined, an error for each site it cannot
// accept (a flag name that is not a constant string, an unknown declared
// field), each with file:line:col. An environment variable whose name is
// not constant is a warning in Set.Warnings instead. Values are set from
// decls where given and false/true for booleans; see CheckValues.
func Find(pkgs []*packages.Package, decls Decls) (*Set, error) {
	s := &Set{byName: map[string]*Option{}, called: map[string]bool{}}
	var errs []error
	sources := map[string]Source{}
	for _, src := range decls.Sources {
		sources[srcKey(src.Pkg, src.Recv, src.Func)] = src
	}
	calls := map[*types.Func][]callRef{}
	var reads []helperRead
	for _, pkg := range pkgs {
		if pkg.TypesInfo == nil {
			continue
		}
		info := pkg.TypesInfo
		for _, file := range pkg.Syntax {
			for _, decl := range file.Decls {
				var encl *types.Func
				if fd, ok := decl.(*ast.FuncDecl); ok {
					encl, _ = info.Defs[fd.Name].(*types.Func)
				}
				ast.Inspect(decl, func(n ast.Node) bool {
					call, ok := n.(*ast.CallExpr)
					if !ok {
						return true
					}
					fn, _ := typeutil.Callee(info, call).(*types.Func)
					if fn == nil || fn.Pkg() == nil {
						return true
					}
					ref := callRef{call: call, info: info, fset: pkg.Fset, encl: encl}
					calls[fn] = append(calls[fn], ref)
					rd, err := s.visitCall(ref, fn, sources)
					if err != nil {
						errs = append(errs, err)
					}
					if rd != nil {
						reads = append(reads, *rd)
					}
					return true
				})
			}
		}
	}
	s.resolveHelperReads(reads, calls)
	s.setViper()
	// A declared source nothing calls is a typo or the wrong package, never "no options".
	for _, src := range decls.Sources {
		if key := srcKey(src.Pkg, src.Recv, src.Func); !s.called[key] {
			errs = append(errs, declErrorf("options: --source %s: no call to it in the loaded packages", strings.Join(slices.DeleteFunc([]string{src.Pkg, src.Recv, src.Func}, func(x string) bool { return x == "" }), ".")))
		}
	}
	for _, fd := range decls.Fields {
		v, err := findField(pkgs, fd)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		var fset *token.FileSet
		if len(pkgs) > 0 {
			fset = pkgs[0].Fset
		}
		site := Site{Kind: FieldRead, Pos: v.Pos(), Field: v, Set: fd.Set}
		if fset != nil {
			site.Position = fset.Position(v.Pos())
		}
		s.add(fd.Name, types.TypeString(v.Type(), qualifier), site)
	}
	sort.Slice(s.Options, func(i, j int) bool { return s.Options[i].Name < s.Options[j].Name })
	for _, name := range decls.Fixed {
		o := s.byName[name]
		if o == nil {
			errs = append(errs, declErrorf("--fixed %s: the program loads no option of that name (it has %s)", name, strings.Join(s.Names(), ", ")))
			continue
		}
		delete(s.byName, name)
		s.Options = slices.DeleteFunc(s.Options, func(x *Option) bool { return x == o })
		s.Fixed = append(s.Fixed, o)
	}
	for _, o := range s.Options {
		if vs, ok := decls.Values[o.Name]; ok {
			o.Values = vs
		} else if o.IsBool() {
			o.Values = []string{"false", "true"}
		}
		o.Categorical = slices.Contains(decls.Categorical, o.Name)
	}
	return s, errors.Join(errs...)
}

// CheckValues returns an error naming every non-boolean option without
// values: ConfigCrusher samples configurations from discretised domains, so
// the user must say which values of an int or string matter.
func (s *Set) CheckValues() error {
	var errs []error
	for _, o := range s.Options {
		if len(o.Values) < 2 {
			pos := ""
			if len(o.Sites) > 0 {
				pos = o.Sites[0].Position.String() + ": "
			}
			how := "has type " + o.Type
			if o.ParsedBy != "" {
				how = fmt.Sprintf("is parsed as %s by %s at %s", o.Type, o.ParsedBy, o.ParsedAt)
			}
			errs = append(errs, fmt.Errorf("%soption %s %s: give its values with --values '%s=v1,v2'", pos, o.Name, how, o.Name))
		}
	}
	return errors.Join(errs...)
}

func qualifier(p *types.Package) string { return p.Name() }

func srcKey(pkg, recv, fn string) string { return pkg + "." + recv + "." + fn }

// visitCall adds the option call loads, if any. An environment read whose name is not a
// constant there is returned for resolution along the calls into its function.
func (s *Set) visitCall(ref callRef, fn *types.Func, sources map[string]Source) (*helperRead, error) {
	fset, info, call := ref.fset, ref.info, ref.call
	sig := fn.Type().(*types.Signature)
	recv := ""
	if r := sig.Recv(); r != nil {
		t := r.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := t.(*types.Named); ok {
			recv = n.Obj().Name()
		}
	}
	method := sig.Recv() != nil
	path := fn.Pkg().Path()
	if s.libCall(ref, fn, path, recv) {
		return nil, nil
	}
	site := Site{Pos: call.Lparen, Position: fset.Position(call.Lparen), Callee: calleeName(fn, recv), Method: method}

	name := func(i int) (string, error) {
		if i >= len(call.Args) {
			return "", fmt.Errorf("%s: %s: missing name argument", fset.Position(call.Pos()), site.Callee)
		}
		tv := info.Types[call.Args[i]]
		if tv.Value == nil || tv.Value.Kind() != constant.String {
			return "", fmt.Errorf("%s: %s: the option name is not a constant string; declare the option with --source instead", fset.Position(call.Args[i].Pos()), site.Callee)
		}
		return constant.StringVal(tv.Value), nil
	}

	switch {
	case path == "flag" && (recv == "" || recv == "FlagSet"):
		ff, ok := flagFuncs[fn.Name()]
		if !ok {
			return nil, nil
		}
		n, err := name(map[SiteKind]int{ArgPointer: 1}[ff.kind])
		if err != nil {
			return nil, err
		}
		site.Kind = ff.kind
		site.Set = Setter{Flag: "-" + n}
		switch ff.kind {
		case ArgPointer:
			site.Arg = 0
		case FuncParam:
			site.Arg = 2
		}
		s.add(n, ff.typ, site)
	case path == "os" && recv == "" && (fn.Name() == "Getenv" || fn.Name() == "LookupEnv"):
		n, err := name(0)
		if err != nil {
			// Helpers that read a variable named by their caller are common;
			// the callers may name it with constants.
			if len(call.Args) == 0 {
				return nil, err
			}
			site.Kind = Result
			return &helperRead{ref: ref, arg: call.Args[0], site: site, err: err}, nil
		}
		site.Kind = Result
		site.Set = Setter{Env: n}
		s.add(n, "string", site)
	default:
		src, ok := sources[srcKey(path, recv, fn.Name())]
		if !ok {
			return nil, nil
		}
		s.called[srcKey(path, recv, fn.Name())] = true
		site.Kind = Result
		site.Set = src.Set
		typ := "?"
		if res := sig.Results(); res.Len() > 0 {
			typ = types.TypeString(res.At(0).Type(), qualifier)
		}
		s.add(src.Name, typ, site)
	}
	return nil, nil
}

func calleeName(fn *types.Func, recv string) string {
	if recv != "" {
		return "(*" + fn.Pkg().Name() + "." + recv + ")." + fn.Name()
	}
	return fn.Pkg().Name() + "." + fn.Name()
}

func findField(pkgs []*packages.Package, fd Field) (*types.Var, error) {
	var found *types.Package
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.PkgPath == fd.Pkg && p.Types != nil && found == nil {
			found = p.Types
		}
	})
	decl := fd.Pkg + "." + fd.Type + "." + fd.Field
	if found == nil {
		return nil, declErrorf("options: --source-field %s: package %s is not among the loaded packages or their dependencies", decl, fd.Pkg)
	}
	obj, _ := found.Scope().Lookup(fd.Type).(*types.TypeName)
	if obj == nil {
		return nil, declErrorf("options: --source-field %s: no type %s in %s", decl, fd.Type, fd.Pkg)
	}
	st, ok := obj.Type().Underlying().(*types.Struct)
	if !ok {
		return nil, declErrorf("options: --source-field %s: %s is not a struct type", decl, fd.Type)
	}
	for i := 0; i < st.NumFields(); i++ {
		if f := st.Field(i); f.Name() == fd.Field {
			return f, nil
		}
	}
	return nil, declErrorf("options: --source-field %s: struct %s has no field %s", decl, fd.Type, fd.Field)
}

package sources

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"regexp"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// helperDepth bounds how many helpers up a call chain an option name is followed.
const helperDepth = 3

// A callRef is a static call of a function declared in the analysed packages.
type callRef struct {
	call *ast.CallExpr
	info *types.Info
	fset *token.FileSet
	encl *types.Func // the declared function the call is in; nil at package level or in literals
}

// A helperRead is an environment read whose name is not a constant where it is read, but may be
// one along the calls into the function that reads it: `os.Getenv("APP_" + name)` inside
// `func flag(name string) bool`, called as `flag("COMPRESS")`.
type helperRead struct {
	ref  callRef
	arg  ast.Expr
	site Site
	err  error // the warning to give when no call chain names it
}

// resolveHelperReads turns each helper read into one option per call chain that names it: the
// option is loaded (and the runner sets it) as an environment variable of that name, and its
// value is what the outermost call of the chain returns, so the taint analysis follows each call
// site apart. (A helper that does not return what it read, but stores it, is not followed: declare
// it with --source.) Chains that do not name it are warnings.
func (s *Set) resolveHelperReads(reads []helperRead, calls map[*types.Func][]callRef) {
	for _, rd := range reads {
		chs := chains(rd.ref.encl, calls, helperDepth)
		if len(chs) == 0 {
			s.Warnings = append(s.Warnings, rd.err)
		}
		for _, ch := range chs {
			c := ch.site
			name, ok := evalName(rd.arg, rd.ref.info, ch.lookup)
			if !ok || name == "" {
				s.Warnings = append(s.Warnings, fmt.Errorf("%s: the name of the variable %s reads at %s is not a constant along this call; declare the option with --source instead", c.fset.Position(c.call.Pos()), rd.site.Callee, rd.site.Position))
				continue
			}
			site := rd.site
			site.Kind, site.Pos, site.Position = Result, c.call.Lparen, c.fset.Position(c.call.Lparen)
			site.Via = rd.site.Position
			site.Set = Setter{Env: name}
			typ := "string"
			if fn, ok := typeutil.Callee(c.info, c.call).(*types.Func); ok {
				if res := fn.Type().(*types.Signature).Results(); res.Len() > 0 {
					typ = types.TypeString(res.At(0).Type(), qualifier)
				}
			}
			s.add(name, typ, site)
		}
	}
}

// A chain is one way into a function: the outermost call of the chain, and the values its
// parameters take along it.
type chain struct {
	site   callRef
	lookup func(*types.Var) (string, bool)
}

// chains lists the static call chains into fn up to depth calls long. A call whose arguments
// are constants ends a chain; one whose arguments come from its own function's parameters
// continues through that function's callers, and ends there when it has none (or depth is
// reached), leaving a chain whose name cannot be evaluated.
func chains(fn *types.Func, calls map[*types.Func][]callRef, depth int) []chain {
	if fn == nil || depth == 0 {
		return nil
	}
	params := fn.Type().(*types.Signature).Params()
	bind := func(c callRef, outer func(*types.Var) (string, bool)) func(*types.Var) (string, bool) {
		return func(v *types.Var) (string, bool) {
			for i := 0; i < params.Len() && i < len(c.call.Args); i++ {
				if params.At(i) == v {
					return evalName(c.call.Args[i], c.info, outer)
				}
			}
			return "", false
		}
	}
	var out []chain
	for _, c := range calls[fn] {
		if constantArgs(c) {
			out = append(out, chain{site: c, lookup: bind(c, nil)})
			continue
		}
		ups := chains(c.encl, calls, depth-1)
		if len(ups) == 0 { // nothing names it further up: a chain that cannot be evaluated
			out = append(out, chain{site: c, lookup: bind(c, nil)})
		}
		for _, up := range ups {
			out = append(out, chain{site: up.site, lookup: bind(c, up.lookup)})
		}
	}
	return out
}

func constantArgs(c callRef) bool {
	for _, a := range c.call.Args {
		if tv := c.info.Types[a]; tv.Value == nil {
			return false
		}
	}
	return true
}

// plainVerbs matches a format whose only verbs print strings as they are.
var plainVerbs = regexp.MustCompile(`^([^%]|%[sv%])*$`)

// evalName evaluates a string expression built from constants and parameters (looked up in
// env): concatenation, parentheses, fmt.Sprintf with %s and %v, strings.ToUpper and ToLower.
func evalName(e ast.Expr, info *types.Info, env func(*types.Var) (string, bool)) (string, bool) {
	if tv := info.Types[e]; tv.Value != nil {
		if tv.Value.Kind() == constant.String {
			return constant.StringVal(tv.Value), true
		}
		return tv.Value.ExactString(), true
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return evalName(e.X, info, env)
	case *ast.Ident:
		if v, ok := info.Uses[e].(*types.Var); ok && env != nil {
			return env(v)
		}
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			l, ok1 := evalName(e.X, info, env)
			r, ok2 := evalName(e.Y, info, env)
			return l + r, ok1 && ok2
		}
	case *ast.CallExpr:
		fn, _ := typeutil.Callee(info, e).(*types.Func)
		if fn == nil || fn.Pkg() == nil || len(e.Args) == 0 || e.Ellipsis.IsValid() {
			break
		}
		args := make([]any, len(e.Args))
		for i, a := range e.Args {
			s, ok := evalName(a, info, env)
			if !ok {
				return "", false
			}
			args[i] = s
		}
		switch fn.Pkg().Path() + "." + fn.Name() {
		case "fmt.Sprintf":
			if format := args[0].(string); plainVerbs.MatchString(format) {
				return fmt.Sprintf(format, args[1:]...), true
			}
		case "strings.ToUpper":
			return strings.ToUpper(args[0].(string)), true
		case "strings.ToLower":
			return strings.ToLower(args[0].(string)), true
		}
	}
	return "", false
}

package frontend

import (
	"go/ast"
	"go/types"
)

// noReturn is the one table of functions known never to return, keyed by types.Func.FullName
// (the builtin panic is handled beside it). Nothing else is treated as not returning: in
// particular testing's t.Fatal and friends (which call runtime.Goexit) are ordinary calls.
var noReturn = map[string]Term{
	"log.Panic":             TermPanic,
	"log.Panicf":            TermPanic,
	"log.Panicln":           TermPanic,
	"(*log.Logger).Panic":   TermPanic,
	"(*log.Logger).Panicf":  TermPanic,
	"(*log.Logger).Panicln": TermPanic,
	"runtime.Goexit":        TermGoexit,
	"os.Exit":               TermExit,
	"syscall.Exit":          TermExit,
	"log.Fatal":             TermExit,
	"log.Fatalf":            TermExit,
	"log.Fatalln":           TermExit,
	"(*log.Logger).Fatal":   TermExit,
	"(*log.Logger).Fatalf":  TermExit,
	"(*log.Logger).Fatalln": TermExit,
}

// callTerm says how the call e (if it is one) ends the function. With no type information only
// the builtin panic is recognised, by name.
func callTerm(info *types.Info, e ast.Expr) Term {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return TermNone
	}
	var id *ast.Ident
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return TermNone
	}
	if info == nil {
		if id.Name == "panic" {
			return TermPanic
		}
		return TermNone
	}
	switch obj := info.Uses[id].(type) {
	case *types.Builtin:
		if obj.Name() == "panic" {
			return TermPanic
		}
	case *types.Func:
		return noReturn[obj.FullName()]
	}
	return TermNone
}

// isBuiltin reports whether the call's function is the named builtin.
func isBuiltin(info *types.Info, call *ast.CallExpr, name string) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || id.Name != name {
		return false
	}
	if info == nil {
		return true
	}
	b, ok := info.Uses[id].(*types.Builtin)
	return ok && b.Name() == name
}

// callsRecover reports whether the deferred call is a function literal whose body calls
// recover() directly (not inside a nested function literal): only then can recover stop a panic.
func callsRecover(info *types.Info, call *ast.CallExpr) bool {
	lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit)
	if !ok {
		return false
	}
	found := false
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if isBuiltin(info, n, "recover") {
				found = true
				return false
			}
		}
		return true
	})
	return found
}

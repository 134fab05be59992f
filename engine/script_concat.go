//go:build !nolua

package engine

// Lua 5.1's ".." for scripts compiled by gopher-lua. gopher-lua's VM writes a number it
// concatenates in Go's shortest form ("x" .. 1/3 is "x0.3333333333333333", 1e15 .. "" is
// "1000000000000000", 1/0 .. "" is "+Inf"); Lua 5.1 writes "%.14g" ("x0.33333333333333",
// "1e+15", "inf"), and a script's strings are what it stores with redis.call. So every
// concatenation of a script is compiled as a call of luaConcat51, which formats numbers as Lua
// does: luaCompile parses the script, rewrites each `a .. b` of the syntax tree into
// `<concat>(a, b, "<name of a>", "<name of b>")` and compiles the tree.
//
//   - The function is reached through a local of the main chunk, `local <concat> = <concat>`,
//     whose name starts with a NUL byte: no script can write it, and the global of that name
//     is answered by the globals' __index (it is not in _G, so pairs(_G) does not list it).
//   - Lua 5.1 concatenates a chain a .. b .. c from the right (lvm.c luaV_concat); the rewrite
//     nests the same way, a .. (b .. c), and evaluates the operands left to right as Lua does.
//   - A table or userdata operand goes to its __concat metamethod (the left operand's, else the
//     right one's); any other operand that is not a string or a number raises Lua 5.1's
//     "attempt to concatenate local 'x' (a nil value)" (luaG_concaterror, naming the operand
//     at fault as getobjname would: local, upvalue, global, field 'k' or field '?' for a
//     non-string key; no name for a call, a constant or a sub-expression), at the line of the
//     concatenation.

import (
	"strings"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/ast"
	"github.com/yuin/gopher-lua/parse"
)

// luaConcatName is the local (and the global) through which a script reaches luaConcat51.
const luaConcatName = "\x00concat"

// luaCompileTree parses src, rewrites its concatenations and compiles it.
func luaCompileTree(L *lua.LState, chunk, src string) (*lua.LFunction, error) {
	tree, err := parse.Parse(strings.NewReader(src), chunk)
	if err != nil {
		return nil, err
	}
	w := &concatWalker{}
	w.open(false)
	w.block(tree)
	if w.rewrote {
		decl := &ast.LocalAssignStmt{Names: []string{luaConcatName}, Exprs: []ast.Expr{&ast.IdentExpr{Value: luaConcatName}}}
		decl.SetLine(1)
		decl.SetLastLine(1)
		tree = append([]ast.Stmt{decl}, tree...)
	}
	proto, err := lua.Compile(tree, chunk)
	if err != nil {
		return nil, err
	}
	return L.NewFunctionFromProto(proto), nil
}

// luaConcat51 is luaV_concat for one pair: (a, b, name of a, name of b).
func luaConcat51(L *lua.LState) int {
	a, b := L.Get(1), L.Get(2)
	as, aok := luaStringish(a)
	bs, bok := luaStringish(b)
	if aok && bok {
		L.Push(lua.LString(as + bs))
		return 1
	}
	mm := L.GetMetaField(a, "__concat")
	if mm == lua.LNil {
		mm = L.GetMetaField(b, "__concat")
	}
	if mm != lua.LNil {
		L.Push(mm)
		L.Push(a)
		L.Push(b)
		L.Call(2, 1)
		return 1
	}
	bad, name := a, L.ToString(3)
	if aok {
		bad, name = b, L.ToString(4)
	}
	if name != "" {
		L.RaiseError("attempt to concatenate %s (a %s value)", name, bad.Type().String())
	}
	L.RaiseError("attempt to concatenate a %s value", bad.Type().String())
	return 0
}

type concatScope struct {
	fn    int
	names map[string]bool
}

type concatWalker struct {
	scopes  []concatScope
	fn      int
	rewrote bool
}

func (w *concatWalker) open(newFn bool) {
	if newFn {
		w.fn++
	}
	w.scopes = append(w.scopes, concatScope{fn: w.fn, names: map[string]bool{}})
}

func (w *concatWalker) close(fnEnd bool) {
	w.scopes = w.scopes[:len(w.scopes)-1]
	if fnEnd {
		w.fn--
	}
}

func (w *concatWalker) declare(names ...string) {
	for _, n := range names {
		w.scopes[len(w.scopes)-1].names[n] = true
	}
}

// nameOf is what Lua 5.1's getobjname would call the operand e ("" for none).
func (w *concatWalker) nameOf(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.IdentExpr:
		for i := len(w.scopes) - 1; i >= 0; i-- {
			if w.scopes[i].names[x.Value] {
				if w.scopes[i].fn == w.fn {
					return "local '" + x.Value + "'"
				}
				return "upvalue '" + x.Value + "'"
			}
		}
		return "global '" + x.Value + "'"
	case *ast.AttrGetExpr:
		if k, ok := x.Key.(*ast.StringExpr); ok {
			return "field '" + k.Value + "'"
		}
		return "field '?'"
	}
	return ""
}

// concatEndLine is the line of the last token of e, where Lua 5.1 codes the OP_CONCAT (the
// lexer's lastline when the right operand has been read).
func concatEndLine(e ast.Expr) int {
	switch x := e.(type) {
	case *ast.StringConcatOpExpr:
		return concatEndLine(x.Rhs)
	case *ast.ArithmeticOpExpr:
		return concatEndLine(x.Rhs)
	case *ast.LogicalOpExpr:
		return concatEndLine(x.Rhs)
	case *ast.RelationalOpExpr:
		return concatEndLine(x.Rhs)
	case *ast.AttrGetExpr:
		return max(concatEndLine(x.Object), concatEndLine(x.Key))
	}
	if l := e.LastLine(); l > e.Line() {
		return l
	}
	return e.Line()
}

func (w *concatWalker) block(stmts []ast.Stmt) {
	for _, s := range stmts {
		w.stmt(s)
	}
}

// scope walks a block in a scope of its own, where names (a for loop's variables) are local.
func (w *concatWalker) scope(stmts []ast.Stmt, names ...string) {
	w.open(false)
	w.declare(names...)
	w.block(stmts)
	w.close(false)
}

func (w *concatWalker) exprs(es []ast.Expr) {
	for i, e := range es {
		es[i] = w.expr(e)
	}
}

func (w *concatWalker) stmt(s ast.Stmt) {
	switch x := s.(type) {
	case *ast.AssignStmt:
		w.exprs(x.Lhs)
		w.exprs(x.Rhs)
	case *ast.LocalAssignStmt:
		if len(x.Names) == 1 && len(x.Exprs) == 1 {
			if _, ok := x.Exprs[0].(*ast.FunctionExpr); ok {
				w.declare(x.Names[0]) // local function f (compileLocalAssignStmt registers f first)
			}
		}
		w.exprs(x.Exprs)
		w.declare(x.Names...)
	case *ast.FuncCallStmt:
		x.Expr = w.expr(x.Expr)
	case *ast.DoBlockStmt:
		w.scope(x.Stmts)
	case *ast.WhileStmt:
		x.Condition = w.expr(x.Condition)
		w.scope(x.Stmts)
	case *ast.RepeatStmt:
		w.open(false)
		w.block(x.Stmts)
		x.Condition = w.expr(x.Condition) // the body's locals are visible in until
		w.close(false)
	case *ast.IfStmt:
		x.Condition = w.expr(x.Condition)
		w.scope(x.Then)
		w.scope(x.Else)
	case *ast.NumberForStmt:
		x.Init = w.expr(x.Init)
		x.Limit = w.expr(x.Limit)
		if x.Step != nil {
			x.Step = w.expr(x.Step)
		}
		w.scope(x.Stmts, x.Name)
	case *ast.GenericForStmt:
		w.exprs(x.Exprs)
		w.scope(x.Stmts, x.Names...)
	case *ast.FuncDefStmt:
		if x.Name.Func != nil {
			x.Name.Func = w.expr(x.Name.Func)
		}
		if x.Name.Receiver != nil {
			x.Name.Receiver = w.expr(x.Name.Receiver)
		}
		w.function(x.Func, x.Name.Method != "")
	case *ast.ReturnStmt:
		w.exprs(x.Exprs)
	}
}

func (w *concatWalker) function(f *ast.FunctionExpr, self bool) {
	w.open(true)
	if self {
		w.declare("self")
	}
	if f.ParList != nil {
		w.declare(f.ParList.Names...)
	}
	w.block(f.Stmts)
	w.close(true)
}

func (w *concatWalker) expr(e ast.Expr) ast.Expr {
	switch x := e.(type) {
	case *ast.StringConcatOpExpr:
		na, nb := w.nameOf(x.Lhs), w.nameOf(x.Rhs)
		lhs, rhs := w.expr(x.Lhs), w.expr(x.Rhs)
		w.rewrote = true
		line := concatEndLine(x.Rhs)
		fn := &ast.IdentExpr{Value: luaConcatName}
		fn.SetLine(line)
		call := &ast.FuncCallExpr{Func: fn, Args: []ast.Expr{lhs, rhs, &ast.StringExpr{Value: na}, &ast.StringExpr{Value: nb}}, AdjustRet: true}
		call.SetLine(line)
		call.SetLastLine(line)
		return call
	case *ast.AttrGetExpr:
		x.Object = w.expr(x.Object)
		x.Key = w.expr(x.Key)
	case *ast.TableExpr:
		for _, f := range x.Fields {
			if f.Key != nil {
				f.Key = w.expr(f.Key)
			}
			f.Value = w.expr(f.Value)
		}
	case *ast.FuncCallExpr:
		if x.Func != nil {
			x.Func = w.expr(x.Func)
		}
		if x.Receiver != nil {
			x.Receiver = w.expr(x.Receiver)
		}
		w.exprs(x.Args)
	case *ast.LogicalOpExpr:
		x.Lhs, x.Rhs = w.expr(x.Lhs), w.expr(x.Rhs)
	case *ast.RelationalOpExpr:
		x.Lhs, x.Rhs = w.expr(x.Lhs), w.expr(x.Rhs)
	case *ast.ArithmeticOpExpr:
		x.Lhs, x.Rhs = w.expr(x.Lhs), w.expr(x.Rhs)
	case *ast.UnaryMinusOpExpr:
		x.Expr = w.expr(x.Expr)
	case *ast.UnaryNotOpExpr:
		x.Expr = w.expr(x.Expr)
	case *ast.UnaryLenOpExpr:
		x.Expr = w.expr(x.Expr)
	case *ast.FunctionExpr:
		w.function(x, false)
	}
	return e
}

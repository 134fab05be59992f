package engine

import lua "github.com/yuin/gopher-lua"

func openCJSON(L *lua.LState) *lua.LTable { return L.NewTable() }

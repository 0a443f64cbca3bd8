package rt

import _ "embed"

// Source is rt.go, which augur field build copies into each variant's overlay.
//
//go:embed rt.go
var Source string

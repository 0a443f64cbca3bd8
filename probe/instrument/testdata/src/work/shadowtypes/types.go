// Package shadowtypes names the predeclared types for package shadow, which redeclares them.
package shadowtypes

type (
	Int    = int
	Error  = error
	String = string
	Any    = any
	Bool   = bool
)

// Errorf makes an error.
func Errorf(s string) error { return errString(s) }

type errString string

func (e errString) Error() string { return string(e) }

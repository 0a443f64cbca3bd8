// Package source groups augur's front end: what it knows of a Go program's source before anything
// runs. Subpackages: frontend (loading packages, selecting functions, the statement-level control
// flow graph every model is built on), dom (dominators and post-dominators of any graph), annot
// (reward annotations in comments and rewards files).
//
// The group sits at the bottom of the spine: it must not import any other augur group. It never
// writes to the user's files.
package source

// Package instrument owns augur's measurement of usage profiles: it rewrites the source of the
// packages that hold selected functions so that running them counts, for every selected
// function, its invocations, how often each node of its frontend CFG ran, how often each
// decision outcome was taken and how often a node was unwound by a panic the CFG does not
// show; and it turns the counters a run leaves behind into a profile.Profile.
//
// It must not touch the user's files or go.mod: every rewritten file and the injected runtime
// file are written into a work directory and reach the go command through -overlay only. It
// builds no model (synthesis does) and defines no CFG (frontend does).
//
// Its size (about 8.8k lines) is one rewrite with several ways of counting that must agree node
// for node: pinned per-P commits, twins counting Ball–Larus paths (paths.go, pathticks.go),
// loops counted in registers (regloop.go) or without a path register (triploop.go), frames for
// functions that defer, guards and indexes known not to panic (guard.go, maypanic.go,
// safeindex.go), leaves counted at their call sites (derive.go), and the timing build
// (timing.go). They share one plan per function (plan.go) and one set of edits per file, and
// TestPackagesAgree compares them on every test package; splitting them would export both.
//
// # How counting works
//
// Each instrumented package gets one extra file (zz_augur_rt.go) and one extra package, a copy of
// package rt at <its path>/zz_augurrt that holds the runtime. Inserted code refers to nothing
// predeclared and to nothing unqualified but its own names, whose prefix "_augur_" becomes
// "_augur<k>_" if the package has names starting with it (rt aliases the predeclared types;
// guards, which use len, cap, uint64 and nil, are left out where the package declares one), so
// a package may redeclare any predeclared identifier. go test workloads run with -vet=off: vet
// runs in each package's directory, and rt's exists only in the overlay.
//
// The generated file declares _augur_cs, one block of uint64 counters per P (GOMAXPROCS, the number
// of CPUs or 8, whichever is largest) and an overflow block; more blocks are added while the
// program runs, for twins (below). Counters 0 to 8 of a block are no function's (the twins' spill
// word and loop mirrors). When the environment variable AUGUR_PROFILE_DIR names a directory, the
// blocks are a MAP_SHARED memory mapping of a file created there (one per package per process, with
// a JSON header naming the package, the layout and its functions; blocks are whole pages apart, and
// the file grows by the blocks added), so counts survive os.Exit and crashes; otherwise anonymous
// memory. Outside twins, a probe pins its goroutine to its P (runtime.procPin, as sync.Pool does:
// no preemption, so no other goroutine runs on that P until it unpins) and adds to that P's block
// with a plain add, so counts are exact with any number of goroutines and no cache line bounces
// between cores; the Ps beyond the blocks (GOMAXPROCS raised at run time) share the overflow block
// under a spin lock. The reader adds the blocks up. A flush that adds several counters at once (the
// locals of a register loop, the counts of a frame function's invocation) goes through a redo
// journal at the end of the P's block (rt's commit), so that a process ending in the middle of it
// (os.Exit in another goroutine) leaves all of it or none. The race detector does not shadow the
// mappings, and the adds are exclusive anyway, so -race reports nothing of the probes. Probes are
// inserted on the existing lines, so line numbers in errors, panics and stack traces are the
// user's.
//
// A function that calls instrumented functions of its package has a twin, _augur_t_F, whose first
// parameter is a block of counters its goroutine holds alone (twins.go), and its static calls of
// other instrumented functions of the package call their twins with the block, so that those have
// twins too. F itself becomes an entry: it takes a block (rt.Get: pinned, from its P's cache of
// free blocks, else from a shared list or new ones at the end of the file), calls the twin and
// gives the block back (deferred, so that a panic unwinding through it gives it back). The reader
// adds every block up, so blocks are never zeroed nor merged; there are as many as goroutines
// running in the package at once, plus those the caches hold. Function values, interfaces, go and
// defer statements, function literals and callers outside the build's instrumented packages go
// through entries. A twin's static call of an exported function of another instrumented package
// that its package imports calls that function's side entry, AugurSide_F, with a side slot of its
// own block: the slot holds a block of the other package, taken the first time and kept for good
// (rt.Side), so the twins of both packages count into blocks their goroutine holds, and the call
// takes no block and pins nothing (goldmark's renderer calls util.EscapeHTMLByte per byte;
// go-toml's decoder calls its parser's methods). The side entry looks as an entry does and ends
// with rt.SideDone; a panic unwinding from the callee's twin leaves its spill in the slot's block,
// which the entry's Put, finding its own spill set by the call's node, adds through the slot (rt's
// unwound and the package's AugurUnwound_<digest>). A twin is appended to its function's file under
// a //line comment with the function's own line, so positions stay the user's; frames are named
// after the twin. Functions that would behave otherwise under another frame or name get none
// (recover, runtime.Caller and the like, testing's Helper, //go: directives, init, a type parameter
// named _, functions that defer). A generic function's twin is generic too; the entry instantiates
// it with its own type parameters.
//
// A twin counts paths, not nodes (paths.go): its probes keep a path number in a register, add a
// constant to it on the outcomes of its decisions (Ball and Larus's numbering of the paths of the
// CFG cut into an acyclic graph), and where a path ends (before a call of anything but a leaf of
// the package that cannot panic, a channel operation or another node that may leave or block; at a
// return; on the back edges of a loop nothing else cuts) add one to that path's counter, one plain
// increment in the goroutine's block, and start the next. A commit being one store, a process that
// ends between two leaves counts that conserve flow (the invocation counted as unwound where its
// last path ended); no journal, no pinning, no locals held across calls. An outcome whose paths
// join no other before they end adds nothing to the register: its value goes into the constant of
// the commit that ends them; a small twin whose loops, cut also where they are entered, leave the
// register known wherever it is read has no register at all (the parser's peek: constant increments
// and stores, so that it stays inlinable). Right before a node that may panic, the twin stores the
// index (plus one) of the counter of the path ending with that node panicking in the block's spill
// word (counter 0); cuts clear it, the entry clears it when the twin returns, and the entry's
// deferred rt.Put, finding it set, counts that path: no guard, no mirror, no deferred flush in the
// twin. A return counts its path before its results are evaluated; where they may panic its spill
// names its undo counter, subtracted from its returns. A call of a twin that may store the spill
// after which something in the same node may still panic goes through the entry instead, unless the
// node starts a path (a cut before it): the callee then clears the spill where it returns, and the
// panic, storing nothing, is where the caller's last path ended. (A twin in which nothing may panic
// and that cuts no path but to keep a loop's register constant never stores the spill: the caller's
// stays.) The calls of derived leaves (below) in a decision's condition are bits of the path
// number, which the outcome, or the pure operands re-evaluated there, decide (pathticks.go).
//
// An increment of the same counter on every iteration of a small loop is a chain of stores and
// loads that costs more than the loop's body: a loop of a twin that nothing in cuts (it calls only
// leaves that cannot panic and derived leaves; only derived leaves, where it is mirrored: a mirror
// must hold until the loop is left) and holds no other loop, and that steps a variable to a bound
// or ranges (in a twin too large to be inlined, any such loop), counts its cycles (the paths from
// the cut on its back edges to it, at most four) in registers, added to their counters where it is
// left; where something in it may panic, each count is also stored in the block (counters 1 to 8 of
// a block are these mirrors and their counters' indexes), and Put adds it. A cycle starts and ends
// at the same node, so cycles counted in part leave counts that conserve flow. Collect turns the
// paths' counts back into node counts, outcomes and panics. A function whose paths cannot be
// numbered (no register region, more than 4096 paths, a cut where no code can go) gets no twin and
// counts as below.
//
// Whether a function ran on several goroutines at once is seen at entry (rt.Enter): an invocation
// that comes while the function's look window is open (rt.Shut: a flag read, no pinning) records
// its thread as the function's owner if it has none, or counts an overlap if another thread owns
// it; the owner gives the function up when it returns (a frame function's exit hook, or code before
// the returns). A window is open at the start and reopens where a commit of the function's
// invocation counter on a P passes a multiple of rt.WindowPeriod (16384); it shuts after
// rt.WindowLooks (256) looks, so one invocation in 64 looks, but the branch that decides keeps its
// outcome over long runs of invocations, and every thread looks at once. A twin has no invocation
// counter of its own: a large one that cannot panic looks at one invocation in 16 by a draw from
// the thread's generator (runtime.cheaprand), and every entry looks for its function through its
// package's entries' window, which reopens where the count of blocks taken on a P passes a multiple
// of rt.WindowPeriod (rt.Counters.Window); the entry's block records the ownership, and its
// deferred Put gives it up however the twin returned or unwound (rt.HeldEnter). Any other
// frame-free function that may panic could unwind past the code before its returns and leave a
// stale owner, so it does not take ownership; outside body regions it only looks (rt.Check, through
// rt.Peek), in them not even that, and a twin that may panic looks only through its entry: nothing
// but its own invocations could own it, so such a function is never seen running concurrently
// unless called from outside its package (a gap: it would need an exit hook; in the twins of the
// kernels, a window read and the ownership held across the body cost Fib 1.05x -> 1.56x and
// QuickSort 1.28x -> 1.66x). Nor does a small twin (one the compiler may inline) look but through
// its entry: the calls would stop its inlining; nor a brief body region (no loop, no call it
// commits before: isDigit, a getter), where the look at entry costs more than the body.
// profile.Func.Concurrent says an overlap was seen.
//
// What may panic is decided from the syntax, conservatively (maypanic.go), but for cases the
// compiler also proves: an index x[i] in the body of "for i := c; i < len(x); i++" (c a nonnegative
// constant) or "for i := range x", x a slice, an array or a string, where x and i are the
// function's own variables, used in no function literal, never addressed, that nothing in the loop
// assigns but its post statement (safeindex.go); an index of an array by a constant, or by a byte
// where the array has 256 elements or more (a lexer's table); a comparison with nil; a read of a
// map whose key's type holds no interface (a write panics on a nil map); a dereference of a
// parameter (the receiver included) that nothing assigns, or of a local variable that nothing
// assigns but its definition, which every path to it has dereferenced already or left a comparison
// with nil by the outcome that says it is not nil (derefSafe: a method that reads r.x in a for
// header after "if r.y < 0" needs no frame for it; "if v != nil { return *v }"). Such a loop,
// indexByte's, needs no spill, guard or mirror for its indexes. Calls of standard-library functions
// that return for every argument without panicking, blocking or calling back (strings.IndexByte,
// utf8.DecodeRuneInString, unicode.IsSpace, strconv.Atoi: stdLeaves) are leaves of every package:
// nothing commits before them.
//
// Once the counts are read, every function's are checked against all flow equations (the
// redundant ones too) and for counts below zero, and a twin's paths for a node left more often
// than reached; a function that fails makes Collect return an *InconsistentError naming it, and
// augur profile writes no profile.
//
// Outside twins, not every quantity is counted: per function the runtime counts invocations, one
// outcome counter at the start of each branch target (then-block, loop body, case clause, select
// clause) except one "free" outcome per decision, deferred-call runs, and panics; every other node
// count and outcome is derived exactly by flow conservation (Count = inflow; a decision's Count = Σ
// outcomes + Panics; a plain node's outflow = Count − Panics). Where the free outcomes leave a
// cycle undetermined (an infinite loop, a goto loop), more counters are added until the equations
// determine everything; Plan checks this when instrumenting, not after the run.
//
// A function without defer statements keeps no frame: its Panics are unknowns of the same
// equations, and more counters are placed until the equations determine them (Panics = Count −
// outflow): the count of a statement before it runs, the outflow of a may-panic statement after
// it completes (a return: after its results are evaluated), an outcome, or the times the
// function falls off the end of its body. Candidates are tried from the least nested outward and
// the redundant ones dropped, so the panics of a loop body are usually derived from a count
// after the loop. Only if that fails does the function get the frame.
//
// Pinning costs two runtime calls, more than the body of a small function, so a frame-free function
// counts in locals wherever it can and pins once per commit. Its whole body is one register region
// unless it has a goto to a loop statement or ranges over a function or a channel (a goto to any
// other statement is an edge like the others): every counter, the invocations included, is a local,
// committed in one journalled pinned flush before each return, at the end of the body, and right
// before every node that may leave otherwise than by returning or by a panic a guard foresees (a
// call of anything but a leaf of the package that cannot panic, a channel, select or go operation,
// a range over a map, a may-panic operation no guard expresses: an index of a map outside loops; a
// concurrent write to the map is a fatal error, which ends the process as os.Exit elsewhere would,
// the counts consistent), except a call in a loop of a leaf that may panic (it can only return or
// unwind): the region then mirrors its locals for the deferred flush (below). A flow analysis over
// the CFG (dirtySets) finds which locals may be non-zero before each node, so that a flush commits
// only those (the flush before a call in a loop commits the counters touched since the last one,
// not every local of the function). Other may-panic nodes get guards, whose flush (which runs only
// before a panic) calls rt's Apply to keep loops small, and counts the node's panic in the same
// commit: the function is planned again with those Panics counted, so that no count placed after a
// guarded node serves only to derive its panics (every return would flush it). A guard may be true
// without a panic following (it may over-approximate); the panic it counted is then taken back by
// the next flush (an undo, _augur_ui and _augur_uv, in every commit while it is set), and a process
// that ends before leaves the invocation counted as unwound at that node. A guard's block ends in
// the node's panic where it can: a simple statement runs in it (and in an else, where the guard is
// false), a condition or a defined value is evaluated again, one block per term of the guard, so
// that the compiler sees each block end in a panic, keeps the locals in registers on the path that
// goes on and drops its own bounds check after the guard (see reeval). A region with a may-panic
// node without a guard inside a loop mirrors its locals instead, for a deferred flush if the
// function unwinds; its calls still flush before they run (a call may block for as long as the
// process lives, a server's accept loop, and what is held in locals would never be counted). An
// invocation the process ends in the middle of keeps what was flushed before the node it was at
// (nothing, if nothing was): counted as unwound there.
//
// A tiny leaf (a function of the package, unexported, whose body is one return of an expression
// without calls that cannot panic: isDigit, isSpace; a dereference of a variable that the left
// operand of an && compared unequal to nil cannot) that is referenced only by direct calls in
// instrumented functions is not instrumented at all: its every node runs once per invocation, so
// its invocations say everything, and they are counted at the call sites, where a call that
// returned adds one to a counter of the caller (an increment of a local of the caller's region,
// inlined, where no panic of the call's node can follow the call; in a twin, a bit of the path
// number where the call is in a decision's condition (the outcome, or the pure operands
// re-evaluated there, tell whether it ran: pathticks.go), else an increment of the counter in its
// block; in a function with a frame, an increment of a slot of its array; else a pinned add).
// Collect adds the sites up. Pinning in a function of two comparisons costs ten times the function
// and stops its inlining; a lexer calls one per byte. Such a leaf is never seen running on several
// goroutines at once. A tiny leaf that is exported, a method (which interfaces may call, unseen),
// or referenced otherwise too (a value, a go or defer statement, a test file), is split: it keeps
// its own probe for the calls augur does not see, and the direct calls in the instrumented
// functions of the build, in its package or in another that imports it, call a copy without probes
// (AugurLeaf_F; augurLeaf_f for an unexported leaf f; a method's copy is a method: go-toml's
// Node.Valid, "n != nil && n.Kind != Invalid") and count as above; Collect adds them to the leaf's
// own count. A guard that evaluates part of a node again calls a copy, or a function that counts
// nothing, never one that counts itself. See derive.go.
//
// Where the body cannot be a region, an outermost loop that calls nothing but leaves of the package
// or of the build's other packages (functions that call only pure builtins and other leaves and do
// nothing that blocks or ends the goroutine; those of another package count into their own
// counters, so that their calls cut no twin's path either) and can end only by unwinding (no
// channel, map, go, select, defer; range only over slices, arrays, strings and integers; no goto
// and no labelled jump out of it) counts in local variables, added to the counters where the loop
// is left (after it, before a return in it). If something in it may panic and every such operation
// is an index of a slice, string or array, a slice of a slice or string, a dereference (*p, p.f,
// &p.f), a type assertion, an integer division or modulo, or a shift by a signed count (in a
// statement, an if or switch without init, or the condition of a for loop without init and post),
// each one is preceded by a guard that repeats the runtime's check and flushes the locals only when
// it would fail (uint64(i) >= uint64(len(s)), y == 0, n < 0, p == nil, x not holding a T): no
// defer, so the function stays inlinable, and the compiler drops the guard wherever it drops the
// bounds check. Otherwise (a conversion to an array or array pointer, a comparison of interfaces, a
// slice of an array, a leaf that may panic), each local is also stored, after each increment, into
// a stack array that a deferred flush adds to the counters when the function unwinds (normal exits
// leave it zeroed). Such locals are lost only when the process ends while the loop runs (os.Exit or
// a crash elsewhere, main returning, a signal, a fatal error): the invocation then counts as
// unwound where its counted part stops.
//
// Otherwise panics the CFG does not show are found without recover: a function that defers (or
// whose panics cannot be derived) keeps a local frame {cur, chain} and counts into a local
// array, one slot per counter it increments, that its deferred exit hook adds to the P's block
// when the invocation ends; an invocation still running when the process ends is not counted at
// all (a part of it would break flow conservation: nothing counts where it stopped). A node
// that may panic (it calls, indexes, dereferences, divides, asserts, sends, ...) stores its ID
// in cur before it runs; return statements set chain to "returning" after their results are
// evaluated; the deferred exit hook, registered first and so run last, sees a frame still "in
// the body" only when the function is unwinding, and counts
// Panics[cur] unless cur is an explicit panic/Goexit the CFG shows. Deferred calls are bracketed
// by two more deferred hooks (pre counts the DeferRun node of the current chain, post detects
// whether the call returned, panicked, or recovered by looking at the runtime frame that called
// it: runtime.gopanic, runtime.Goexit, or the function). A panic that a deferred call recovers
// where the CFG shows no recovery (no panic chain for the deferred calls registered where a
// callee panicked, or a deferred named function or method that recovers) is counted in
// Recovered when the function then returns normally: synthesis sends it to End. Nothing calls
// recover: behaviour, output, exit status and panic messages are unchanged.
package instrument

// Package field is the group of field profiling (Diep, Elbaum and Cohen, "Profiling Deployed
// Software: Strategic Probe Placement"): a bounded number of probes per deployed variant, spread
// across many variants, and what the field's counts tell about coverage, hot spots and usage.
//
// field/plan owns units, allocation strategies and release manifests; field/sim replays
// allocations on full traces to measure what each strategy would have seen; field/build builds
// a release's variants, with field/rt, the runtime deployed in them, which sends field/wire's
// packages; field/store and field/collect are the collector that receives them, and
// field/estimate what the received counts say; field/pipeline is each augur field subcommand as
// one call. The group may import source and probe; it must
// not import analyze, options, fit or cmd.
package field

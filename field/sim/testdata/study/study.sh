#!/bin/sh
# study.sh OUT records the field study's full traces (docs/field.md, "A study on a real
# program's users"): github.com/russross/blackfriday/v2 v2.1.0, a Markdown processor, rendering
# the Markdown documents of 30 real projects (one site each, with the configuration of its
# site: default, strict, rich or safe in turn), two runs per site (the project's documents split
# in two: alternate files, or the two halves of a single file), every statement counted by
# `augur profile`; and the in-house profile, blackfriday's own test suite. It writes
# OUT/traces/SITE.RUN.json, OUT/inhouse.json and both in OUT/traces.json.gz. It needs the module proxy (or a module cache
# holding the modules below) and augur on PATH or in $AUGUR; the in-house run, blackfriday's tests
# with every statement counted, takes most of the time (minutes on a loaded machine).
set -eu
out=$(mkdir -p "$1" && cd "$1" && pwd)
augur=${AUGUR:-augur}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

dir() { go mod download -json "$1" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p'; }

# The program: a writable copy of the module (the module cache cannot be overlaid), with the
# workload as cmd/render. The module says go 1.16; augur's counting runtime, added to the
# module by the overlay, needs 1.22.
cp -r "$(dir github.com/russross/blackfriday/v2@v2.1.0)" "$work/bf"
chmod -R u+w "$work/bf"
(cd "$work/bf" && go mod edit -go=1.22)
mkdir -p "$work/bf/cmd/render"
cp "$here/render.go" "$work/bf/cmd/render/main.go"

mkdir -p "$out/traces"
(cd "$work/bf" && "$augur" profile . -o "$out/inhouse.json" -- go test -timeout 2h .)

set -- default strict rich safe
site=0
for mod in \
	github.com/chromedp/chromedp@v0.23.0 github.com/urfave/cli/v2@v2.27.7 \
	gonum.org/v1/gonum@v0.17.0 github.com/spf13/cobra@v1.10.2 github.com/jackc/pgx/v5@v5.12.0 \
	github.com/klauspost/compress@v1.20.1 modernc.org/sqlite@v1.62.0 \
	github.com/prometheus/client_golang@v1.25.0 golang.org/x/tools@v0.52.0 \
	github.com/stretchr/testify@v1.12.1 github.com/prometheus/common@v0.72.0 \
	github.com/google/pprof@v0.0.0-20261016150608-1facf8f91b50 modernc.org/libc@v1.80.1 \
	golang.org/x/telemetry@v0.0.0-20261009151841-97e8ea77aa2a github.com/BurntSushi/toml@v1.6.0 \
	github.com/prometheus/procfs@v0.22.0 github.com/prometheus/client_model@v0.6.3 \
	github.com/pelletier/go-toml/v2@v2.2.4 modernc.org/ccgo/v4@v4.38.1 \
	google.golang.org/protobuf@v1.36.12 github.com/spf13/viper@v1.21.0 \
	github.com/fsnotify/fsnotify@v1.9.0 modernc.org/memory@v1.12.1 golang.org/x/sys@v0.49.0 \
	github.com/pierrec/lz4/v4@v4.1.33 github.com/google/uuid@v1.6.0 \
	github.com/cpuguy83/go-md2man/v2@v2.0.7 golang.org/x/text@v0.42.0 \
	github.com/go-viper/mapstructure/v2@v2.4.0 github.com/caarlos0/env/v11@v11.4.2; do
	site=$((site + 1))
	config=$(eval echo \${$(( (site - 1) % 4 + 1 ))})
	src=$(dir "$mod")
	docs="$work/site$site"
	mkdir -p "$docs/1" "$docs/2"
	files=$(cd "$src" && find . -name '*.md' | LC_ALL=C sort)
	if [ "$(echo "$files" | wc -l)" -eq 1 ]; then
		# One document: its two halves, cut at the first blank line past the middle.
		awk -v n="$(wc -l < "$src/$files")" -v a="$docs/1/doc.md" -v b="$docs/2/doc.md" \
			'{ if (!cut && NR > n/2 && $0 == "") cut = 1; print > (cut ? b : a) }' "$src/$files"
	else
		k=0
		for f in $files; do
			k=$((k + 1))
			cp "$src/$f" "$docs/$(( (k - 1) % 2 + 1 ))/$k.md"
		done
	fi
	for run in 1 2; do
		(cd "$work/bf" && "$augur" profile . -o "$out/traces/site$(printf %02d $site).$run.json" -- \
			go run ./cmd/render -config "$config" "$docs/$run"/*.md)
	done
done

# The traces in one file (augur-field-traces/1), the in-house counts with them: what
# field/sim's TestStudy and `augur field simulate --traces FILE` replay.
"$augur" field simulate --traces "$out/traces" --profile "$out/inhouse.json" --save "$out/traces.json.gz" \
	--strategies rb --bounds 1 --variants 1 --repeat 1 > /dev/null

#!/bin/sh
# The library as a user gets it (pupiltrack(3)): `make install` into a
# temporary prefix, the shared library's soname and exports, the example
# program built against the installed tree with pkg-config (shared and
# static), and the Python module; each gives the rows of `pupiltrack track`.
# Usage: MAKE=make tests/run_lib.sh ./pupiltrack
PT=${1:-./pupiltrack}
case $PT in /*) ;; *) PT=$(pwd)/$PT ;; esac
MAKE=${MAKE:-make}
CC=${CC:-cc}
TMP=$(mktemp -d /tmp/pt-lib.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
passed=0; failed=0
ok()   { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

P=$TMP/prefix
PYDIR=$P/python
if $MAKE --no-print-directory install PREFIX="$P" PYTHONDIR="$PYDIR" >"$TMP/install.log" 2>&1; then ok; else
    fail "make install PREFIX=$P"; tail -5 "$TMP/install.log"; echo "lib: $passed passed, $failed failed"; exit 1; fi
for f in bin/pupiltrack include/pupiltrack.h lib/libpupiltrack.a lib/libpupiltrack.so \
         lib/libpupiltrack.so.0 lib/pkgconfig/pupiltrack.pc share/man/man3/pupiltrack.3 python/pupiltrack.py; do
    [ -e "$P/$f" ] && ok || fail "make install did not install $f"
done

# The soname carries the interface's major version; only the functions the
# header marks PT_API are exported.
so=$(readelf -d "$P/lib/libpupiltrack.so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$so" = libpupiltrack.so.0 ] && ok || fail "soname '$so', wanted libpupiltrack.so.0"
nm -D --defined-only "$P/lib/libpupiltrack.so" | awk '$2 ~ /^[TDBRWViu]$/ { print $3 }' | sort >"$TMP/exported"
sed -n 's/^PT_API .*[ *]\([a-z_0-9]*\)(.*/\1/p' "$P/include/pupiltrack.h" | sort >"$TMP/declared"
if cmp -s "$TMP/exported" "$TMP/declared" && [ -s "$TMP/declared" ]; then ok; else
    fail "exports differ from the header's PT_API functions"; diff "$TMP/declared" "$TMP/exported" | head -10; fi

# Frames both programs read: 8-bit PGM.
"$PT" synth -n 4 --format pgm -o "$TMP/mono" >/dev/null 2>&1 &&
"$PT" synth -n 2 --binocular --size 640x256 --format pgm -o "$TMP/bino" >/dev/null 2>&1 && ok ||
    fail "synth --format pgm"

# The example against the installed tree, through pkg-config.
export PKG_CONFIG_PATH="$P/lib/pkgconfig"
flags=$(pkg-config --cflags --libs pupiltrack) && ok || fail "pkg-config --cflags --libs pupiltrack"
if $CC -std=c11 -Wall -Wextra -Werror -o "$TMP/track_frames" scripts/examples/track_frames.c $flags \
    2>"$TMP/cc.err"; then ok; else fail "example does not build with pkg-config"; head -5 "$TMP/cc.err"; fi
# static: the archive and its private libraries from pupiltrack.pc
if $CC -std=c11 -o "$TMP/track_frames_static" scripts/examples/track_frames.c \
    $(pkg-config --cflags pupiltrack) "$P/lib/libpupiltrack.a" \
    $(pkg-config --static --libs pupiltrack | sed 's/-lpupiltrack//') 2>"$TMP/cc.err"; then ok; else
    fail "example does not link the static library"; head -5 "$TMP/cc.err"; fi

# track's rows, cut to the columns the example prints
track_rows() { # OUT OPTIONS... FRAMES...
    out=$1; shift
    "$PT" track -o "$TMP/track.csv" "$@" 2>/dev/null
    awk -F, 'NR > 1 { print $1 "," $2 "," $5 "," $6 "," $7 "," $8 "," $12 }' "$TMP/track.csv" >"$out"
}
example_rows() { # OUT PROGRAM OPTIONS... FRAMES...
    out=$1; prog=$2; shift 2
    LD_LIBRARY_PATH="$P/lib" "$prog" "$@" >"$TMP/example.csv" 2>"$TMP/example.err"
    awk -F, 'NR > 1 { print $1 "," $2 "," $3 "," $4 "," $5 "," $6 "," $7 }' "$TMP/example.csv" >"$out"
}
for prog in track_frames track_frames_static; do
    track_rows "$TMP/want" "$TMP"/mono/*.pgm
    example_rows "$TMP/got" "$TMP/$prog" "$TMP"/mono/*.pgm
    if [ -s "$TMP/want" ] && cmp -s "$TMP/want" "$TMP/got"; then ok; else
        fail "$prog: rows differ from track"; diff "$TMP/want" "$TMP/got" | head -4; fi
done
track_rows "$TMP/want" -a hough --binocular "$TMP"/bino/*.pgm
example_rows "$TMP/got" "$TMP/track_frames" -a hough -p binocular=1 "$TMP"/bino/*.pgm
if [ "$(wc -l <"$TMP/want")" -eq 4 ] && cmp -s "$TMP/want" "$TMP/got"; then ok; else
    fail "track_frames -a hough binocular: rows differ from track"; diff "$TMP/want" "$TMP/got" | head -4; fi
# -b cuda through the library, where a GPU is usable (else track exits 3)
if "$PT" track -b cuda -o "$TMP/cuda.csv" "$TMP"/mono/000000.pgm >/dev/null 2>&1; then
    track_rows "$TMP/want" -b cuda -a tl "$TMP"/mono/*.pgm
    example_rows "$TMP/got" "$TMP/track_frames" -b cuda -a tl "$TMP"/mono/*.pgm
    if [ -s "$TMP/want" ] && cmp -s "$TMP/want" "$TMP/got"; then ok; else
        fail "track_frames -b cuda: rows differ from track -b cuda"; diff "$TMP/want" "$TMP/got" | head -4; fi
else
    LD_LIBRARY_PATH="$P/lib" "$TMP/track_frames" -b cuda "$TMP"/mono/000000.pgm >/dev/null 2>"$TMP/err"
    [ $? -eq 3 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && ok ||
        fail "track_frames -b cuda without a GPU: exit 3 and one line"
    echo "SKIP: the library on the CUDA back end: no usable GPU here"
fi
# errors: one line, the reason named
LD_LIBRARY_PATH="$P/lib" "$TMP/track_frames" -p rays=many "$TMP"/mono/000000.pgm >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "rays" "$TMP/err" && [ "$(wc -l <"$TMP/err")" -eq 1 ] && ok ||
    fail "bad parameter: exit 2 and one line naming it"

# The Python module, as installed (numpy arrays in, dicts out).
python=
for candidate in ${PYTHON:-python3} /usr/bin/python3; do
    if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import numpy' 2>/dev/null; then
        python=$candidate; break
    fi
done
if [ -z "$python" ]; then
    echo "SKIP: the Python module's test: no python3 with numpy (Debian: apt-get install python3-numpy)"
else
    "$PT" track -o "$TMP/mono.csv" "$TMP"/mono/*.pgm 2>/dev/null
    "$PT" track -a tl --ellipse -o "$TMP/tl.csv" "$TMP"/mono/*.pgm 2>/dev/null
    "$PT" track --binocular -o "$TMP/bino.csv" "$TMP"/bino/*.pgm 2>/dev/null
    for run in "mono.csv mono" "tl.csv mono -- algorithm=tl ellipse=1" "bino.csv bino -- binocular=1"; do
        set -- $run
        csv=$1; dir=$2; shift 2
        if PYTHONPATH="$PYDIR" "$python" tests/lib/module.py "$TMP/$csv" "$TMP/$dir"/*.pgm "$@" \
            >"$TMP/py.out" 2>&1; then ok; else fail "python module ($run)"; head -8 "$TMP/py.out"; fi
    done
fi

echo "lib: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/bin/sh
# Writes an uncompressed 8-bit grey multi-page TIFF (little-endian, one strip
# a page, each page's directory before its pixels) from a .raw stack of
# W x H frames, on standard output:
#   sh tests/tiff_stack.sh W H FRAMES.raw >STACK.tif
# TIFF_COMPRESSION (default 1, none) and TIFF_SHORT_PAGE (a page number whose
# StripByteCounts says 100 bytes) write the tags as given, pixels unchanged,
# for tests of pages that cannot be read.
set -e
w=$1 h=$2 raw=$3
[ -n "$w" ] && [ -n "$h" ] && [ -r "$raw" ] || { echo "usage: $0 W H FRAMES.raw" >&2; exit 2; }
frame=$((w * h))
size=$(wc -c <"$raw")
frames=$((size / frame))
[ "$frames" -ge 1 ] && [ $((frames * frame)) -eq "$size" ] || {
    echo "$0: $raw: $size bytes are not a whole number of ${w}x${h} frames" >&2; exit 1; }
pad=$((frame % 2))
byte() { printf "\\$(printf %o $(($1 & 255)))"; }
le16() { byte "$1"; byte $(($1 >> 8)); }
le32() { le16 $(($1 & 65535)); le16 $(($1 >> 16)); }
# entry TAG TYPE VALUE (count 1; SHORT values left-justified)
entry() {
    le16 "$1"; le16 "$2"; le32 1
    if [ "$2" -eq 3 ]; then le16 "$3"; le16 0; else le32 "$3"; fi
}
ifd_bytes=$((2 + 9 * 12 + 4))
printf 'II*\000'
le32 8
at=8
k=0
while [ "$k" -lt "$frames" ]; do
    pixels=$((at + ifd_bytes))
    next=$((pixels + frame + pad))
    [ $((k + 1)) -lt "$frames" ] || next=0
    bytes=$frame
    [ "$k" != "${TIFF_SHORT_PAGE:-}" ] || bytes=100
    le16 9
    entry 256 4 "$w"
    entry 257 4 "$h"
    entry 258 3 8
    entry 259 3 "${TIFF_COMPRESSION:-1}"
    entry 262 3 1
    entry 273 4 "$pixels"
    entry 277 3 1
    entry 278 4 "$h"
    entry 279 4 "$bytes"
    le32 "$next"
    dd if="$raw" bs="$frame" skip="$k" count=1 2>/dev/null
    [ "$pad" -eq 0 ] || printf '\000'
    at=$((pixels + frame + pad))
    k=$((k + 1))
done

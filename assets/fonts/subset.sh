#!/usr/bin/env bash
# Regenerates the two subset fonts embedded in the browser app (a development-time tool; the
# build does not run it). Needs fontTools (Debian: apt-get install fonttools; pyftsubset and a
# python3 that imports fontTools) and fetches the Go module github.com/go-fonts/liberation v0.3.3,
# which holds the original fonts, with go mod download.
#
# The sources are Liberation Sans and Liberation Mono 2.x Regular (SIL OFL 1.1, LICENSE). A subset
# is a modified version, and "Liberation" (and "Arimo", "Cousine") are Reserved Font Names, so the
# subsets are renamed "Redscope Sans" and "Redscope Mono" (OFL §3).
#
# Kept: Latin (Basic, Latin-1, Extended-A), all of Vietnamese (ơ ư and U+1EA0-1EF9, combining
# marks), basic Greek, the punctuation, arrows, maths and box/shape symbols the scenes draw
# (fonts_test.go checks every text the scenes draw for every built-in lesson). Dropped: hinting
# (golang.org/x/image's rasteriser ignores it), OpenType layout (the app draws with
# golang.org/x/image/font/opentype, which does no shaping), glyph names.
set -euo pipefail
cd "$(dirname "$0")"
src="$(go mod download -json github.com/go-fonts/liberation@v0.3.3 | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
[ -d "$src" ] || { echo "could not download github.com/go-fonts/liberation v0.3.3" >&2; exit 1; }
unicodes="U+0020-007E,U+00A0-017F,U+01A0-01A1,U+01AF-01B0,U+0300-036F,U+0391-03A9,U+03B1-03C9,U+1EA0-1EF9"
unicodes+=",U+2010-2027,U+202F,U+2030-203A,U+2044,U+20AB-20AC,U+2122,U+2190-2199,U+21BA-21BB"
unicodes+=",U+2212,U+2215,U+221A,U+221E,U+2248,U+2260,U+2264-2265,U+2500-25FF,U+FFFD"
sub() { # source, output, new family name, PostScript name
	pyftsubset "$1" --unicodes="$unicodes" --layout-features='' --drop-tables+=GSUB,GPOS,GDEF,gasp \
		--no-hinting --name-IDs='*' --name-languages='*' --output-file="$2"
	python3 - "$2" "$3" "$4" <<'PY'
import sys
from fontTools.ttLib import TTFont
path, family, ps = sys.argv[1:]
f = TTFont(path, recalcTimestamp=False)
name = f["name"]
for rec in list(name.names):
    if rec.nameID in (1, 16):
        rec.string = family
    elif rec.nameID in (4,):
        rec.string = family + " Regular"
    elif rec.nameID == 3:
        rec.string = ps + " (subset of Liberation 2, redscope)"
    elif rec.nameID == 6:
        rec.string = ps
    elif rec.nameID == 2 or rec.nameID == 17:
        rec.string = "Regular"
f["head"].created = f["head"].modified = 0  # reproducible output
f.save(path)
PY
}
sub "$src/liberationsansregular/LiberationSans-Regular.ttf" RedscopeSans-Regular.ttf "Redscope Sans" RedscopeSans-Regular
sub "$src/liberationmonoregular/LiberationMono-Regular.ttf" RedscopeMono-Regular.ttf "Redscope Mono" RedscopeMono-Regular
ls -l RedscopeSans-Regular.ttf RedscopeMono-Regular.ttf

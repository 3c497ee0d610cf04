#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# check-install.sh BUILD_DIR APP_ID BINDIR DATADIR LOCALEDIR: `meson install`
# into a temporary DESTDIR, then checks that what the desktop's menu and the
# installed app need is where they look: both binaries, the desktop file
# (whose Exec names the installed binary and whose Icon is the installed
# icon), the icon, the settings schema (which compiles), the data folder
# (samples, GPU database, language definitions, style schemes), the Korean
# translation, and that the installed kernelscope-cli parses and analyses a
# sample of the installed data (a test of the data suite).
set -u
build="$1" app_id="$2" bindir="$3" datadir="$4" localedir="$5"
dest=$(mktemp -d "${TMPDIR:-/tmp}/ks-install-XXXXXX") || exit 1
trap 'rm -rf "$dest"' EXIT
status=0
fail () {
  echo "not ok: $*"
  status=1
}
has () {
  if [ -e "$dest$1" ]; then echo "ok: $1"; else fail "$1 is not installed"; fi
}

# meson install writes the list of what it installed where `ninja
# uninstall` (build-aux/uninstall.sh) reads it: the user's real install's
# list is kept, not replaced by this one's
log="$build/meson-logs/install-log.txt"
if [ -f "$log" ]; then
  cp -p "$log" "$dest.install-log"
fi
meson install -C "$build" --no-rebuild --destdir "$dest" >"$dest.log" 2>&1
rc=$?
if [ -f "$dest.install-log" ]; then
  mv -f "$dest.install-log" "$log"
else
  rm -f "$log"
fi
if [ $rc -ne 0 ]; then
  cat "$dest.log"
  rm -f "$dest.log"
  echo "not ok: meson install failed"
  exit 1
fi
rm -f "$dest.log"

has "$bindir/kernelscope"
has "$bindir/kernelscope-cli"
desktop="$datadir/applications/$app_id.desktop"
has "$desktop"
icon="$datadir/icons/hicolor/scalable/apps/$app_id.svg"
has "$icon"
has "$datadir/icons/hicolor/symbolic/apps/$app_id-symbolic.svg"
has "$datadir/metainfo/$app_id.metainfo.xml"
schemas="$datadir/glib-2.0/schemas"
has "$schemas/io.github.kernelscope.KernelScope.gschema.xml"
has "$datadir/kernelscope/gpus.json"
has "$datadir/kernelscope/samples/index.json"
has "$datadir/kernelscope/language-specs/ptx.lang"
has "$datadir/kernelscope/styles/kernelscope.xml"
has "$localedir/ko/LC_MESSAGES/kernelscope.mo"

# The menu starts the installed binary, with the installed icon
if [ -f "$dest$desktop" ]; then
  exec_line=$(sed -n 's/^Exec=//p' "$dest$desktop")
  exec_bin=${exec_line%% *}
  if [ "$exec_bin" = "$bindir/kernelscope" ]; then
    echo "ok: Exec=$exec_line"
  else
    fail "the desktop file's Exec is '$exec_line', not $bindir/kernelscope"
  fi
  icon_name=$(sed -n 's/^Icon=//p' "$dest$desktop")
  if [ "$icon_name" = "$app_id" ]; then
    echo "ok: Icon=$icon_name"
  else
    fail "the desktop file's Icon is '$icon_name', not $app_id (the installed icon's name)"
  fi
  if command -v desktop-file-validate >/dev/null 2>&1; then
    desktop-file-validate "$dest$desktop" || fail "desktop-file-validate refuses the desktop file"
  fi
fi

# The schema compiles where the installed app's GSettings reads it (what
# the install's post-install step does outside a DESTDIR)
if command -v glib-compile-schemas >/dev/null 2>&1; then
  if glib-compile-schemas --strict "$dest$schemas" && [ -f "$dest$schemas/gschemas.compiled" ]; then
    echo "ok: the installed schema compiles"
  else
    fail "the installed schema does not compile"
  fi
fi

# The installed binaries look for their data in DATADIR/kernelscope and for
# their translations in LOCALEDIR (compiled in)
for bin in kernelscope kernelscope-cli; do
  if [ -f "$dest$bindir/$bin" ] && grep -qaF "$datadir/kernelscope" "$dest$bindir/$bin"; then
    echo "ok: $bin looks in $datadir/kernelscope"
  else
    fail "$bin does not look for its data in $datadir/kernelscope"
  fi
done
if [ -f "$dest$bindir/kernelscope" ] && grep -qaF "$localedir" "$dest$bindir/kernelscope"; then
  echo "ok: kernelscope looks for its translations in $localedir"
else
  fail "kernelscope does not look for its translations in $localedir"
fi

# The installed CLI on an installed sample: the PTX parses (vector_add's
# one kernel), and with the installed data folder standing for DATADIR the
# analysis finds the GPU database and runs
sample="$dest$datadir/kernelscope/samples/01-vector-add/vector_add"
out=$("$dest$bindir/kernelscope-cli" parse --json "$sample.ptx" 2>&1)
rc=$?
if [ $rc -eq 0 ] && printf '%s' "$out" | grep -q '"name" *: *"_Z10vector_addPKfS0_Pfi"'; then
  echo "ok: the installed kernelscope-cli parses the installed vector_add.ptx"
else
  fail "the installed kernelscope-cli parse exited $rc: $(printf '%s' "$out" | head -c 400)"
fi
out=$(KS_DATA_DIR="$dest$datadir/kernelscope" \
        "$dest$bindir/kernelscope-cli" analyze "$sample.json" 2>&1)
rc=$?
if [ $rc -eq 0 ]; then
  echo "ok: the installed kernelscope-cli analyses the installed vector_add.json"
else
  fail "the installed kernelscope-cli analyze exited $rc: $(printf '%s' "$out" | head -c 400)"
fi
exit $status

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# check-potfiles.sh SOURCE_ROOT: po/POTFILES.in lists every file of src/
# and data/ with translatable strings (_(), N_(), C_(), translatable="yes",
# a gettext-domain, a desktop file or a metainfo), only files that exist,
# in sorted order (a test of the data suite).
set -u
cd "$1" || exit 1
status=0
listed=$(grep -v '^#' po/POTFILES.in | sed '/^[[:space:]]*$/d')
for f in $listed; do
  if [ ! -f "$f" ]; then
    echo "po/POTFILES.in lists $f, which does not exist"
    status=1
  fi
done
if ! printf '%s\n' "$listed" | LC_ALL=C sort -c 2>/dev/null; then
  echo "po/POTFILES.in is not sorted"
  status=1
fi
found=$( (grep -rlE '(^|[^A-Za-z0-9_])(N?_|C_|NC_)\(|translatable="yes"|gettext-domain=' src data \
            --include='*.c' --include='*.ui' --include='*.xml' --include='*.in';
          find data -name '*.desktop.in' -o -name '*.metainfo.xml.in') | LC_ALL=C sort -u)
n=0
for f in $found; do
  n=$((n + 1))
  if ! printf '%s\n' "$listed" | grep -qxF "$f"; then
    echo "$f has translatable strings, but po/POTFILES.in does not list it"
    status=1
  fi
done
[ "$status" -eq 0 ] && echo "$n files with translatable strings, all in po/POTFILES.in"
exit "$status"

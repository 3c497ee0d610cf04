#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# check-screenshots.sh SOURCE_ROOT METAINFO: every picture the AppStream
# metainfo and the README show is a file of docs/screenshots/ (a test of
# the data suite).
set -u
root=$1
metainfo=$2
status=0
n=0
for url in $(sed -n 's|.*<image>\(.*\)</image>.*|\1|p' "$metainfo"); do
  name=${url##*/docs/screenshots/}
  if [ "$name" = "$url" ]; then
    echo "$metainfo: $url is not a picture of docs/screenshots/"
    status=1
  elif [ ! -f "$root/docs/screenshots/$name" ]; then
    echo "$metainfo: $name is not in docs/screenshots/"
    status=1
  fi
  n=$((n + 1))
done
if [ "$n" -eq 0 ]; then
  echo "$metainfo: no screenshots"
  status=1
fi
for name in $(sed -n 's|.*(docs/screenshots/\([^)]*\)).*|\1|p' "$root/README.md"); do
  if [ ! -f "$root/docs/screenshots/$name" ]; then
    echo "README.md: docs/screenshots/$name is missing"
    status=1
  fi
  n=$((n + 1))
done
[ "$status" -eq 0 ] && echo "$n pictures, all in docs/screenshots/"
exit "$status"

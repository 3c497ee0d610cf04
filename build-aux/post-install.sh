#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# post-install.sh DATADIR: after `meson install` (not into a DESTDIR) and
# build-aux/uninstall.sh, the hicolor icon cache and the desktop database of
# DATADIR, where their tools are installed, so the desktop's menu shows
# KernelScope with its icon (or no longer) without a new login.
# glib-compile-schemas is gnome.post_install's.
set -u
datadir="$1"
if [ -d "$datadir/icons/hicolor" ]; then
  if command -v gtk4-update-icon-cache >/dev/null 2>&1; then
    gtk4-update-icon-cache -q -t -f "$datadir/icons/hicolor" || true
  elif command -v gtk-update-icon-cache >/dev/null 2>&1; then
    gtk-update-icon-cache -q -t -f "$datadir/icons/hicolor" || true
  fi
fi
if [ -d "$datadir/applications" ] && command -v update-desktop-database >/dev/null 2>&1; then
  update-desktop-database -q "$datadir/applications" || true
fi
exit 0

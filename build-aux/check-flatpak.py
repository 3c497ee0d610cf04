#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""check-flatpak.py MANIFEST APP_ID: what can be checked of the Flatpak
manifest without building it (the runtimes cannot be downloaded here): it
is JSON, for the release app id, on org.gnome.Platform, runs the window,
may run the host's CUDA toolkit (flatpak-spawn --host), builds this tree
with meson (skipping .git and build folders, so a build folder inside the
tree is not copied into itself), and asks for no path Flatpak refuses to
share (/usr and the like) (a test of the data suite)."""
import json
import sys

RESERVED = ('/usr', '/app', '/bin', '/dev', '/etc', '/lib', '/lib32', '/lib64', '/proc',
            '/run/flatpak', '/run/host', '/sbin', '/.flatpak-info')

def main():
    path, app_id = sys.argv[1], sys.argv[2]
    with open(path, encoding='utf-8') as f:
        m = json.load(f)
    errors = []

    def want(cond, message):
        if not cond:
            errors.append(message)

    want(m.get('id') == app_id, 'id is %r, not %r' % (m.get('id'), app_id))
    want(m.get('runtime') == 'org.gnome.Platform', 'the runtime is not org.gnome.Platform')
    want(m.get('sdk') == 'org.gnome.Sdk', 'the SDK is not org.gnome.Sdk')
    want(str(m.get('runtime-version', '')).isdigit(), 'runtime-version is not a GNOME release')
    want(m.get('command') == 'kernelscope', 'the command is not kernelscope, the window')
    for arg in m.get('finish-args', []):
        if arg.startswith('--filesystem='):
            where = arg.split('=', 1)[1].split(':')[0]
            want(not any(where == r or where.startswith(r + '/') for r in RESERVED),
                 '%s: Flatpak refuses to share %s' % (arg, where))
    want('--socket=wayland' in m.get('finish-args', []), 'no Wayland socket')
    # flatpak-spawn --host, for the host's CUDA toolkit (ks-toolchain-host.c)
    want('--talk-name=org.freedesktop.Flatpak' in m.get('finish-args', []),
         'no --talk-name=org.freedesktop.Flatpak: the host CUDA toolkit cannot be run')
    mods = [mod for mod in m.get('modules', []) if isinstance(mod, dict) and mod.get('name') == 'kernelscope']
    want(len(mods) == 1, 'no module named kernelscope')
    if mods:
        mod = mods[0]
        want(mod.get('buildsystem') == 'meson', 'kernelscope is not built with meson')
        dirs = [s for s in mod.get('sources', []) if s.get('type') == 'dir']
        want(len(dirs) == 1 and dirs[0].get('path') == '..', 'the source is not this tree (dir ..)')
        if dirs:
            skip = dirs[0].get('skip', [])
            for name in ('.git', '_build', '_flatpak', '.flatpak-builder'):
                want(name in skip, 'the source does not skip %s' % name)
    for e in errors:
        print('%s: %s' % (path, e))
    if not errors:
        print('%s: %s on %s %s, command %s' % (path, m['id'], m['runtime'], m['runtime-version'], m['command']))
    return 1 if errors else 0

if __name__ == '__main__':
    sys.exit(main())

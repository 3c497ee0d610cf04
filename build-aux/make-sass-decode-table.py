#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Remake the table of src/core/sass/ks-sass-decode.c: which opcode
# nvdisasm prints for each value of bits 0-11 of a Volta-to-Hopper
# instruction's low word, and in which architecture families.
#
#   build-aux/make-sass-decode-table.py BIN_DIR [PTX ...]
#
# BIN_DIR holds a toolkit's ptxas and nvdisasm that work together (CUDA
# 11.8's, from Debian's non-free nvidia-cuda-toolkit: `apt-get download
# nvidia-cuda-toolkit && dpkg -x nvidia-cuda-toolkit_*.deb x`, then
# x/usr/bin).  Every PTX given (by default every .ptx of the repository
# outside tests/fuzz, and the Probe Lab's probes written with `probe run
# --out`) is assembled for sm_70, 75, 80, 86, 87, 89 and 90 with its
# .version lowered to 7.8, disassembled with -hex, and each instruction's
# low 12 bits are paired with its opcode.  It prints the rows of `rows[]`
# and stops with an error when one code has two names in one family.

import collections
import glob
import os
import re
import subprocess
import sys
import tempfile

FAMILIES = {70: 1, 72: 1, 75: 2, 80: 4, 86: 4, 87: 4, 89: 4, 90: 8}
INSN = re.compile(r'/\*[0-9a-f]{4,}\*/\s+(?:\{\s*)?(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_]*)'
                  r'[^;]*;\s*/\*\s*0x([0-9a-f]{16})\s*\*/')


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__ or 'usage: make-sass-decode-table.py BIN_DIR [PTX ...]')
    bin_dir = sys.argv[1]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ptx = sys.argv[2:] or [p for p in glob.glob(os.path.join(root, '**', '*.ptx'), recursive=True)
                           if '/tests/fuzz/' not in p and '/_build' not in p]
    codes = collections.defaultdict(lambda: collections.defaultdict(int))
    with tempfile.TemporaryDirectory() as tmp:
        for path in ptx:
            text = open(path, errors='replace').read()
            for sm in sorted(FAMILIES):
                fitted = re.sub(r'(?m)^\.version .*', '.version 7.8', text)
                fitted = re.sub(r'(?m)^\.target .*', '.target sm_%d' % sm, fitted)
                src = os.path.join(tmp, 'k.ptx')
                cubin = os.path.join(tmp, 'k.cubin')
                open(src, 'w').write(fitted)
                if subprocess.run([os.path.join(bin_dir, 'ptxas'), '-arch=sm_%d' % sm, src, '-o',
                                   cubin], capture_output=True, timeout=120).returncode != 0:
                    continue
                out = subprocess.run([os.path.join(bin_dir, 'nvdisasm'), '-hex', cubin],
                                     capture_output=True, text=True, timeout=120)
                for m in INSN.finditer(out.stdout):
                    codes[(int(m.group(2), 16) & 0xfff, m.group(1))][FAMILIES[sm]] += 1
    by_code = collections.defaultdict(dict)
    for (code, name), fams in codes.items():
        mask = 0
        for f in fams:
            mask |= f
        by_code[code][name] = mask
    for code, names in sorted(by_code.items()):
        seen = 0
        for name, mask in sorted(names.items()):
            if seen & mask:
                sys.exit('code 0x%03x has two names in one family: %s' % (code, names))
            seen |= mask
            print('  { 0x%03x, 0x%x, "%s" },' % (code, mask, name))


if __name__ == '__main__':
    main()

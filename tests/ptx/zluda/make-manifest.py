#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Turns ZLUDA's hardware-checked PTX tests into MANIFEST.tsv.

ZLUDA (https://github.com/vosen/ZLUDA, MIT/Apache-2.0) runs each PTX file of
ptx/src/test/spirv_run/ on an NVIDIA GPU through the CUDA driver
(`test_cuda_assert` in ptx/src/test/spirv_run/mod.rs): one block of 1 thread
(`test_ptx!`) or 64 threads (`test_ptx_warp!`), 1024 bytes of dynamic shared
memory, and two pointer parameters, input then output (output twice when the
test has no input); the output buffer starts zeroed.  This script reads the
expected values of mod.rs and writes them as little-endian bytes:

    name <TAB> threads <TAB> input hex <TAB> output hex <TAB> output element type

Usage: make-manifest.py ZLUDA_CHECKOUT > MANIFEST.tsv
"""
import math
import re
import struct
import sys

F32_PI = struct.unpack("<f", struct.pack("<f", math.pi))[0]
SIZES = {"u8": 1, "i8": 1, "u16": 2, "i16": 2, "u32": 4, "i32": 4, "u64": 8,
         "i64": 8, "f32": 4, "f64": 8, "f16": 2}
INT_RE = re.compile(r"^(-)?(0x[0-9a-fA-F_]+|0b[01_]+|[0-9_]+)(u8|i8|u16|i16|u32|i32|u64|i64)?$")
FLOAT_RE = re.compile(r"^(-)?([0-9_]+(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?)(f32|f64)?$")


def f16_bits(x):
    return struct.unpack("<H", struct.pack("<e", x))[0]


def value(expr):
    """(python value, type or None, kind) of one Rust element expression."""
    e = expr.strip()
    consts = {
        "u64::max_value()": (2**64 - 1, "u64"), "u32::MAX": (2**32 - 1, "u32"),
        "i32::MIN": (-2**31, "i32"), "i32::MAX": (2**31 - 1, "i32"),
        "f32::NAN": (math.nan, "f32"), "f32::INFINITY": (math.inf, "f32"),
        "f32::NEG_INFINITY": (-math.inf, "f32"), "std::f32::consts::PI": (F32_PI, "f32"),
        "std::f32::consts::PI / 2f32": (F32_PI / 2, "f32"),
        "half::f16::NAN": (math.nan, "f16"), "half::f16::NEG_INFINITY": (-math.inf, "f16"),
        "half::f16::NAN.to_bits()": (0x7E00, "u16"),
    }
    if e in consts:
        return consts[e]
    m = re.match(r"^half::f16::from_f(?:32|64)\((.*)\)$", e)
    if m:
        return (float(m.group(1)), "f16")
    m = re.match(r"^half::f16::from_bits\((.*)\)$", e)
    if m:
        return (struct.unpack("<e", struct.pack("<H", int(m.group(1), 0)))[0], "f16")
    m = re.match(r"^f32::from_bits\((.*)\)$", e)
    if m:
        return (struct.unpack("<f", struct.pack("<I", int(m.group(1), 0)))[0], "f32")
    m = INT_RE.match(e)
    if m:
        v = int(m.group(2).replace("_", ""), 0)
        return (-v if m.group(1) else v, m.group(3))
    m = FLOAT_RE.match(e)
    if m:
        v = float(m.group(2).replace("_", ""))
        return (-v if m.group(1) else v, m.group(3) or "float")
    raise ValueError(f"cannot read {e!r}")


def pack(values, kind):
    out = b""
    for v, _ in values:
        if kind == "f16":
            out += struct.pack("<H", f16_bits(v))
        elif kind in ("f32", "f64"):
            out += struct.pack("<f" if kind == "f32" else "<d", v)
        else:
            bits = SIZES[kind] * 8
            out += (v & ((1 << bits) - 1)).to_bytes(SIZES[kind], "little")
    return out


def array(text):
    """Elements of a Rust array literal's inside, split at top-level commas."""
    text = re.sub(r"//[^\n]*", "", text)
    items, depth, cur = [], 0, ""
    for c in text:
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        if c == "," and depth == 0:
            items.append(cur)
            cur = ""
        else:
            cur += c
    if cur.strip():
        items.append(cur)
    vals = [value(i) for i in items if i.strip()]
    typed = [t for _, t in vals if t not in (None, "float")]
    if typed:
        kind = typed[0]
    elif any(t == "float" for _, t in vals):
        kind = "f64"
    else:
        kind = "i32"
    return pack(vals, kind), kind


def main():
    src = open(sys.argv[1] + "/ptx/src/test/spirv_run/mod.rs").read()
    print("# name\tthreads\tinput\toutput\toutput_type")
    for m in re.finditer(r"^(test_ptx(?:_with_32|_warp)?)!\(\s*(\w+)\s*,(.*?)\);\s*$",
                         src, re.S | re.M):
        macro, name, rest = m.groups()
        arrays = re.findall(r"\[(.*?)\]\s*(?:,|$)", rest.strip(), re.S)
        if macro == "test_ptx_warp":
            inp, (out, kind), threads = b"", array(arrays[0]), 64
        else:
            inp, (out, kind), threads = array(arrays[0])[0], array(arrays[1]), 1
        print(f"{name}\t{threads}\t{inp.hex() or '-'}\t{out.hex()}\t{kind}")


main()

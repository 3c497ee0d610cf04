#!/usr/bin/env python3
"""summarize.py SUMMARY...: median / range of run.sh's output (several files pooled) and the GPGPU-Sim / KernelScope ratios."""
import re, statistics, sys
rows = {}
import itertools
for line in itertools.chain.from_iterable(open(f) for f in (sys.argv[1:] or ["logs/summary.txt"])):
    m = re.match(r"(gpgpusim (\w+)|ks (\S+)( [^:]*?)?) run\d+: ([\d.]+) ([\d.]+)", line)
    if not m:
        continue
    key = ("gpgpusim", m.group(2), "") if m.group(2) else ("ks", m.group(3), (m.group(4) or "").strip() or "(trace on, default threads)")
    rows.setdefault(key, []).append((float(m.group(5)), float(m.group(6))))
def med(v): return statistics.median(v)
print("| Side | Spec / program | Options | kernel s: median (min-max) | process s: median (min-max) | ratio kernel | ratio process |")
print("|---|---|---|---|---|---|---|")
for key, v in rows.items():
    k = [a for a, b in v]; p = [b for a, b in v]
    kernel = "vadd" if "vadd" in key[1] else "matmul"
    g = rows[("gpgpusim", kernel, "")]
    gk, gp = med([a for a, b in g]), med([b for a, b in g])
    rk = "" if key[0] == "gpgpusim" else f"{gk / med(k):.0f}x"
    rp = "" if key[0] == "gpgpusim" else f"{gp / med(p):.0f}x"
    print(f"| {'GPGPU-Sim' if key[0]=='gpgpusim' else 'KernelScope'} | {key[1]} | {key[2]} | "
          f"{med(k):.3f} ({min(k):.3f}-{max(k):.3f}) | {med(p):.2f} ({min(p):.2f}-{max(p):.2f}) | {rk} | {rp} |")

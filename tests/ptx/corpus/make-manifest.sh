#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Build MANIFEST.tsv: for every PTX file in the corpus, the entry (kernel) and
# non-entry function names as reported by ptxas -v, NOT by parsing the PTX.
#
# Usage: make-manifest.sh [CORPUS_DIR]   (default: directory of this script)
# Writes CORPUS_DIR/MANIFEST.tsv. Set PTXAS to override the assembler.
#
# Line format (tab separated):
#   <relative path>  entries=<sorted,comma,list>  funcs=<sorted,comma,list>
# entries = names from "Compiling entry function 'NAME' for 'sm_XX'".
# funcs   = names from "Function properties for NAME" minus the entries
#           (ptxas only reports functions that have a body, so extern
#           declarations such as vprintf never appear).
#
# ptxas is first run in whole-program mode; if that fails (unresolved extern
# functions/variables in -rdc output) it is re-run with --compile-only.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
corpus="$(cd "${1:-$here}" && pwd)"

if [[ -z "${PTXAS:-}" ]]; then
    if command -v ptxas >/dev/null 2>&1; then PTXAS=ptxas; else PTXAS=/usr/local/cuda/bin/ptxas; fi
fi

# Target used for hand-written files (hand/NAME.ptx); default sm_90.
declare -A hand_arch=(
    [sm90a_target]=sm_90a
    [sm75_version64]=sm_75
    [sm80_version70]=sm_80
    [texmode_independent]=sm_75
)

run_ptxas() { # arch file -> stderr of ptxas on stdout
    local arch="$1" file="$2" log
    if log="$("$PTXAS" -v -arch="$arch" "$file" -o /dev/null 2>&1)"; then
        printf '%s\n' "$log"
        return 0
    fi
    if log="$("$PTXAS" -v --compile-only -arch="$arch" "$file" -o /dev/null 2>&1)"; then
        printf '%s\n' "$log"
        return 0
    fi
    printf 'make-manifest: ptxas failed on %s (%s):\n%s\n' "$file" "$arch" "$log" >&2
    return 1
}

join_sorted() { LC_ALL=C sort -u | paste -sd, -; }

tmp="$(mktemp)"
trap 'rm -f "$tmp"' EXIT

cd "$corpus"
for file in sm_*/*.ptx hand/*.ptx; do
    [[ -e "$file" ]] || continue
    case "$file" in
        hand/*)
            base="$(basename "$file" .ptx)"
            arch="${hand_arch[$base]:-sm_90}"
            ;;
        *)
            arch="${file%%/*}"
            ;;
    esac
    log="$(run_ptxas "$arch" "$file")"
    entries="$(sed -n "s/^ptxas info *: Compiling entry function '\([^']*\)' for .*/\1/p" <<<"$log" | join_sorted)"
    props="$(sed -n 's/^ptxas info *: Function properties for \(.*\)$/\1/p' <<<"$log" | join_sorted)"
    funcs="$(LC_ALL=C comm -23 <(tr ',' '\n' <<<"$props" | sed '/^$/d' | LC_ALL=C sort -u) \
                               <(tr ',' '\n' <<<"$entries" | sed '/^$/d' | LC_ALL=C sort -u) | paste -sd, -)"
    printf '%s\tentries=%s\tfuncs=%s\n' "$file" "$entries" "$funcs" >>"$tmp"
done

LC_ALL=C sort "$tmp" >"$corpus/MANIFEST.tsv"
echo "wrote $corpus/MANIFEST.tsv ($(wc -l <"$corpus/MANIFEST.tsv") files)" >&2

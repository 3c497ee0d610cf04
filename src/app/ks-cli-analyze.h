/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cli-analyze.h: `kernelscope-cli analyze` */
#pragma once

#include "ks-analysis.h"

int  ks_cli_analyze           (int               argc,
                               char            **argv);
/* An analysis's compiler and parser messages on stderr, FILE:LINE:COL:
 * SEVERITY: MESSAGE as compilers print them */
void ks_cli_print_diagnostics (const KsAnalysis *analysis);

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cli-analyze.h: `kernelscope-cli analyze` */
#pragma once

int ks_cli_analyze (int    argc,
                    char **argv);

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cli-compare.h: `kernelscope-cli compare` */
#pragma once

int ks_cli_compare (int    argc,
                    char **argv);

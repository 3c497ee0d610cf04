/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cli-anatomy.h: `kernelscope-cli anatomy` */
#pragma once

int ks_cli_anatomy (int    argc,
                    char **argv);

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cli-sass.h: `kernelscope-cli sass` */
#pragma once

int ks_cli_sass (int    argc,
                 char **argv);

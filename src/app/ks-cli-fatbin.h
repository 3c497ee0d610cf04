/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cli-fatbin.h: `kernelscope-cli fatbin FILE [--extract DIR] [--json]` */
#pragma once

int ks_cli_fatbin (int    argc,
                   char **argv);

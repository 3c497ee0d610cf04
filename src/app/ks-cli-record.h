/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cli-record.h: `kernelscope-cli record [OPTIONS] -- PROGRAM ARGS...` */
#pragma once

int ks_cli_record (int    argc,
                   char **argv);

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cli-probe.h: `kernelscope-cli probe`, the Probe Lab from the command line */
#pragma once

int ks_cli_probe (int    argc,
                  char **argv);

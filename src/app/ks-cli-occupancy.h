/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cli-occupancy.h: `kernelscope-cli occupancy` */
#pragma once

int ks_cli_occupancy (int    argc,
                      char **argv);

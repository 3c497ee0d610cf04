/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-fuzz-check.h: a fuzz target's invariant, which aborts (a finding) with
 * the file and line when it does not hold. */
#pragma once

#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond) \
  do { if (!(cond)) { fprintf (stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); abort (); } } \
  while (0)

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cli.h: what the commands of kernelscope-cli share. */
#pragma once

#include <json-glib/json-glib.h>
#include <stdint.h>

G_BEGIN_DECLS

/* Exit statuses: the contract of the command line */
enum
{
  KS_CLI_EXIT_OK = 0,
  KS_CLI_EXIT_BAD_INPUT = 1,    /* messages on stderr as FILE:LINE:COL: error: ... */
  KS_CLI_EXIT_USAGE = 2,
  KS_CLI_EXIT_FAULT = 3,        /* a fault in the simulated kernel */
};

/* The simulation's wall-clock budget unless --max-seconds says otherwise:
 * a kernel that does not end stops in seconds, not at the step limit */
#define KS_CLI_DEFAULT_MAX_SECONDS 10.0

/* --max-seconds as given (NAN when it was not): the budget in *seconds (0:
 * none) and the note its fault gives (transfer full); FALSE for a negative
 * or non-finite one */
gboolean ks_cli_max_seconds   (double      given,
                               double     *seconds,
                               char      **note);

/* Prints one JSON object on stdout, the only thing --json prints there */
void  ks_cli_print_json       (JsonNode   *root);
/* {"error": message}, for --json when the command cannot do its work */
void  ks_cli_print_json_error (const char *message);
/* A command's error: on stderr with the command's name (and how to get
 * help for a usage error), and as {"error": ...} with --json.  Returns
 * status. */
int   ks_cli_fail             (const char *command,
                               gboolean    json,
                               int         status,
                               const char *message);
/* A kernel's fault on stderr, as a compiler places an error:
 * PTX_FILE:LINE:COL: error: [PREFIX: ]MESSAGE (block [x,y,z], thread [x,y,z]),
 * the column that of the instruction in TEXT (the PTX; NULL: none), then a
 * note with the CUDA line when there is one.  FAULT is a KsSimFault. */
void  ks_cli_print_fault      (const char     *ptx_file,
                               const char     *text,
                               const void     *fault,
                               const char     *prefix);
/* name: [x, y, z] */
void  ks_cli_add_dim3         (JsonBuilder    *b,
                               const char     *name,
                               const uint32_t  v[3]);

G_END_DECLS

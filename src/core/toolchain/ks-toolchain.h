/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-toolchain.h: finding the CUDA toolkit's programs and running them.
 *
 * Programs are always run through GSubprocess with an argument vector, never
 * through a shell, so no file name or option can be read as a command.
 * Everything here blocks on the subprocess: call it from a worker thread.
 *
 * In a Flatpak sandbox the toolkit is the host's: it is looked for, and
 * every program run, through `flatpak-spawn --host`, in temporary folders
 * under the user cache folder, which the host sees at the same path.
 */
#pragma once

#include <gio/gio.h>
#include <stdint.h>

G_BEGIN_DECLS

typedef enum
{
  KS_DIAGNOSTIC_ERROR = 0,
  KS_DIAGNOSTIC_WARNING,
  KS_DIAGNOSTIC_NOTE,
} KsDiagnosticSeverity;

/* A compiler's or the parser's message about a place in a file */
typedef struct
{
  char *file;                   /* as the user knows it (not a temporary copy) */
  uint32_t line, column;        /* 1-based; 0 when unknown */
  KsDiagnosticSeverity severity;
  char *message;
} KsDiagnostic;

/* For g_array_set_clear_func () on a GArray of KsDiagnostic */
void          ks_diagnostic_clear        (gpointer           diagnostic);
GArray       *ks_diagnostic_array_new    (void);

typedef enum
{
  KS_TOOL_NVCC = 0,
  KS_TOOL_PTXAS,
  KS_TOOL_CUOBJDUMP,
  KS_TOOL_NVDISASM,
  KS_N_TOOLS
} KsTool;

typedef struct
{
  char *paths[KS_N_TOOLS];      /* absolute paths, NULL where not found */
  char *version;                /* "13.0.88" from ptxas --version, NULL if unknown */
  guint version_major;          /* 13; 0 if unknown */
  guint version_minor;          /* 0 */
  /* In a Flatpak sandbox: the paths are the host's, and each program runs
   * as `spawn --host ... PATH ARGS` */
  gboolean on_host;
  char *spawn;                  /* flatpak-spawn, when on_host */
  char *host_error;             /* in a sandbox, why the host was not reached; else NULL */
} KsToolchain;

/* Whether this process runs in a Flatpak sandbox: Flatpak puts
 * /.flatpak-info in every sandbox.  The environment variable
 * KS_FLATPAK_INFO names another file to look for instead (the tests). */
gboolean      ks_toolchain_in_flatpak    (void);

/* Looks for each program, in this order: preferred_dir (and its bin/), PATH,
 * $CUDA_HOME/bin, $CUDA_PATH/bin, /usr/local/cuda/bin; then runs
 * `ptxas --version` for the toolkit's version.  Never fails: a tool that is
 * not there has a NULL path.  preferred_dir may be NULL.
 *
 * In a Flatpak sandbox (ks_toolchain_in_flatpak()) the same places are
 * looked at on the host, with flatpak-spawn --host (the host's PATH and
 * CUDA_HOME/CUDA_PATH, then the sandbox's CUDA_HOME/CUDA_PATH, which
 * `flatpak run` passes on from the host's shell); when the host cannot be
 * reached (no flatpak-spawn, or no permission to talk to
 * org.freedesktop.Flatpak), host_error says why and the sandbox itself is
 * searched.
 *
 * Returns: (transfer full) */
KsToolchain  *ks_toolchain_find          (const char        *preferred_dir);
void          ks_toolchain_free          (KsToolchain       *tc);

/* (transfer none) (nullable): the program's path */
const char   *ks_toolchain_get_path      (const KsToolchain *tc,
                                          KsTool             tool);
const char   *ks_tool_name               (KsTool             tool);

/* Reads "release 13.0, V13.0.88" out of a --version text.  FALSE when it has
 * none.  version: (out) (transfer full) (optional) */
gboolean      ks_toolchain_parse_version (const char        *text,
                                          guint             *major,
                                          guint             *minor,
                                          char             **version);

/* Runs `ptxas -v -arch=ARCH -o /dev/null PTX_PATH` in a private temporary
 * directory (removed afterwards) and reads its report with
 * ks_resources_parse_ptxas().  arch is "sm_XX" with an optional letter
 * suffix ("sm_90a").  When ptxas fails, the error
 * (KS_RESOURCES_ERROR_TOOL) lists its messages as "FILE:LINE: error: MSG";
 * without ptxas it is KS_RESOURCES_ERROR_NOT_FOUND.
 *
 * Returns: (transfer full) (element-type KsKernelResources) */
GPtrArray    *ks_toolchain_ptxas_resources (const KsToolchain *tc,
                                            const char        *ptx_path,
                                            const char        *arch,
                                            GCancellable      *cancellable,
                                            GError           **error);

/* Reads nvcc's messages ("k.cu(12): error: ...", with the column from the
 * caret line under the quoted source, placed in `source` (the compiled
 * text, optional) because nvcc quotes the line without its indentation, and
 * the host compiler's "k.cu:1:10: fatal error: ...") into `diagnostics`,
 * naming `temp_name`'s file `user_name` instead.  Returns the number of
 * errors. */
guint         ks_toolchain_parse_nvcc_messages (const char *text,
                                                const char *source,
                                                const char *temp_name,
                                                const char *user_name,
                                                GArray     *diagnostics);

/* Compiles CUDA to PTX: `nvcc -ptx -lineinfo -arch=ARCH` on `text` (or the
 * file at `path` when text is NULL) in a private temporary directory, with
 * the file's own directory on the include path.  Messages go to
 * `diagnostics` (KsDiagnostic, file named as `path`).  Returns the PTX, or
 * NULL with an error: G_IO_ERROR_NOT_FOUND without nvcc, G_IO_ERROR_FAILED
 * when the code has errors (the diagnostics say where).
 *
 * Returns: (transfer full) (nullable) */
char         *ks_toolchain_compile_ptx   (const KsToolchain *tc,
                                          const char        *path,
                                          const char        *text,
                                          const char        *arch,
                                          GArray            *diagnostics,
                                          GCancellable      *cancellable,
                                          GError           **error);

/* SASS (ks-toolchain-sass.c) */

/* The disassembler SASS is made with: nvdisasm (it prints line records),
 * else cuobjdump; KS_N_TOOLS when neither is there. */
KsTool        ks_toolchain_sass_tool     (const KsToolchain *tc);

/* The listing of a cubin: `nvdisasm -c -g -hex CUBIN`, else `cuobjdump
 * -sass CUBIN`.  tool: (out) (optional) the one used.  Without either,
 * G_IO_ERROR_NOT_FOUND; a tool that fails gives G_IO_ERROR_FAILED with its
 * messages.
 *
 * Returns: (transfer full) (nullable) */
char         *ks_toolchain_disassemble   (const KsToolchain *tc,
                                          const char        *cubin_path,
                                          KsTool            *tool,
                                          GCancellable      *cancellable,
                                          GError           **error);

/* SASS for `arch` ("sm_89", "sm_90a") of the code being analysed: with
 * cuda, `nvcc -cubin -lineinfo -arch=ARCH` on text (the CUDA; `path` names
 * its file, whose folder is on the include path and whose name the line
 * records get instead of the private copy's); otherwise `ptxas -lineinfo
 * -arch=ARCH` on text (the PTX).  Then ks_toolchain_disassemble(), all in a
 * private temporary folder that is removed.  Errors as above, and
 * G_IO_ERROR_NOT_FOUND without nvcc (ptxas) for the cubin.
 *
 * Returns: (transfer full) (nullable): the listing */
char         *ks_toolchain_make_sass     (const KsToolchain *tc,
                                          const char        *path,
                                          const char        *text,
                                          gboolean           cuda,
                                          const char        *arch,
                                          KsTool            *tool,
                                          GCancellable      *cancellable,
                                          GError           **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsToolchain, ks_toolchain_free)

G_END_DECLS

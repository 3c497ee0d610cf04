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

/* One toolkit's programs, which only work together: 11.8's nvdisasm cannot
 * read a cubin of 13.0's ptxas, 11.8's ptxas refuses 13.0's PTX, and an
 * nvcc runs the ptxas it finds on PATH.  So a toolkit is the programs of
 * one folder (or of Debian's package, whose nvcc lives in a folder of its
 * own), never a program from here and another from there. */
typedef struct
{
  char *dir;                    /* the folder it was found in */
  char *paths[KS_N_TOOLS];      /* absolute paths, NULL where it has none */
  char *version;                /* "11.8.89" from its ptxas --version (else nvcc's); NULL if unknown */
  guint version_major;          /* 11; 0 if unknown */
  guint version_minor;          /* 8 */
  char *disassembler_version;   /* "11.8.86" from its nvdisasm --version; NULL if unknown */
} KsToolkit;

typedef struct
{
  /* The toolkit that compiles CUDA to PTX and runs ptxas -v: the preferred
   * one, else the first one found (toolkits[0]) */
  char *paths[KS_N_TOOLS];      /* absolute paths, NULL where not found */
  char *version;                /* "13.0.88" from ptxas --version, NULL if unknown */
  guint version_major;          /* 13; 0 if unknown */
  guint version_minor;          /* 0 */
  /* In a Flatpak sandbox: the paths are the host's, and each program runs
   * as `spawn --host ... PATH ARGS` */
  gboolean on_host;
  char *spawn;                  /* flatpak-spawn, when on_host */
  char *host_error;             /* in a sandbox, why the host was not reached; else NULL */
  char *host_path;              /* in a sandbox, the host's PATH; else NULL */
  /* Every toolkit found, in the order of the search (element-type
   * KsToolkit); NULL or empty when none */
  GPtrArray *toolkits;
  /* (nullable) one of toolkits: the one SASS is made with, the compiling
   * one when it has a disassembler, else the newest that has one */
  const KsToolkit *sass;
} KsToolchain;

/* Whether this process runs in a Flatpak sandbox: Flatpak puts
 * /.flatpak-info in every sandbox.  The environment variable
 * KS_FLATPAK_INFO names another file to look for instead (the tests). */
gboolean      ks_toolchain_in_flatpak    (void);

/* Looks for whole toolkits (KsToolkit), in this order: preferred_dir (and
 * its bin/), each PATH folder that holds ptxas or nvcc, $CUDA_HOME/bin,
 * $CUDA_PATH/bin, /usr/local/cuda/bin, /usr/local/cuda-X.Y/bin (newest
 * first) and Debian's nvidia-cuda-toolkit (its nvcc in
 * /usr/lib/nvidia-cuda-toolkit/bin, its other programs where the package
 * put them, /usr/bin); the same toolkit reached twice (a symbolic link)
 * counts once.  Each one's version comes from its own `ptxas --version`.
 * The first toolkit found is the one tc->paths name; tc->sass is the one
 * SASS is made with.  Never fails: what is not there has a NULL path.
 * preferred_dir may be NULL.
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
/* KS_NO_TOOLKIT=1 (any value but empty or "0"): run as on a machine
 * without the CUDA toolkit (tests, screenshots of that mode) */
gboolean      ks_toolkit_disabled        (void);
/* The most data (bytes) a tool run from here may write: half the
 * machine's memory, or less where our own limit is lower; 0 if unknown.
 * A tool over it fails as out of memory instead of pushing the machine
 * into swap. */
uint64_t      ks_toolchain_memory_limit  (void);
/* The most CPU time (seconds) each program a tool runs may use: 120, or
 * KS_TOOL_CPU_SECONDS when that is a positive number, or less where our
 * own limit is lower.  ptxas on a hostile module works for minutes before
 * it runs out of memory; over this it is stopped, and the run says so
 * (KS_TOOLCHAIN_CPU_LIMIT_MESSAGE) and goes on without it. */
guint         ks_toolchain_cpu_limit     (void);
#define KS_TOOLCHAIN_CPU_LIMIT_MESSAGE \
  "%s was stopped after %u s of CPU time, the most a CUDA tool may use here " \
  "(KS_TOOL_CPU_SECONDS sets it)"
void          ks_toolchain_free          (KsToolchain       *tc);

/* (transfer none) (nullable): the program's path in the compiling toolkit */
const char   *ks_toolchain_get_path      (const KsToolchain *tc,
                                          KsTool             tool);
const char   *ks_tool_name               (KsTool             tool);

/* Reads "release 13.0, V13.0.88" out of a --version text.  FALSE when it has
 * none.  version: (out) (transfer full) (optional) */
gboolean      ks_toolchain_parse_version (const char        *text,
                                          guint             *major,
                                          guint             *minor,
                                          char             **version);

/* The newest PTX ISA version the ptxas of CUDA major.minor knows, from
 * NVIDIA's table in the PTX ISA's release notes (CUDA 11.8: 7.8, 12.8:
 * 8.7, 13.0: 9.0).  FALSE for a release the table does not have (an
 * unknown or a newer one): nothing is then known of its limits. */
gboolean      ks_toolchain_ptx_isa_for   (guint              cuda_major,
                                          guint              cuda_minor,
                                          guint             *isa_major,
                                          guint             *isa_minor);

/* Fits PTX to the ptxas of CUDA major.minor before it assembles it for
 * `arch` (sm_XX): a `.target` or arch that ptxas does not know is an error
 * (G_IO_ERROR_NOT_SUPPORTED) naming both versions; a `.version` newer
 * than ptxas knows is lowered to the newest it does, so that ptxas judges
 * the instructions themselves.  Returns the PTX to assemble (a copy,
 * changed or not), with lowered: (out) (optional) set to a phrase like
 * "PTX .version 9.0 lowered to 7.8", else NULL.
 *
 * Returns: (transfer full) (nullable) */
char         *ks_toolchain_fit_ptx       (guint              cuda_major,
                                          guint              cuda_minor,
                                          const char        *ptx,
                                          const char        *arch,
                                          char             **lowered,
                                          GError           **error);

/* Runs `ptxas -v -arch=ARCH -o /dev/null PTX_PATH` in a private temporary
 * directory (removed afterwards) and reads its report with
 * ks_resources_parse_ptxas().  arch is "sm_XX" with an optional letter
 * suffix ("sm_90a"), the PTX fitted to that ptxas first as by
 * ks_toolchain_fit_ptx() (a `.version` it does not know lowered; a target
 * it does not know an error).  When ptxas fails, the error
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

/* The disassembler SASS is made with (of tc->sass): nvdisasm (it prints
 * line records), else cuobjdump; KS_N_TOOLS when no toolkit has either. */
KsTool        ks_toolchain_sass_tool     (const KsToolchain *tc);

/* The listing of a cubin with the disassembler of tc->sass: `nvdisasm -c
 * -g -hex CUBIN`, else `cuobjdump -sass CUBIN`.  tool: (out) (optional)
 * the one used.  Without either, G_IO_ERROR_NOT_FOUND; a tool that fails
 * gives G_IO_ERROR_FAILED with its messages.
 *
 * Returns: (transfer full) (nullable) */
char         *ks_toolchain_disassemble   (const KsToolchain *tc,
                                          const char        *cubin_path,
                                          KsTool            *tool,
                                          GCancellable      *cancellable,
                                          GError           **error);

/* SASS for `arch` ("sm_89", "sm_90a") of the code being analysed, all with
 * the programs of tc->sass: with cuda, `nvcc -cubin -lineinfo -arch=ARCH`
 * on text (the CUDA; `path` names its file, whose folder is on the include
 * path and whose name the line records get instead of the private
 * copy's), which compiles the CUDA again when tc->sass is not the toolkit
 * that made the PTX; otherwise `ptxas -lineinfo -arch=ARCH` on text (the
 * PTX, fitted to that ptxas by ks_toolchain_fit_ptx()).  Then
 * ks_toolchain_disassemble(), all in a private temporary folder that is
 * removed.  Errors as above, and G_IO_ERROR_NOT_FOUND without nvcc (ptxas)
 * for the cubin.  note: (out) (optional) (transfer full) how the SASS was
 * made, a sentence to show beside it ("Assembled with ptxas 11.8 (PTX
 * .version 9.0 lowered to 7.8) and disassembled with nvdisasm 11.8.").
 *
 * Returns: (transfer full) (nullable): the listing */
char         *ks_toolchain_make_sass     (const KsToolchain *tc,
                                          const char        *path,
                                          const char        *text,
                                          gboolean           cuda,
                                          const char        *arch,
                                          KsTool            *tool,
                                          char             **note,
                                          GCancellable      *cancellable,
                                          GError           **error);

/* Assembles PTX text into a cubin for arch (sm_XX) with the compiling
 * toolkit's ptxas (`ptxas -lineinfo -arch=ARCH`, the PTX fitted to it), in
 * a private temporary directory: the cubin's bytes, and that ptxas's
 * release ("13.0") in version.  No disassembler is needed: the cubin is
 * read by ks_sass_cubin_read().  NULL with G_IO_ERROR_NOT_FOUND without
 * ptxas, or ptxas's message.
 *
 * Returns: (transfer full) (nullable) */
char         *ks_toolchain_assemble      (const KsToolchain *tc,
                                          const char        *text,
                                          const char        *arch,
                                          char             **version,
                                          gsize             *length,
                                          GCancellable      *cancellable,
                                          GError           **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsToolchain, ks_toolchain_free)

G_END_DECLS

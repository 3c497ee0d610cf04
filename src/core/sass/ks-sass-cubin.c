/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sass-cubin.c: cubins read by hand (ks-sass-cubin.h).
 *
 * A cubin is a little-endian ELF64 with e_machine EM_CUDA (190).  What this
 * reads of it, and where the facts come from (cubins made here by CUDA
 * 11.8 and 13.0 for sm_70 to sm_120, read back with cuobjdump -elf and
 * nvdisasm; tests/fixtures/cubin/SOURCES.md):
 *
 * - The architecture.  Up to CUDA 12 the ELF is ABI version 7 (EI_OSABI
 *   0x33) and the SM number is e_flags' low byte (the PTX's in bits
 *   16-23), e_version being the toolkit's version (118).  CUDA 13 writes
 *   ABI version 8 (EI_OSABI 0x41) with the SM number in bits 8-15 and
 *   e_version 1.  Any other ABI version is refused rather than guessed.
 * - One .text.<name> section per function; its sh_info holds the symbol's
 *   index in the low 24 bits and the register count in the high 8, and its
 *   flags the number of named barriers in bits 20-26 (nvdisasm prints them
 *   as SHI_REGISTERS and SHF_BARRIERS).  The symbol's st_other has
 *   STO_CUDA_ENTRY (0x10) for a kernel.
 * - .nv.info (the module's) and .nv.info.<name> (the function's): records
 *   of a format byte, an attribute byte and a value whose length the
 *   format gives.  .nv.shared.<name> and .nv.constant0.<name> are the
 *   function's shared memory and constant bank 0.
 * - Volta and later: 16 bytes an instruction, the control code in the high
 *   word.  Maxwell and Pascal: 8 bytes, a control word in front of every
 *   three.
 *
 * Nothing here trusts an offset or a size: each is checked against the
 * buffer (or the section) first, with arithmetic that cannot wrap. */

#include <string.h>

#include "ks-sass-cubin.h"
#include "ks-sass-private.h"
#include "ks-timing.h"

#define EM_CUDA 190
#define SHT_PROGBITS 1
#define SHT_SYMTAB 2
#define SHT_NOBITS 8
#define SHT_CUDA_INFO 0x70000000u
#define STO_CUDA_ENTRY 0x10
#define SHN_XINDEX 0xffff
/* No real cubin comes near these; they keep a hostile header from making
 * the reader allocate or loop for long */
#define MAX_SECTIONS (1u << 20)
#define MAX_SYMBOLS (1u << 22)

typedef struct
{
  const guint8 *data;
  gsize len;
  const char *filename;
  uint64_t shoff, shentsize, shnum, shstrndx;
  uint64_t str_off, str_size;   /* the section name table */
} Elf;

static inline uint64_t
rd (const guint8 *p,
    guint         n)
{
  uint64_t v = 0;

  for (guint i = 0; i < n; i++)
    v |= (uint64_t) p[i] << (8 * i);
  return v;
}

/* [off, off + size) lies inside a buffer of len bytes */
static inline gboolean
in_bounds (uint64_t off,
           uint64_t size,
           uint64_t len)
{
  return off <= len && size <= len - off;
}

static gboolean G_GNUC_PRINTF (3, 4)
elf_fail (const Elf  *elf,
          GError    **error,
          const char *format,
          ...)
{
  va_list ap;
  g_autofree char *msg = NULL;

  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_set_error (error, KS_SASS_ERROR, KS_SASS_ERROR_ELF, "%s: error: %s",
               elf->filename != NULL ? elf->filename : "<cubin>", msg);
  return FALSE;
}

gboolean
ks_sass_is_elf (const guint8 *data,
                gsize         len)
{
  return data != NULL && len >= 4 && memcmp (data, "\177ELF", 4) == 0;
}

/* The header and the section header table, checked */
static gboolean
elf_open (Elf          *elf,
          const guint8 *data,
          gsize         len,
          GError      **error)
{
  const guint8 *sh0;

  elf->data = data;
  elf->len = len;
  if (!ks_sass_is_elf (data, len))
    return elf_fail (elf, error, "not an ELF file (a cubin starts with \\177ELF)");
  if (len < 64)
    return elf_fail (elf, error, "the ELF header is cut short (%" G_GSIZE_FORMAT " bytes of 64)", len);
  if (data[4] != 2 || data[5] != 1)
    return elf_fail (elf, error, "not a 64-bit little-endian ELF (cubins are)");
  elf->shoff = rd (data + 0x28, 8);
  elf->shentsize = rd (data + 0x3a, 2);
  elf->shnum = rd (data + 0x3c, 2);
  elf->shstrndx = rd (data + 0x3e, 2);
  if (elf->shentsize < 64)
    return elf_fail (elf, error, "the ELF's section headers are %u bytes, not 64",
                     (guint) elf->shentsize);
  if (!in_bounds (elf->shoff, 64, len))
    return elf_fail (elf, error, "the ELF's section header table (at 0x%" G_GINT64_MODIFIER "x) is "
                     "not inside the file", elf->shoff);
  /* Extended numbering: section 0 holds the real count and name table */
  sh0 = data + elf->shoff;
  if (elf->shnum == 0)
    elf->shnum = rd (sh0 + 32, 8);
  if (elf->shstrndx == SHN_XINDEX)
    elf->shstrndx = rd (sh0 + 40, 4);
  if (elf->shnum == 0 || elf->shnum > MAX_SECTIONS
      || !in_bounds (elf->shoff, elf->shnum * elf->shentsize, len))
    return elf_fail (elf, error, "the ELF's section header table (%" G_GINT64_MODIFIER "u sections at "
                     "0x%" G_GINT64_MODIFIER "x) is not inside the file", elf->shnum, elf->shoff);
  if (elf->shstrndx >= elf->shnum)
    return elf_fail (elf, error, "the ELF's section name table is section %" G_GINT64_MODIFIER "u "
                     "of %" G_GINT64_MODIFIER "u", elf->shstrndx, elf->shnum);
  {
    const guint8 *strsh = data + elf->shoff + elf->shstrndx * elf->shentsize;

    elf->str_off = rd (strsh + 24, 8);
    elf->str_size = rd (strsh + 32, 8);
  }
  if (!in_bounds (elf->str_off, elf->str_size, len))
    return elf_fail (elf, error, "the ELF's section name table is not inside the file");
  return TRUE;
}

static const guint8 *
section_header (const Elf *elf,
                uint64_t   i)
{
  return elf->data + elf->shoff + i * elf->shentsize;
}

/* A NUL-terminated string at off of a string table [tab, tab + size), or
 * NULL when it is not one */
static const char *
table_string (const Elf *elf,
              uint64_t   tab,
              uint64_t   size,
              uint64_t   off)
{
  const char *s;

  if (off >= size)
    return NULL;
  s = (const char *) elf->data + tab + off;
  return memchr (s, '\0', (gsize) (size - off)) != NULL ? s : NULL;
}

static const char *
section_name (const Elf *elf,
              uint64_t   i)
{
  return table_string (elf, elf->str_off, elf->str_size, rd (section_header (elf, i), 4));
}

gboolean
ks_sass_elf_text_section (const guint8  *data,
                          gsize          len,
                          const char    *function,
                          const guint8 **out,
                          gsize         *out_len,
                          GError       **error)
{
  Elf elf = { 0 };
  g_autofree char *want = NULL;

  g_return_val_if_fail (data != NULL || len == 0, FALSE);
  g_return_val_if_fail (function != NULL && out != NULL && out_len != NULL, FALSE);

  elf.filename = "<cubin>";
  if (!elf_open (&elf, data, len, error))
    return FALSE;
  want = g_strconcat (".text.", function, NULL);
  for (uint64_t i = 0; i < elf.shnum; i++)
    {
      const guint8 *sh = section_header (&elf, i);
      const char *name = section_name (&elf, i);
      uint64_t off = rd (sh + 24, 8), size = rd (sh + 32, 8);

      if (name == NULL || strcmp (name, want) != 0)
        continue;
      if (rd (sh + 4, 4) == SHT_NOBITS)
        return elf_fail (&elf, error, "the function's .text section has no bytes in the file");
      if (!in_bounds (off, size, len))
        return elf_fail (&elf, error, "the function's .text section is not inside the file");
      *out = data + off;
      *out_len = (gsize) size;
      return TRUE;
    }
  return elf_fail (&elf, error, "no section %s in the ELF", want);
}

/* The EIATTR_* names, by number, as cuobjdump -elf prints them */
static const char *const attr_names[] = {
  "EIATTR_ERROR", "EIATTR_PAD", "EIATTR_IMAGE_SLOT", "EIATTR_JUMPTABLE_RELOCS",
  "EIATTR_CTAIDZ_USED", "EIATTR_MAX_THREADS", "EIATTR_IMAGE_OFFSET", "EIATTR_IMAGE_SIZE",
  "EIATTR_TEXTURE_NORMALIZED", "EIATTR_SAMPLER_INIT", "EIATTR_PARAM_CBANK",
  "EIATTR_SMEM_PARAM_OFFSETS", "EIATTR_CBANK_PARAM_OFFSETS", "EIATTR_SYNC_STACK",
  "EIATTR_TEXID_SAMPID_MAP", "EIATTR_EXTERNS", "EIATTR_REQNTID", "EIATTR_FRAME_SIZE",
  "EIATTR_MIN_STACK_SIZE", "EIATTR_SAMPLER_FORCE_UNNORMALIZED", "EIATTR_BINDLESS_IMAGE_OFFSETS",
  "EIATTR_BINDLESS_TEXTURE_BANK", "EIATTR_BINDLESS_SURFACE_BANK", "EIATTR_KPARAM_INFO",
  "EIATTR_SMEM_PARAM_SIZE", "EIATTR_CBANK_PARAM_SIZE", "EIATTR_QUERY_NUMATTRIB",
  "EIATTR_MAXREG_COUNT", "EIATTR_EXIT_INSTR_OFFSETS", "EIATTR_S2RCTAID_INSTR_OFFSETS",
  "EIATTR_CRS_STACK_SIZE", "EIATTR_NEED_CNP_WRAPPER", "EIATTR_NEED_CNP_PATCH",
  "EIATTR_EXPLICIT_CACHING", "EIATTR_ISTYPEP_USED", "EIATTR_MAX_STACK_SIZE", "EIATTR_SUQ_USED",
  "EIATTR_LD_CACHEMOD_INSTR_OFFSETS", "EIATTR_LOAD_CACHE_REQUEST", "EIATTR_ATOM_SYS_INSTR_OFFSETS",
  "EIATTR_COOP_GROUP_INSTR_OFFSETS", "EIATTR_COOP_GROUP_MASK_REGIDS", "EIATTR_SW1850030_WAR",
  "EIATTR_WMMA_USED", "EIATTR_HAS_PRE_V10_OBJECT", "EIATTR_ATOMF16_EMUL_INSTR_OFFSETS",
  "EIATTR_ATOM16_EMUL_INSTR_REG_MAP", "EIATTR_REGCOUNT", "EIATTR_SW2393858_WAR",
  "EIATTR_INT_WARP_WIDE_INSTR_OFFSETS", "EIATTR_SHARED_SCRATCH", "EIATTR_STATISTICS",
  "EIATTR_INDIRECT_BRANCH_TARGETS", "EIATTR_SW2861232_WAR", "EIATTR_SW_WAR",
  "EIATTR_CUDA_API_VERSION", "EIATTR_NUM_MBARRIERS", "EIATTR_MBARRIER_INSTR_OFFSETS",
  "EIATTR_COROUTINE_RESUME_ID_OFFSETS", "EIATTR_SAM_REGION_STACK_SIZE",
  "EIATTR_PER_REG_TARGET_PERF_STATS", "EIATTR_CTA_PER_CLUSTER", "EIATTR_EXPLICIT_CLUSTER",
  "EIATTR_MAX_CLUSTER_RANK", "EIATTR_INSTR_REG_MAP",
};

const char *
ks_cubin_attr_name (guint id)
{
  return id < G_N_ELEMENTS (attr_names) ? attr_names[id] : NULL;
}

const guint8 *
ks_cubin_attr_data (const KsSassCubin *c,
                    const KsCubinAttr *a,
                    gsize             *len)
{
  g_return_val_if_fail (c != NULL && a != NULL && len != NULL, NULL);

  *len = a->format == KS_CUBIN_EIFMT_SVAL ? a->value : 0;
  return a->format == KS_CUBIN_EIFMT_SVAL ? c->attr_bytes + a->data : NULL;
}

void
_ks_sass_cubin_free (KsSassCubin *c)
{
  if (c == NULL)
    return;
  g_free (c->sections);
  g_free (c->functions);
  g_free (c->params);
  g_free (c->attrs);
  g_free (c->attr_bytes);
  g_free (c->text);
  g_free (c->filename);
  g_free (c->disassembler);
  g_free (c->note);
  g_free (c);
}

typedef struct
{
  Elf elf;
  KsSassCubin *cubin;
  GStringChunk *strings;
  GArray *sections;             /* KsCubinSection */
  GArray *functions;            /* KsSassFunction */
  GArray *cfuncs;               /* KsCubinFunction */
  GArray *insns;                /* KsSassInsn */
  GArray *params;               /* KsCubinParam, in the order read */
  GArray *param_owner;          /* guint: the function of each */
  GArray *attrs;                /* KsCubinAttr */
  GByteArray *attr_bytes;
  uint64_t sym_off, sym_count, symstr_off, symstr_size;
  gboolean have_symbols;
  uint64_t code_bytes;          /* of all .text sections so far */
  /* Lookups that a loop over every function would make quadratic in a
   * hostile file: the value is the index + 1 */
  GHashTable *fn_by_name, *fn_by_symbol, *fn_by_section, *func_symbols;
} Reader;

static guint
lookup (GHashTable    *table,
        gconstpointer  key)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (table, key)) - 1;
}

static void
remember (GHashTable *table,
          gpointer    key,
          guint       index)
{
  if (!g_hash_table_contains (table, key))
    g_hash_table_insert (table, key, GUINT_TO_POINTER (index + 1));
}

static void
unset (KsCubinFunction *f)
{
  f->symbol = f->registers = f->barriers = KS_SASS_NONE;
  f->param_cbank_offset = f->param_bytes = KS_SASS_NONE;
  f->max_stack = f->min_stack = f->frame_size = f->max_registers = KS_SASS_NONE;
}

/* Symbol i's fields; FALSE when there is no such symbol */
static gboolean
symbol (const Reader *r,
        uint64_t      i,
        const char  **name,
        guint        *info,
        guint        *other)
{
  const guint8 *s;

  if (!r->have_symbols || i >= r->sym_count)
    return FALSE;
  s = r->elf.data + r->sym_off + i * 24;
  *name = table_string (&r->elf, r->symstr_off, r->symstr_size, rd (s, 4));
  *info = s[4];
  *other = s[5];
  return TRUE;
}

static gboolean
read_sections (Reader  *r,
               GError **error)
{
  const Elf *elf = &r->elf;

  for (uint64_t i = 0; i < elf->shnum; i++)
    {
      const guint8 *sh = section_header (elf, i);
      KsCubinSection s = { 0 };
      const char *name = section_name (elf, i);

      if (name == NULL && i > 0)
        return elf_fail (elf, error, "section %" G_GINT64_MODIFIER "u's name is not in the section "
                         "name table", i);
      s.name = g_string_chunk_insert_const (r->strings, name != NULL ? name : "");
      s.type = (uint32_t) rd (sh + 4, 4);
      s.flags = rd (sh + 8, 8);
      s.offset = rd (sh + 24, 8);
      s.size = rd (sh + 32, 8);
      s.link = (uint32_t) rd (sh + 40, 4);
      s.info = (uint32_t) rd (sh + 44, 4);
      /* NOBITS (shared memory) takes no room in the file; the rest must */
      if (s.type != SHT_NOBITS && i > 0 && !in_bounds (s.offset, s.size, elf->len))
        return elf_fail (elf, error, "section %" G_GINT64_MODIFIER "u (%s): its %" G_GINT64_MODIFIER
                         "u bytes at 0x%" G_GINT64_MODIFIER "x are not inside the file", i, s.name,
                         s.size, s.offset);
      g_array_append_val (r->sections, s);

      if (s.type == SHT_SYMTAB && !r->have_symbols)
        {
          const guint8 *strsh;

          if (rd (sh + 56, 8) != 24)
            return elf_fail (elf, error, "the symbol table's entries are %" G_GINT64_MODIFIER
                             "u bytes, not 24", rd (sh + 56, 8));
          if (s.link == 0 || s.link >= elf->shnum)
            return elf_fail (elf, error, "the symbol table's strings are section %u of %"
                             G_GINT64_MODIFIER "u", s.link, elf->shnum);
          strsh = section_header (elf, s.link);
          if (rd (strsh + 4, 4) != SHT_NOBITS)
            {
              r->symstr_off = rd (strsh + 24, 8);
              r->symstr_size = rd (strsh + 32, 8);
            }
          if (!in_bounds (r->symstr_off, r->symstr_size, elf->len))
            return elf_fail (elf, error, "the symbol table's strings are not inside the file");
          r->sym_off = s.offset;
          r->sym_count = MIN (s.size / 24, MAX_SYMBOLS);
          r->have_symbols = TRUE;
        }
    }
  return TRUE;
}

static gboolean
read_arch (Reader  *r,
           GError **error)
{
  const Elf *elf = &r->elf;
  KsSassCubin *c = r->cubin;
  guint machine = (guint) rd (elf->data + 18, 2);
  char arch[16];

  if (machine != EM_CUDA)
    return elf_fail (elf, error, "an ELF for machine %u, not a CUDA cubin (EM_CUDA, 190)", machine);
  c->os_abi = elf->data[7];
  c->abi_version = elf->data[8];
  c->e_flags = (uint32_t) rd (elf->data + 48, 4);
  if (c->abi_version <= 7)
    {
      c->arch_number = c->e_flags & 0xff;
      c->toolkit = (guint) rd (elf->data + 20, 4);
      if (c->toolkit < 10 || c->toolkit > 999)
        c->toolkit = 0;
    }
  else if (c->abi_version == 8)
    c->arch_number = (c->e_flags >> 8) & 0xff;
  else
    return elf_fail (elf, error, "a cubin of ELF ABI version %u, which KernelScope does not know "
                     "(it reads 7, written up to CUDA 12, and 8, written by CUDA 13)", c->abi_version);

  if (c->arch_number < 50)
    return elf_fail (elf, error, "a cubin for sm_%u: KernelScope reads the instructions of sm_50 "
                     "and later", c->arch_number);
  if (c->arch_number > 62 && c->arch_number < 70)
    return elf_fail (elf, error, "a cubin for sm_%u, an architecture KernelScope does not know",
                     c->arch_number);
  g_snprintf (arch, sizeof arch, "sm_%u", c->arch_number);
  c->arch = g_string_chunk_insert_const (r->strings, arch);
  return TRUE;
}

static guint
function_of_symbol (const Reader *r,
                    uint32_t      sym)
{
  return lookup (r->fn_by_symbol, GUINT_TO_POINTER (sym));
}

static guint
function_of_text_section (const Reader *r,
                          uint32_t      section)
{
  return lookup (r->fn_by_section, GUINT_TO_POINTER (section));
}

/* The instructions of .text section index i, for function fn */
static gboolean
read_code (Reader       *r,
           uint32_t      i,
           KsSassFunction *fn,
           GError      **error)
{
  const KsCubinSection *s = &g_array_index (r->sections, KsCubinSection, i);
  const guint8 *code;
  gboolean maxwell = r->cubin->arch_number < 70;
  guint unit = maxwell ? 32 : 16;

  /* Only a section with bytes in the file had its offset checked: the
   * pointer is made after (the fuzzer found a NOBITS .text whose offset
   * ran past the address space) */
  if (s->type == SHT_NOBITS)
    return elf_fail (&r->elf, error, "section %u (%s) has no bytes in the file", i, s->name);
  code = r->elf.data + s->offset;
  if (s->size % unit != 0)
    return elf_fail (&r->elf, error, "section %u (%s) is %" G_GINT64_MODIFIER "u bytes, not a "
                     "multiple of %u (%s's %s)", i, s->name, s->size, unit, r->cubin->arch,
                     maxwell ? "groups of a control word and three instructions"
                             : "16-byte instructions");
  /* Sections of real cubins never share bytes; a file whose sections all
   * point at the same megabyte would make millions of instructions */
  r->code_bytes += s->size;
  if (r->code_bytes > r->elf.len)
    return elf_fail (&r->elf, error, "section %u (%s): the .text sections hold more bytes than the "
                     "file (they overlap)", i, s->name);
  fn->first_insn = r->insns->len;
  for (uint64_t off = 0; off < s->size; off += unit)
    {
      if (maxwell)
        {
          uint64_t control = rd (code + off, 8);

          for (guint slot = 0; slot < 3; slot++)
            {
              KsSassInsn in = { 0 };

              in.offset = off + 8 * (slot + 1);
              in.words[0] = rd (code + in.offset, 8);
              ks_sass_decode_control_maxwell (control, slot, &in.control);
              in.flags = KS_SASS_HAS_WORD0 | KS_SASS_HAS_CONTROL;
              in.modifiers = "";
              in.pipe = KS_N_PIPES;
              in.source = KS_SASS_NONE;
              g_array_append_val (r->insns, in);
            }
        }
      else
        {
          KsSassInsn in = { 0 };

          in.offset = off;
          in.words[0] = rd (code + off, 8);
          in.words[1] = rd (code + off + 8, 8);
          ks_sass_decode_control_volta (in.words[1], &in.control);
          in.flags = KS_SASS_HAS_WORD0 | KS_SASS_HAS_WORD1 | KS_SASS_HAS_CONTROL;
          in.modifiers = "";
          in.pipe = KS_N_PIPES;
          in.source = KS_SASS_NONE;
          g_array_append_val (r->insns, in);
        }
    }
  fn->n_insns = r->insns->len - fn->first_insn;
  return TRUE;
}

static gboolean
read_functions (Reader  *r,
                GError **error)
{
  for (guint i = 1; i < r->sections->len; i++)
    {
      const KsCubinSection *s = &g_array_index (r->sections, KsCubinSection, i);
      KsSassFunction fn = { 0 };
      KsCubinFunction cf = { 0 };
      const char *sname = NULL;
      guint info = 0, other = 0;

      if (!g_str_has_prefix (s->name, ".text.") || s->name[6] == '\0')
        continue;
      unset (&cf);
      fn.name = s->name + 6;
      fn.arch = r->cubin->arch;
      cf.text_section = i;
      cf.registers = s->info >> 24;
      cf.barriers = (uint32_t) ((s->flags >> 20) & 0x7f);
      /* The function's symbol: sh_info names it; else by name */
      if (symbol (r, s->info & 0xffffff, &sname, &info, &other) && g_strcmp0 (sname, fn.name) == 0)
        cf.symbol = s->info & 0xffffff;
      if (cf.symbol == KS_SASS_NONE)
        {
          if (r->func_symbols == NULL)
            {
              r->func_symbols = g_hash_table_new (g_str_hash, g_str_equal);
              for (uint64_t k = 0; k < r->sym_count; k++)
                if (symbol (r, k, &sname, &info, &other) && sname != NULL
                    && (info & 0xf) == 2 /* STT_FUNC */)
                  remember (r->func_symbols, (gpointer) sname, (guint) k);
            }
          cf.symbol = lookup (r->func_symbols, fn.name);
        }
      if (cf.symbol != KS_SASS_NONE)
        {
          symbol (r, cf.symbol, &sname, &info, &other);
          cf.entry = (other & STO_CUDA_ENTRY) != 0;
        }
      if (!read_code (r, i, &fn, error))
        return FALSE;
      remember (r->fn_by_name, (gpointer) fn.name, r->functions->len);
      if (cf.symbol != KS_SASS_NONE)
        remember (r->fn_by_symbol, GUINT_TO_POINTER (cf.symbol), r->functions->len);
      remember (r->fn_by_section, GUINT_TO_POINTER (i), r->functions->len);
      g_array_append_val (r->functions, fn);
      g_array_append_val (r->cfuncs, cf);
    }
  if (r->functions->len == 0)
    return elf_fail (&r->elf, error, "a cubin without code: it has no .text.<function> section");

  /* Shared memory and constant bank 0, by the function's name */
  for (guint i = 1; i < r->sections->len; i++)
    {
      const KsCubinSection *s = &g_array_index (r->sections, KsCubinSection, i);
      const char *fname = NULL;
      gboolean shared = g_str_has_prefix (s->name, ".nv.shared.");
      guint f;

      if (shared)
        fname = s->name + strlen (".nv.shared.");
      else if (g_str_has_prefix (s->name, ".nv.constant0."))
        fname = s->name + strlen (".nv.constant0.");
      else
        continue;
      f = lookup (r->fn_by_name, fname);
      if (f != KS_SASS_NONE)
        {
          KsCubinFunction *cf = &g_array_index (r->cfuncs, KsCubinFunction, f);

          if (shared)
            cf->shared_bytes = s->size;
          else
            cf->constant0_bytes = s->size;
        }
    }
  return TRUE;
}

static inline uint32_t
u32_at (const guint8 *p,
        gsize         len,
        gsize         at)
{
  return at + 4 <= len ? (uint32_t) rd (p + at, 4) : 0;
}

/* What one record means for its function */
static void
apply_attr (Reader          *r,
            KsCubinFunction *cf,
            const KsCubinAttr *a,
            const guint8    *v,
            gsize            n)
{
  switch (a->id)
    {
    case KS_EIATTR_REGCOUNT:
      if (n >= 8)
        cf->registers = u32_at (v, n, 4);
      break;
    case KS_EIATTR_MAX_STACK_SIZE:
      if (n >= 8)
        cf->max_stack = u32_at (v, n, 4);
      break;
    case KS_EIATTR_MIN_STACK_SIZE:
      if (n >= 8)
        cf->min_stack = u32_at (v, n, 4);
      break;
    case KS_EIATTR_FRAME_SIZE:
      if (n >= 8)
        cf->frame_size = u32_at (v, n, 4);
      break;
    case KS_EIATTR_PARAM_CBANK:
      /* the constant bank's symbol, then the parameters' offset and size */
      if (n >= 8)
        {
          cf->param_cbank_offset = (uint32_t) rd (v + 4, 2);
          if (cf->param_bytes == KS_SASS_NONE)
            cf->param_bytes = (uint32_t) rd (v + 6, 2);
        }
      break;
    case KS_EIATTR_CBANK_PARAM_SIZE:
      if (a->format == KS_CUBIN_EIFMT_HVAL)
        cf->param_bytes = a->value;
      break;
    case KS_EIATTR_MAXREG_COUNT:
      if (a->format == KS_CUBIN_EIFMT_HVAL)
        cf->max_registers = a->value;
      break;
    case KS_EIATTR_MAX_THREADS:
    case KS_EIATTR_REQNTID:
      if (n >= 12)
        for (guint k = 0; k < 3; k++)
          (a->id == KS_EIATTR_MAX_THREADS ? cf->max_threads : cf->req_threads)[k] = u32_at (v, n, 4 * k);
      break;
    case KS_EIATTR_KPARAM_INFO:
      if (n >= 12)
        {
          KsCubinParam p = { 0 };
          uint32_t flags = u32_at (v, n, 8);

          /* u32 index (of the parameter set), u16 ordinal, u16 offset, then
           * log2 alignment (8 bits), space (4), cbank (5), is-cbank (1)
           * and the size (14 bits) */
          p.index = (uint32_t) rd (v + 4, 2);
          p.offset = (uint32_t) rd (v + 6, 2);
          p.log_alignment = flags & 0xff;
          p.space = (flags >> 8) & 0xf;
          p.cbank = (flags >> 12) & 0x1f;
          p.size = (flags >> 18) & 0x3fff;
          p.cbank_offset = KS_SASS_NONE;
          g_array_append_val (r->params, p);
        }
      break;
    default:
      break;
    }
}

/* The records of .nv.info section si; fn is the function the section is
 * about (KS_SASS_NONE for the module's .nv.info, whose records name their
 * function by its symbol) */
static gboolean
read_info_section (Reader  *r,
                   guint    si,
                   guint    fn,
                   GError **error)
{
  const KsCubinSection *s = &g_array_index (r->sections, KsCubinSection, si);
  const guint8 *p = r->elf.data + s->offset;
  uint64_t at = 0;

  while (at < s->size)
    {
      KsCubinAttr a = { 0 };
      const guint8 *v = NULL;
      gsize n = 0;
      guint target = fn;
      uint64_t start = at;

      if (s->size - at < 2)
        return elf_fail (&r->elf, error, "%s: the record at 0x%" G_GINT64_MODIFIER "x (file offset "
                         "0x%" G_GINT64_MODIFIER "x) is cut short", s->name, start, s->offset + start);
      a.format = p[at];
      a.id = p[at + 1];
      a.section = si;
      at += 2;
      switch (a.format)
        {
        case KS_CUBIN_EIFMT_NVAL:
        case KS_CUBIN_EIFMT_BVAL:
        case KS_CUBIN_EIFMT_HVAL:
          /* All three take a 2-byte field, so that records stay 4-byte
           * aligned: NVAL's is zero, BVAL's value is its low byte */
          if (s->size - at < 2)
            return elf_fail (&r->elf, error, "%s: the record at 0x%" G_GINT64_MODIFIER "x (file "
                             "offset 0x%" G_GINT64_MODIFIER "x) is cut short", s->name, start,
                             s->offset + start);
          if (a.format == KS_CUBIN_EIFMT_HVAL)
            a.value = (uint32_t) rd (p + at, 2);
          else if (a.format == KS_CUBIN_EIFMT_BVAL)
            a.value = p[at];
          at += 2;
          break;
        case KS_CUBIN_EIFMT_SVAL:
          if (s->size - at < 2 || s->size - at - 2 < rd (p + at, 2))
            return elf_fail (&r->elf, error, "%s: the record at 0x%" G_GINT64_MODIFIER "x (file "
                             "offset 0x%" G_GINT64_MODIFIER "x) runs past the section's end",
                             s->name, start, s->offset + start);
          a.value = (uint32_t) rd (p + at, 2);
          v = p + at + 2;
          n = a.value;
          a.data = r->attr_bytes->len;
          g_byte_array_append (r->attr_bytes, v, a.value);
          at += 2 + (uint64_t) a.value;
          break;
        default:
          /* Its length is unknown, so nothing after it can be read */
          return elf_fail (&r->elf, error, "%s: the record at 0x%" G_GINT64_MODIFIER "x (file offset "
                           "0x%" G_GINT64_MODIFIER "x) has format %u, which KernelScope does not "
                           "know (1-4 are EIFMT_NVAL, BVAL, HVAL, SVAL)", s->name, start,
                           s->offset + start, a.format);
        }
      /* The module's records about one function start with its symbol */
      if (fn == KS_SASS_NONE && a.format == KS_CUBIN_EIFMT_SVAL && n >= 8
          && (a.id == KS_EIATTR_REGCOUNT || a.id == KS_EIATTR_MAX_STACK_SIZE
              || a.id == KS_EIATTR_MIN_STACK_SIZE || a.id == KS_EIATTR_FRAME_SIZE))
        target = function_of_symbol (r, (uint32_t) rd (v, 4));
      a.function = target;
      if (target != KS_SASS_NONE)
        {
          KsCubinFunction *cf = &g_array_index (r->cfuncs, KsCubinFunction, target);

          apply_attr (r, cf, &a, v, n);
          while (r->param_owner->len < r->params->len)
            g_array_append_val (r->param_owner, target);
        }
      g_array_append_val (r->attrs, a);
    }
  return TRUE;
}

typedef struct
{
  guint owner, index, pos;
} ParamKey;

/* By function, then position in the signature, then the order read */
static int
compare_param_key (const void *a,
                   const void *b)
{
  const ParamKey *ka = a, *kb = b;

  if (ka->owner != kb->owner)
    return ka->owner < kb->owner ? -1 : 1;
  if (ka->index != kb->index)
    return ka->index < kb->index ? -1 : 1;
  return ka->pos < kb->pos ? -1 : ka->pos > kb->pos;
}

static gboolean
read_info (Reader  *r,
           GError **error)
{
  /* The module's first, so that a function's own records come after */
  for (int pass = 0; pass < 2; pass++)
    for (guint i = 1; i < r->sections->len; i++)
      {
        const KsCubinSection *s = &g_array_index (r->sections, KsCubinSection, i);
        gboolean module = strcmp (s->name, ".nv.info") == 0;
        guint fn = KS_SASS_NONE;

        if (s->type != SHT_CUDA_INFO || (pass == 0) != module)
          continue;
        if (!module)
          {
            /* .nv.info.<name>: sh_info is the function's .text section */
            fn = function_of_text_section (r, s->info);
            if (fn == KS_SASS_NONE && g_str_has_prefix (s->name, ".nv.info."))
              fn = lookup (r->fn_by_name, s->name + strlen (".nv.info."));
          }
        if (!read_info_section (r, i, fn, error))
          return FALSE;
      }

  /* Each function's parameters together, in signature order, placed in
   * constant bank 0 */
  {
    guint n = r->params->len;
    ParamKey *keys = g_new (ParamKey, MAX (n, 1));
    GArray *sorted = g_array_sized_new (FALSE, FALSE, sizeof (KsCubinParam), n);

    for (guint k = 0; k < n; k++)
      {
        keys[k].owner = g_array_index (r->param_owner, guint, k);
        keys[k].index = g_array_index (r->params, KsCubinParam, k).index;
        keys[k].pos = k;
      }
    qsort (keys, n, sizeof *keys, compare_param_key);
    for (guint k = 0; k < n; k++)
      {
        KsCubinFunction *cf = &g_array_index (r->cfuncs, KsCubinFunction, keys[k].owner);
        KsCubinParam p = g_array_index (r->params, KsCubinParam, keys[k].pos);

        if (cf->n_params++ == 0)
          cf->first_param = sorted->len;
        if (cf->param_cbank_offset != KS_SASS_NONE)
          p.cbank_offset = cf->param_cbank_offset + p.offset;
        g_array_append_val (sorted, p);
      }
    g_free (keys);
    g_array_unref (r->params);
    r->params = sorted;
  }
  return TRUE;
}

KsSassListing *
ks_sass_cubin_read (const guint8 *data,
                    gsize         len,
                    const char   *filename,
                    GError      **error)
{
  Reader r = { 0 };
  KsSassListing *l;
  gboolean ok;

  g_return_val_if_fail (data != NULL || len == 0, NULL);

  r.elf.filename = filename != NULL ? filename : "<cubin>";
  r.cubin = g_new0 (KsSassCubin, 1);
  r.strings = g_string_chunk_new (1024);
  r.sections = g_array_new (FALSE, FALSE, sizeof (KsCubinSection));
  r.functions = g_array_new (FALSE, FALSE, sizeof (KsSassFunction));
  r.cfuncs = g_array_new (FALSE, FALSE, sizeof (KsCubinFunction));
  r.insns = g_array_new (FALSE, FALSE, sizeof (KsSassInsn));
  r.params = g_array_new (FALSE, FALSE, sizeof (KsCubinParam));
  r.param_owner = g_array_new (FALSE, FALSE, sizeof (guint));
  r.attrs = g_array_new (FALSE, FALSE, sizeof (KsCubinAttr));
  r.attr_bytes = g_byte_array_new ();
  r.fn_by_name = g_hash_table_new (g_str_hash, g_str_equal);
  r.fn_by_symbol = g_hash_table_new (NULL, NULL);
  r.fn_by_section = g_hash_table_new (NULL, NULL);

  ok = elf_open (&r.elf, data, len, error)
       && read_arch (&r, error)
       && read_sections (&r, error)
       && read_functions (&r, error)
       && read_info (&r, error);

  g_hash_table_unref (r.fn_by_name);
  g_hash_table_unref (r.fn_by_symbol);
  g_hash_table_unref (r.fn_by_section);
  g_clear_pointer (&r.func_symbols, g_hash_table_unref);
  if (!ok)
    {
      _ks_sass_cubin_free (r.cubin);
      g_string_chunk_free (r.strings);
      g_array_unref (r.sections);
      g_array_unref (r.functions);
      g_array_unref (r.cfuncs);
      g_array_unref (r.insns);
      g_array_unref (r.params);
      g_array_unref (r.param_owner);
      g_array_unref (r.attrs);
      g_byte_array_unref (r.attr_bytes);
      return NULL;
    }

  g_array_unref (r.param_owner);
  r.cubin->filename = g_strdup (r.elf.filename);
  r.cubin->n_sections = r.sections->len;
  r.cubin->sections = (KsCubinSection *) (void *) g_array_free (r.sections, FALSE);
  r.cubin->functions = (KsCubinFunction *) (void *) g_array_free (r.cfuncs, FALSE);
  r.cubin->n_params = r.params->len;
  r.cubin->params = (KsCubinParam *) (void *) g_array_free (r.params, FALSE);
  r.cubin->n_attrs = r.attrs->len;
  r.cubin->attrs = (KsCubinAttr *) (void *) g_array_free (r.attrs, FALSE);
  r.cubin->attr_bytes = g_byte_array_free (r.attr_bytes, FALSE);

  l = g_new0 (KsSassListing, 1);
  l->format = KS_SASS_FORMAT_CUBIN;
  l->strings = r.strings;
  l->cubin = r.cubin;
  l->n_functions = r.functions->len;
  l->functions = (KsSassFunction *) (void *) g_array_free (r.functions, FALSE);
  l->n_insns = r.insns->len;
  l->insns = (KsSassInsn *) (void *) g_array_free (r.insns, FALSE);
  l->operands = g_new0 (const char *, 1);
  l->sources = g_new0 (KsSassSource, 1);
  l->labels = g_new0 (KsSassLabel, 1);
  ks_sass_cubin_text (l);
  return l;
}

char *
ks_sass_insn_hex (const KsSassInsn *in,
                  char             *buf)
{
  g_return_val_if_fail (in != NULL && buf != NULL, buf);

  if (in->flags & KS_SASS_HAS_WORD1)
    g_snprintf (buf, KS_SASS_HEX_TEXT_SIZE, "0x%016" G_GINT64_MODIFIER "x 0x%016" G_GINT64_MODIFIER "x",
                in->words[0], in->words[1]);
  else
    g_snprintf (buf, KS_SASS_HEX_TEXT_SIZE, "0x%016" G_GINT64_MODIFIER "x", in->words[0]);
  return buf;
}

/* "24 bytes" and the like, for the header */
static void
append_attr (GString           *s,
             const KsSassCubin *c,
             const KsCubinAttr *a)
{
  const char *name = ks_cubin_attr_name (a->id);

  if (name != NULL)
    g_string_append (s, name + strlen ("EIATTR_"));
  else
    g_string_append_printf (s, "0x%02x", a->id);
  switch (a->format)
    {
    case KS_CUBIN_EIFMT_BVAL:
    case KS_CUBIN_EIFMT_HVAL:
      g_string_append_printf (s, " 0x%x", a->value);
      break;
    case KS_CUBIN_EIFMT_SVAL:
      {
        gsize n;
        const guint8 *v = ks_cubin_attr_data (c, a, &n);

        g_string_append_c (s, ' ');
        for (gsize k = 0; k < MIN (n, 16); k++)
          g_string_append_printf (s, "%02x", v[k]);
        if (n > 16)
          g_string_append_printf (s, "... (%" G_GSIZE_FORMAT " bytes)", n);
      }
      break;
    default:
      break;
    }
}

static void
append_function_header (GString             *s,
                        const KsSassListing *l,
                        uint32_t             f)
{
  const KsSassCubin *c = l->cubin;
  const KsCubinFunction *cf = &c->functions[f];
  const KsSassFunction *fn = &l->functions[f];
  g_autofree char *demangled = ks_sass_demangle (fn->name);
  guint n_attrs = 0;

  g_string_append_printf (s, "//\n// %s%s%s\n//   %s", fn->name, demangled ? " = " : "",
                          demangled ? demangled : "", cf->entry ? "kernel" : "device function");
  if (cf->registers != KS_SASS_NONE)
    g_string_append_printf (s, ", %u registers", cf->registers);
  if (cf->barriers != KS_SASS_NONE)
    g_string_append_printf (s, ", %u barrier%s", cf->barriers, cf->barriers == 1 ? "" : "s");
  g_string_append_printf (s, ", %" G_GINT64_MODIFIER "u bytes shared", cf->shared_bytes);
  if (cf->max_stack != KS_SASS_NONE)
    g_string_append_printf (s, ", %u bytes stack", cf->max_stack);
  g_string_append_printf (s, ", %u instructions\n", fn->n_insns);
  if (cf->param_bytes != KS_SASS_NONE || cf->n_params > 0)
    {
      g_string_append (s, "//   parameters");
      if (cf->param_cbank_offset != KS_SASS_NONE)
        g_string_append_printf (s, " at c[0x0][0x%x]", cf->param_cbank_offset);
      if (cf->param_bytes != KS_SASS_NONE)
        g_string_append_printf (s, ", %u bytes", cf->param_bytes);
      g_string_append_c (s, '\n');
    }
  for (uint32_t k = 0; k < cf->n_params; k++)
    {
      const KsCubinParam *p = &c->params[cf->first_param + k];

      g_string_append_printf (s, "//     %u: offset 0x%x, %u bytes", p->index, p->offset, p->size);
      if (p->cbank_offset != KS_SASS_NONE)
        g_string_append_printf (s, ", c[0x0][0x%x]", p->cbank_offset);
      g_string_append_c (s, '\n');
    }
  for (uint32_t k = 0; k < c->n_attrs; k++)
    {
      if (c->attrs[k].function != f)
        continue;
      g_string_append (s, n_attrs++ % 4 == 0 ? (n_attrs > 1 ? "\n//     " : "//   .nv.info: ") : "; ");
      append_attr (s, c, &c->attrs[k]);
    }
  if (n_attrs > 0)
    g_string_append_c (s, '\n');
}

/* The line the text's end is on, counting only what was added since the
 * last call: counting the whole text for each instruction made a large
 * cubin quadratic */
typedef struct
{
  gsize counted;
  guint line;
} LineCounter;

static guint
current_line (LineCounter   *c,
              const GString *s)
{
  for (; c->counted < s->len; c->counted++)
    c->line += s->str[c->counted] == '\n';
  return c->line;
}

/* Makes the text and gives each instruction and function its line */
static void
make_text (KsSassListing *l)
{
  KsSassCubin *c = l->cubin;
  GString *s = g_string_new (NULL);
  LineCounter lines = { 0, 1 };
  char flags[16];

  g_snprintf (flags, sizeof flags, "0x%08x", c->e_flags);
  g_string_append_printf (s, "// %s: a cubin for %s (ELF ABI %u, e_flags %s", c->filename, c->arch,
                          c->abi_version, flags);
  if (c->toolkit != 0)
    g_string_append_printf (s, ", CUDA %u.%u", c->toolkit / 10, c->toolkit % 10);
  g_string_append (s, "), read by KernelScope\n");
  if (c->disassembler != NULL)
    g_string_append_printf (s, "// instructions named by %s\n", c->disassembler);
  else
    {
      gboolean any = FALSE;

      for (uint32_t i = 0; i < l->n_insns && !any; i++)
        any = ks_sass_decode_opcode (c->arch_number, &l->insns[i]) != NULL;
      if (any)
        g_string_append_printf (s, "// %s: opcodes, predicates and special registers read from "
                                   "the words by KernelScope (sm_70 to sm_90); \"…\" stands for "
                                   "the modifiers and operands a disassembler would print\n",
                                c->note != NULL ? c->note : "no disassembler named the "
                                                            "instructions");
      else
        g_string_append_printf (s, "// offsets, control codes and words only: %s\n",
                                c->note != NULL ? c->note : "no disassembler named the "
                                                            "instructions");
    }
  g_string_append (s, "// control code: barriers waited on, read and write barrier set, yield, stall\n");

  for (uint32_t f = 0; f < l->n_functions; f++)
    {
      KsSassFunction *fn = &l->functions[f];
      uint32_t label = fn->first_label, last_source = KS_SASS_NONE;

      append_function_header (s, l, f);
      g_string_append_printf (s, "\t.section\t.text.%s\n", fn->name);
      fn->line = current_line (&lines, s);
      g_string_append_printf (s, "%s:\n", fn->name);
      for (uint32_t i = fn->first_insn; i < fn->first_insn + fn->n_insns; i++)
        {
          KsSassInsn *in = &l->insns[i];
          char ctl[KS_SASS_CONTROL_TEXT_SIZE], hex[KS_SASS_HEX_TEXT_SIZE];
          gboolean decoded;

          for (; label < fn->first_label + fn->n_labels && l->labels[label].insn <= i; label++)
            g_string_append_printf (s, "%s:\n", l->labels[label].name);
          if (in->source != KS_SASS_NONE && in->source != last_source && in->source < l->n_sources)
            {
              const KsSassSource *src = &l->sources[in->source];

              g_string_append_printf (s, "\t//## File \"%s\", line %u", src->file, src->line);
              if (src->inlined_file != NULL)
                g_string_append_printf (s, " inlined at \"%s\", line %u", src->inlined_file,
                                        src->inlined_line);
              g_string_append_c (s, '\n');
            }
          last_source = in->source;
          in->line = current_line (&lines, s);
          ks_sass_control_to_string (&in->control, ctl);
          /* an opcode read from the words comes first, then its control
           * code: a narrow pane shows what the instruction is */
          decoded = in->opcode == NULL && c->disassembler == NULL
                    && ks_sass_decode_opcode (c->arch_number, in) != NULL;
          if (decoded)
            g_string_append_printf (s, "    /*%04" G_GINT64_MODIFIER "x*/ ", in->offset);
          else
            g_string_append_printf (s, "    [%s] /*%04" G_GINT64_MODIFIER "x*/ ", ctl, in->offset);
          if (in->opcode != NULL)
            {
              ks_sass_insn_append_text (s, l, in, "");
              g_string_append (s, " ;");
            }
          else if (decoded)
            {
              const char *sr = ks_sass_decode_sreg (c->arch_number, in);
              char pred[8];
              const char *p = ks_sass_decode_predicate (c->arch_number, in, pred);

              if (p != NULL)
                g_string_append_printf (s, "%s ", p);
              g_string_append_printf (s, "%s …%s%s ; [%s]",
                                      ks_sass_decode_opcode (c->arch_number, in), sr ? " " : "",
                                      sr ? sr : "", ctl);
            }
          g_string_append_printf (s, " /* %s */\n", ks_sass_insn_hex (in, hex));
        }
      for (; label < fn->first_label + fn->n_labels; label++)
        g_string_append_printf (s, "%s:\n", l->labels[label].name);
    }
  g_free (c->text);
  c->text = g_string_free (s, FALSE);
}

const char *
ks_sass_cubin_text (const KsSassListing *l)
{
  g_return_val_if_fail (l != NULL && l->cubin != NULL, NULL);

  if (l->cubin->text == NULL)
    make_text ((KsSassListing *) l);
  return l->cubin->text;
}

void
ks_sass_cubin_set_note (KsSassListing *l,
                        const char    *note)
{
  g_return_if_fail (l != NULL && l->cubin != NULL);

  g_free (l->cubin->note);
  l->cubin->note = g_strdup (note);
  make_text (l);
}

/* The instruction of fn at offset, by bisection (offsets grow), or
 * KS_SASS_NONE */
static uint32_t
insn_at_offset (const KsSassListing  *l,
                const KsSassFunction *fn,
                uint64_t              offset)
{
  uint32_t lo = fn->first_insn, hi = fn->first_insn + fn->n_insns;

  while (lo < hi)
    {
      uint32_t mid = lo + (hi - lo) / 2;

      if (l->insns[mid].offset < offset)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < fn->first_insn + fn->n_insns && l->insns[lo].offset == offset ? lo : KS_SASS_NONE;
}

gboolean
ks_sass_cubin_add_disassembly (KsSassListing       *l,
                               const KsSassListing *d,
                               const char          *tool,
                               GError             **error)
{
  g_autofree uint32_t *match = NULL;   /* per instruction of d: ours, or KS_SASS_NONE */
  GPtrArray *operands;
  GArray *labels;

  g_return_val_if_fail (l != NULL && l->cubin != NULL && d != NULL, FALSE);

  /* Check everything first: on a mismatch nothing changes */
  match = g_new (uint32_t, MAX (d->n_insns, 1));
  for (uint32_t i = 0; i < d->n_insns; i++)
    match[i] = KS_SASS_NONE;
  for (uint32_t f = 0; f < l->n_functions; f++)
    {
      const KsSassFunction *fn = &l->functions[f];
      const KsSassFunction *dfn = ks_sass_find_function (d, fn->name, NULL);

      if (dfn == NULL)
        {
          g_set_error (error, KS_SASS_ERROR, KS_SASS_ERROR_ELF,
                       "%s: error: the %s listing has no function %s", l->cubin->filename,
                       tool ? tool : "disassembler's", fn->name);
          return FALSE;
        }
      for (uint32_t k = dfn->first_insn; k < dfn->first_insn + dfn->n_insns; k++)
        {
          const KsSassInsn *din = &d->insns[k];
          uint32_t mine = insn_at_offset (l, fn, din->offset);
          const KsSassInsn *in = mine != KS_SASS_NONE ? &l->insns[mine] : NULL;

          if (in == NULL
              || ((din->flags & KS_SASS_HAS_WORD0) && din->words[0] != in->words[0])
              || ((din->flags & KS_SASS_HAS_WORD1) && din->words[1] != in->words[1]))
            {
              char hex[KS_SASS_HEX_TEXT_SIZE];

              g_set_error (error, KS_SASS_ERROR, KS_SASS_ERROR_ELF,
                           "%s: error: %s's instruction at 0x%04" G_GINT64_MODIFIER "x of %s is "
                           "not the cubin's (%s)", l->cubin->filename, tool ? tool : "the disassembler",
                           din->offset, fn->name,
                           in != NULL ? ks_sass_insn_hex (in, hex) : "it has no instruction there");
              return FALSE;
            }
          match[k] = mine;
        }
    }

  /* Then take the names, operands, line records and labels */
  operands = g_ptr_array_new ();
  for (uint32_t i = 0; i < l->n_insns; i++)
    {
      KsSassInsn *in = &l->insns[i];

      in->first_operand = operands->len;
      for (uint32_t k = 0; k < in->n_operands; k++)
        g_ptr_array_add (operands, (gpointer) l->operands[in->first_operand + k]);
    }
  for (uint32_t k = 0; k < d->n_insns; k++)
    {
      const KsSassInsn *din = &d->insns[k];
      KsSassInsn *in;

      /* nothing to take from an instruction the disassembler could not
       * name either */
      if (match[k] == KS_SASS_NONE || din->opcode == NULL)
        continue;
      in = &l->insns[match[k]];
      in->predicate = din->predicate ? g_string_chunk_insert_const (l->strings, din->predicate) : NULL;
      in->opcode = g_string_chunk_insert_const (l->strings, din->opcode);
      in->modifiers = g_string_chunk_insert_const (l->strings, din->modifiers);
      in->first_operand = operands->len;
      in->n_operands = din->n_operands;
      for (uint32_t o = 0; o < din->n_operands; o++)
        g_ptr_array_add (operands, g_string_chunk_insert_const (l->strings,
                                                                d->operands[din->first_operand + o]));
      in->pipe = din->pipe;
      in->source = din->source;
      in->flags |= din->flags & (KS_SASS_DUAL_FIRST | KS_SASS_DUAL_SECOND);
    }
  g_free (l->operands);
  l->n_operands = operands->len;
  l->operands = (const char **) g_ptr_array_free (operands, FALSE);

  /* The line records, whole: the instructions keep their indices */
  g_free (l->sources);
  l->n_sources = d->n_sources;
  l->sources = g_new0 (KsSassSource, MAX (d->n_sources, 1));
  for (uint32_t i = 0; i < d->n_sources; i++)
    {
      KsSassSource *s = &l->sources[i];

      *s = d->sources[i];
      s->file = g_string_chunk_insert_const (l->strings, s->file);
      if (s->inlined_file != NULL)
        s->inlined_file = g_string_chunk_insert_const (l->strings, s->inlined_file);
    }

  labels = g_array_new (FALSE, FALSE, sizeof (KsSassLabel));
  for (uint32_t f = 0; f < l->n_functions; f++)
    {
      KsSassFunction *fn = &l->functions[f];
      const KsSassFunction *dfn = ks_sass_find_function (d, fn->name, NULL);

      fn->first_label = labels->len;
      for (uint32_t k = dfn->first_label; k < dfn->first_label + dfn->n_labels; k++)
        {
          KsSassLabel lab = { g_string_chunk_insert_const (l->strings, d->labels[k].name), 0 };
          uint32_t at = d->labels[k].insn;

          /* a label past the last instruction stays there */
          if (at >= dfn->first_insn + dfn->n_insns || at >= d->n_insns)
            lab.insn = fn->first_insn + fn->n_insns;
          else if (match[at] != KS_SASS_NONE)
            lab.insn = match[at];
          else
            continue;
          g_array_append_val (labels, lab);
        }
      fn->n_labels = labels->len - fn->first_label;
    }
  g_free (l->labels);
  l->n_labels = labels->len;
  l->labels = (KsSassLabel *) (void *) g_array_free (labels, FALSE);

  g_free (l->cubin->disassembler);
  l->cubin->disassembler = g_strdup (tool ? tool : "a disassembler");
  g_clear_pointer (&l->cubin->note, g_free);
  make_text (l);
  return TRUE;
}

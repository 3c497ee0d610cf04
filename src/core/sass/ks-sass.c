/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sass.c: the cuobjdump / nvdisasm listing reader and the control-code
 * decoders.
 *
 * One pass over the lines; each line is one of a few shapes, recognised with
 * PCRE2 patterns (GRegex is PCRE2 in GLib 2.74).  Anything else is an error
 * naming the line, so that a cut or corrupted listing is not shown as a
 * shorter program.
 *
 * Where the hex words go.  Volta and later: cuobjdump and nvdisasm -hex put
 * the low word on the instruction's line and the high word (which holds the
 * control code) alone on the next line; a listing whose instruction line was
 * cut (the CCCL fixture) keeps only the high word, which is still the high
 * word.  Maxwell and Pascal: a control word stands alone in front of every
 * three instructions, and an instruction whose line carries no hex (the second
 * of a `{ }` pair) gets its word on a line of its own after it; so a lone word
 * goes to the instruction still waiting for its word, else it is a control
 * word for the group of the next instruction.
 */

#include <string.h>

#include "ks-sass.h"
#include "ks-sass-private.h"
#include "ks-timing.h"

G_DEFINE_QUARK (ks-sass-error-quark, ks_sass_error)

typedef struct
{
  GRegex *insn;
  GRegex *hex;
  GRegex *function;
  GRegex *section;
  GRegex *arch;
  GRegex *headerflags;
  GRegex *lineinfo;
  GRegex *label;
  GRegex *ignored;
} Patterns;

static const Patterns *
patterns (void)
{
  static Patterns p;
  static gsize once;

  if (g_once_init_enter (&once))
    {
      GRegexCompileFlags f = G_REGEX_OPTIMIZE;

      /* CuAssembler's control code, the offset, a dual-issue brace, @!P0,
       * OPCODE.MOD.MOD and the rest */
      p.insn = g_regex_new ("^\\s*(?:\\[(B[0-5-]{6}:R[0-5-]:W[0-5-]:[Y-]:S[0-9]{2})\\]\\s*)?"
                            "/\\*([0-9a-fA-F]{1,16})\\*/\\s*(\\{)?\\s*(@!?U?P(?:T|[0-9]+)\\s+)?"
                            "([A-Z][A-Z0-9_]*)((?:\\.[A-Za-z0-9_]+)*)(.*)$", f, 0, NULL);
      p.hex = g_regex_new ("^\\s*/\\*\\s*0x([0-9a-fA-F]{16})\\s*\\*/\\s*$", f, 0, NULL);
      p.function = g_regex_new ("^\\s*Function\\s*:\\s*(\\S+)\\s*$", f, 0, NULL);
      p.section = g_regex_new ("^\\s*\\.section\\s+([^,\\s]+)", f, 0, NULL);
      p.arch = g_regex_new ("^\\s*(?:arch\\s*=|code for|\\.target)\\s*(sm_[0-9]+[a-z]?)\\s*$", f, 0, NULL);
      p.headerflags = g_regex_new ("^\\s*\\.headerflags\\s.*?EF_CUDA_SM([0-9]+[a-z]?)\\b", f, 0, NULL);
      p.lineinfo = g_regex_new ("^\\s*//##\\s*File\\s+\"([^\"]*)\",\\s*line\\s+([0-9]+)"
                                "(?:\\s+inlined at\\s+\"([^\"]*)\",\\s*line\\s+([0-9]+))?", f, 0, NULL);
      p.label = g_regex_new ("^\\s*([A-Za-z_.$][A-Za-z0-9_.$]*):\\s*$", f, 0, NULL);
      /* Blank lines, comments, directives (also an offset followed by a data
       * directive), fatbin headers, cuobjdump's "....." function ends */
      p.ignored = g_regex_new ("^\\s*(?:$|//|\\.[A-Za-z_]|/\\*[0-9a-fA-F]+\\*/\\s*\\.|=+\\s*$|"
                               "Fatbin \\w+ code:|[A-Za-z_ ]+=|\\.{3,}\\s*$|[{}]\\s*$|[a-z]+\\s*$)",
                               f, 0, NULL);
      g_assert (p.insn && p.hex && p.function && p.section && p.arch && p.headerflags
                && p.lineinfo && p.label && p.ignored);
      g_once_init_leave (&once, 1);
    }
  return &p;
}

typedef struct
{
  const char *filename;
  GStringChunk *strings;
  GArray *functions;            /* KsSassFunction */
  GArray *insns;                /* KsSassInsn */
  GPtrArray *operands;          /* const char *, interned */
  GArray *sources;              /* KsSassSource */
  GArray *labels;               /* KsSassLabel */
  const char *arch;
  guint arch_number;
  uint32_t function;            /* current, or KS_SASS_NONE */
  uint32_t source;              /* current line record, or KS_SASS_NONE */
  gboolean records_open;        /* line records since the last instruction */
  uint32_t chain_tail;          /* the outermost record of source's inlining chain */
  uint32_t pending;             /* the instruction waiting for a hex word, or KS_SASS_NONE */
  gboolean function_hex;        /* the current function's instructions carry hex words */
  gboolean nvdisasm;
  gboolean in_ptx;              /* inside a "Fatbin ptx code:" section of cuobjdump */
  gboolean maxwell_layout;      /* no arch given, but 8-byte slots starting at 0x8 */
  guint stray_line;             /* a lone hex word before the layout was known, or 0 */
  /* Maxwell/Pascal: the last control word and the group it applies to */
  gboolean have_control_word;
  uint64_t control_word;
  uint64_t control_group;       /* offset of the control word, or G_MAXUINT64 until known */
} Parser;

static gboolean
fail (Parser     *ps,
      GError    **error,
      guint       line,
      const char *message)
{
  g_set_error (error, KS_SASS_ERROR, KS_SASS_ERROR_PARSE, "%s:%u:1: error: %s",
               ps->filename, line, message);
  return FALSE;
}

guint
ks_sass_arch_number (const char *arch)
{
  guint64 n;
  char *end;

  if (arch == NULL || !g_str_has_prefix (arch, "sm_") || !g_ascii_isdigit (arch[3]))
    return 0;
  n = g_ascii_strtoull (arch + 3, &end, 10);
  return n > 10000 ? 0 : (guint) n;
}

static gboolean
is_maxwell (const Parser *ps)
{
  if (ps->arch_number == 0)
    return ps->maxwell_layout;
  return ps->arch_number < 70;
}

static void
set_arch (Parser     *ps,
          const char *arch)
{
  ps->arch = g_string_chunk_insert_const (ps->strings, arch);
  ps->arch_number = ks_sass_arch_number (arch);
}

static void
start_function (Parser     *ps,
                const char *name,
                guint       line)
{
  KsSassFunction f = { 0 };

  f.name = g_string_chunk_insert_const (ps->strings, name);
  f.arch = ps->arch;
  f.line = line;
  f.first_insn = ps->insns->len;
  f.first_label = ps->labels->len;
  g_array_append_val (ps->functions, f);
  ps->function = ps->functions->len - 1;
  ps->source = KS_SASS_NONE;
  ps->records_open = FALSE;
  ps->pending = KS_SASS_NONE;
  ps->function_hex = FALSE;
  ps->have_control_word = FALSE;
}

static KsSassFunction *
current_function (Parser *ps)
{
  return &g_array_index (ps->functions, KsSassFunction, ps->function);
}

/* Volta+: the instruction waiting for its second (high) word may go
 * without it only when its function has no hex words at all (a listing
 * without -hex, or stripped); with them, the word's line is missing. */
static gboolean
check_pending (Parser     *ps,
               GError    **error,
               const char *message)
{
  const KsSassInsn *in;

  if (ps->pending == KS_SASS_NONE || is_maxwell (ps))
    return TRUE;
  in = &g_array_index (ps->insns, KsSassInsn, ps->pending);
  if (!(in->flags & KS_SASS_HAS_WORD1) && ((in->flags & KS_SASS_HAS_WORD0) || ps->function_hex))
    return fail (ps, error, in->line, message);
  return TRUE;
}

/* The end of a function (the next one, a fatbin header, a data section, the
 * end of the file): one without instructions, or whose last instruction
 * lost its second word, is what a listing cut short looks like. */
static gboolean
close_function (Parser     *ps,
                GError    **error,
                gboolean    at_end)
{
  if (ps->function != KS_SASS_NONE && current_function (ps)->n_insns == 0)
    {
      g_autofree char *msg =
        g_strdup_printf ("the function %s has no instructions (is the listing cut short?)",
                         current_function (ps)->name);

      return fail (ps, error, current_function (ps)->line, msg);
    }
  if (!check_pending (ps, error, at_end ? "the listing ends before this instruction's second hex word"
                                        : "this instruction's second hex word is missing"))
    return FALSE;
  ps->pending = KS_SASS_NONE;
  ps->function = KS_SASS_NONE;
  return TRUE;
}

/* Splits "R2, c[0x0][0x28], `(.L_x_0)" at the commas outside brackets. */
static void
add_operands (Parser     *ps,
              KsSassInsn *in,
              const char *s,
              gsize       len)
{
  gsize start = 0;
  int depth = 0;
  gboolean tick = FALSE;

  in->first_operand = ps->operands->len;
  for (gsize i = 0; i <= len; i++)
    {
      char c = i < len ? s[i] : ',';

      if (c == '`')
        tick = !tick;
      else if (c == '[' || c == '(' || c == '{')
        depth++;
      else if ((c == ']' || c == ')' || c == '}') && depth > 0)
        depth--;
      else if (c == ',' && (depth == 0 || i == len) && (!tick || i == len))
        {
          gsize a = start, b = i;

          while (a < b && g_ascii_isspace (s[a]))
            a++;
          while (b > a && g_ascii_isspace (s[b - 1]))
            b--;
          if (b > a || i < len)
            g_ptr_array_add (ps->operands, g_string_chunk_insert_len (ps->strings, s + a, b - a));
          start = i + 1;
        }
    }
  in->n_operands = ps->operands->len - in->first_operand;
}

static void
maxwell_control (Parser     *ps,
                 KsSassInsn *in)
{
  uint64_t group = in->offset & ~(uint64_t) 31;
  guint slot = (in->offset & 31u) / 8;

  if (!ps->have_control_word || slot == 0)
    return;
  if (ps->control_group == G_MAXUINT64)
    ps->control_group = group;
  if (ps->control_group != group)
    return;
  ks_sass_decode_control_maxwell (ps->control_word, slot - 1, &in->control);
  in->flags |= KS_SASS_HAS_CONTROL;
}

static gboolean
parse_insn (Parser     *ps,
            GMatchInfo *mi,
            const char *line,
            guint       lineno,
            GError    **error)
{
  const Patterns *p = patterns ();
  KsSassInsn in = { 0 };
  g_autofree char *control = g_match_info_fetch (mi, 1);
  g_autofree char *off = g_match_info_fetch (mi, 2);
  g_autofree char *brace = g_match_info_fetch (mi, 3);
  g_autofree char *pred = g_match_info_fetch (mi, 4);
  g_autofree char *opcode = g_match_info_fetch (mi, 5);
  g_autofree char *mods = g_match_info_fetch (mi, 6);
  int rest_start, rest_end;
  const char *rest;
  gsize n;
  g_autoptr(GMatchInfo) hmi = NULL;
  gboolean has_word0 = FALSE;
  uint64_t word0 = 0;
  const char *hexc;

  g_match_info_fetch_pos (mi, 7, &rest_start, &rest_end);
  rest = line + rest_start;
  n = (gsize) (rest_end - rest_start);

  /* A trailing hex comment is the instruction's own (low) word */
  hexc = g_strstr_len (rest, n, "/*");
  if (hexc != NULL)
    {
      g_autofree char *tail = g_strndup (hexc, n - (gsize) (hexc - rest));

      if (!g_regex_match (p->hex, tail, 0, &hmi))
        return fail (ps, error, lineno, "a hex word that is not 16 hex digits in /* 0x... */");
      {
        g_autofree char *h = g_match_info_fetch (hmi, 1);

        word0 = g_ascii_strtoull (h, NULL, 16);
        has_word0 = TRUE;
      }
      n = (gsize) (hexc - rest);
    }
  while (n > 0 && g_ascii_isspace (rest[n - 1]))
    n--;
  if (n > 0 && rest[n - 1] == '}')
    {
      in.flags |= KS_SASS_DUAL_SECOND;
      n--;
      while (n > 0 && g_ascii_isspace (rest[n - 1]))
        n--;
    }
  if (n > 0 && rest[n - 1] == ';')
    n--;
  else if (!(in.flags & KS_SASS_DUAL_SECOND))
    return fail (ps, error, lineno, "an instruction without its closing ';' (is the listing cut short?)");

  if (!check_pending (ps, error, "this instruction's second hex word is missing"))
    return FALSE;
  if (ps->function == KS_SASS_NONE)
    {
      /* A listing cut to its instructions names no function; the line
       * records in front of its first instruction are still its own */
      uint32_t source = ps->source, tail = ps->chain_tail;

      start_function (ps, "", lineno);
      ps->source = source;
      ps->chain_tail = tail;
    }

  in.offset = g_ascii_strtoull (off, NULL, 16);
  if (in.offset > (uint64_t) G_MAXINT64)
    return fail (ps, error, lineno, "an instruction offset past 2^63");
  in.line = lineno;
  /* Without an arch, the layout tells: Maxwell's first instruction sits
   * after the control word, at 0x8; Volta's 16-byte ones never there. */
  if (ps->arch_number == 0 && ps->insns->len == 0)
    {
      ps->maxwell_layout = (in.offset & 31u) == 8;
      if (!ps->maxwell_layout && ps->stray_line != 0)
        return fail (ps, error, ps->stray_line, "a hex word that belongs to no instruction");
      ps->stray_line = 0;
    }
  in.predicate = pred != NULL && pred[0] != '\0' ? g_string_chunk_insert_const (ps->strings, g_strstrip (pred)) : NULL;
  in.opcode = g_string_chunk_insert_const (ps->strings, opcode);
  in.modifiers = g_string_chunk_insert_const (ps->strings, mods != NULL ? mods : "");
  if (brace != NULL && brace[0] == '{')
    in.flags |= KS_SASS_DUAL_FIRST;
  in.source = ps->source;
  ps->records_open = FALSE;
  in.pipe = (uint8_t) ks_sass_opcode_pipe (in.opcode, in.modifiers);
  add_operands (ps, &in, rest, n);
  if (has_word0)
    {
      in.words[0] = word0;
      in.flags |= KS_SASS_HAS_WORD0;
      ps->function_hex = TRUE;
    }
  if (is_maxwell (ps))
    maxwell_control (ps, &in);
  /* CuAssembler writes the control code it decoded in front of the offset,
   * as ks_sass_control_to_string does (the regex checked its shape) */
  if (control != NULL && control[0] == 'B')
    {
      for (guint i = 0; i < 6; i++)
        if (control[1 + i] != '-')
          in.control.wait_mask |= (uint8_t) (1u << (control[1 + i] - '0'));
      in.control.read_barrier = control[9] == '-' ? KS_SASS_NO_BARRIER : (uint8_t) (control[9] - '0');
      in.control.write_barrier = control[12] == '-' ? KS_SASS_NO_BARRIER : (uint8_t) (control[12] - '0');
      in.control.yield = control[14] == 'Y';
      in.control.stall = (uint8_t) MIN ((control[17] - '0') * 10 + (control[18] - '0'), 15);
      in.flags |= KS_SASS_HAS_CONTROL;
    }

  g_array_append_val (ps->insns, in);
  current_function (ps)->n_insns++;
  /* Volta+: the high word follows on its own line.  Maxwell: only an
   * instruction without its word waits for one. */
  ps->pending = (!is_maxwell (ps) || !has_word0) ? ps->insns->len - 1 : KS_SASS_NONE;
  return TRUE;
}

static gboolean
parse_hex (Parser     *ps,
           GMatchInfo *mi,
           guint       lineno,
           GError    **error)
{
  g_autofree char *h = g_match_info_fetch (mi, 1);
  uint64_t w = g_ascii_strtoull (h, NULL, 16);
  KsSassInsn *in;

  ps->function_hex = TRUE;
  if (is_maxwell (ps))
    {
      if (ps->pending != KS_SASS_NONE)
        {
          in = &g_array_index (ps->insns, KsSassInsn, ps->pending);
          in->words[0] = w;
          in->flags |= KS_SASS_HAS_WORD0;
          ps->pending = KS_SASS_NONE;
        }
      else
        {
          ps->have_control_word = TRUE;
          ps->control_word = w;
          ps->control_group = G_MAXUINT64;
        }
      return TRUE;
    }
  /* No arch and no instruction yet: perhaps a Maxwell control word; the
   * first instruction's offset will tell */
  if (ps->arch_number == 0 && ps->insns->len == 0 && ps->stray_line == 0)
    {
      ps->have_control_word = TRUE;
      ps->control_word = w;
      ps->control_group = G_MAXUINT64;
      ps->stray_line = lineno;
      return TRUE;
    }
  if (ps->pending == KS_SASS_NONE)
    {
      const KsSassInsn *prev;
      KsSassInsn un = { 0 };

      /* nvdisasm prints the two words of an instruction it cannot name
       * without an instruction line (11.8 on some of its own sm_90 code):
       * an instruction without an opcode, 16 bytes after a whole one */
      if (ps->function == KS_SASS_NONE || current_function (ps)->n_insns == 0)
        return fail (ps, error, lineno, "a hex word that belongs to no instruction");
      prev = &g_array_index (ps->insns, KsSassInsn, ps->insns->len - 1);
      if (!(prev->flags & KS_SASS_HAS_WORD1) || prev->offset > (uint64_t) G_MAXINT64 - 16)
        return fail (ps, error, lineno, "a hex word that belongs to no instruction");
      un.offset = prev->offset + 16;
      un.line = lineno;
      un.modifiers = "";
      un.first_operand = ps->operands->len;
      un.words[0] = w;
      un.flags = KS_SASS_HAS_WORD0;
      un.pipe = KS_N_PIPES;
      un.source = ps->source;
      ps->records_open = FALSE;
      g_array_append_val (ps->insns, un);
      current_function (ps)->n_insns++;
      ps->pending = ps->insns->len - 1;
      return TRUE;
    }
  in = &g_array_index (ps->insns, KsSassInsn, ps->pending);
  in->words[1] = w;
  in->flags |= KS_SASS_HAS_WORD1 | KS_SASS_HAS_CONTROL;
  ks_sass_decode_control_volta (w, &in->control);
  ps->pending = KS_SASS_NONE;
  return TRUE;
}

/* A `//## File` record.  Records with no instruction between them are one
 * group: a record that the one before it was "inlined at" continues that
 * chain outward (nvdisasm -gi); a ".nv_debug_ptx_txt" record after a source
 * record gives its PTX line (listings of cubins whose PTX was kept as debug
 * text, such as Triton's); any other record replaces the group, as a later
 * line-table row at the same address does. */
static void
add_line_record (Parser     *ps,
                 const char *file,
                 const char *num,
                 const char *ifile,
                 const char *inum)
{
  KsSassSource s = { 0 };

  s.file = g_string_chunk_insert_const (ps->strings, file);
  s.line = (uint32_t) MIN (g_ascii_strtoull (num, NULL, 10), G_MAXUINT32);
  s.caller = KS_SASS_NONE;
  if (ifile != NULL && ifile[0] != '\0')
    {
      s.inlined_file = g_string_chunk_insert_const (ps->strings, ifile);
      s.inlined_line = (uint32_t) MIN (g_ascii_strtoull (inum, NULL, 10), G_MAXUINT32);
    }

  if (ps->records_open && ps->source != KS_SASS_NONE)
    {
      KsSassSource *head = &g_array_index (ps->sources, KsSassSource, ps->source);
      KsSassSource *tail = &g_array_index (ps->sources, KsSassSource, ps->chain_tail);

      if (strcmp (s.file, ".nv_debug_ptx_txt") == 0 && s.inlined_file == NULL
          && strcmp (head->file, ".nv_debug_ptx_txt") != 0)
        {
          head->ptx_line = s.line;
          return;
        }
      if (tail->inlined_file != NULL && tail->inlined_line == s.line
          && strcmp (tail->inlined_file, s.file) == 0)
        {
          tail->caller = ps->sources->len;
          ps->chain_tail = ps->sources->len;
          g_array_append_val (ps->sources, s);
          return;
        }
    }
  g_array_append_val (ps->sources, s);
  ps->source = ps->chain_tail = ps->sources->len - 1;
  ps->records_open = TRUE;
}

static gboolean
parse_line (Parser     *ps,
            const char *line,
            guint       lineno,
            GError    **error)
{
  const Patterns *p = patterns ();
  g_autoptr(GMatchInfo) mi = NULL;
  const char *t = line;

  /* Plain cuobjdump (or -ptx -sass) prints the embedded PTX too: its text
   * runs until the next fatbin header and is not SASS. */
  while (*t == ' ' || *t == '\t')
    t++;
  if (g_str_has_prefix (t, "Fatbin ptx code:"))
    {
      ps->in_ptx = TRUE;
      return close_function (ps, error, FALSE);
    }
  if (g_str_has_prefix (t, "Fatbin elf code:"))
    {
      ps->in_ptx = FALSE;
      return close_function (ps, error, FALSE);
    }
  if (ps->in_ptx)
    return TRUE;

  if (g_regex_match (p->insn, line, 0, &mi))
    return parse_insn (ps, mi, line, lineno, error);
  g_clear_pointer (&mi, g_match_info_free);

  if (g_regex_match (p->hex, line, 0, &mi))
    return parse_hex (ps, mi, lineno, error);
  g_clear_pointer (&mi, g_match_info_free);

  if (g_regex_match (p->lineinfo, line, 0, &mi))
    {
      g_autofree char *file = g_match_info_fetch (mi, 1);
      g_autofree char *num = g_match_info_fetch (mi, 2);
      g_autofree char *ifile = g_match_info_fetch (mi, 3);
      g_autofree char *inum = g_match_info_fetch (mi, 4);

      add_line_record (ps, file, num, ifile, inum);
      return TRUE;
    }
  g_clear_pointer (&mi, g_match_info_free);

  if (g_regex_match (p->function, line, 0, &mi))
    {
      g_autofree char *name = g_match_info_fetch (mi, 1);

      if (!close_function (ps, error, FALSE))
        return FALSE;
      start_function (ps, name, lineno);
      return TRUE;
    }
  g_clear_pointer (&mi, g_match_info_free);

  if (g_regex_match (p->arch, line, 0, &mi))
    {
      g_autofree char *arch = g_match_info_fetch (mi, 1);

      set_arch (ps, arch);
      return TRUE;
    }
  g_clear_pointer (&mi, g_match_info_free);

  if (g_regex_match (p->headerflags, line, 0, &mi))
    {
      g_autofree char *num = g_match_info_fetch (mi, 1);
      g_autofree char *arch = g_strconcat ("sm_", num, NULL);

      /* cuobjdump repeats it inside each function, after the header said
       * it (as "sm_90a" where this says SM90).  Another number starts
       * another listing: nvdisasm outputs put together in one file. */
      if (ps->arch == NULL)
        set_arch (ps, arch);
      else if (ks_sass_arch_number (arch) != ps->arch_number)
        {
          if (ps->function != KS_SASS_NONE && current_function (ps)->n_insns == 0)
            {
              set_arch (ps, arch);
              current_function (ps)->arch = ps->arch;
            }
          else
            {
              if (!close_function (ps, error, FALSE))
                return FALSE;
              set_arch (ps, arch);
              ps->have_control_word = FALSE;
            }
        }
      return TRUE;
    }
  g_clear_pointer (&mi, g_match_info_free);

  if (g_regex_match (p->section, line, 0, &mi))
    {
      g_autofree char *name = g_match_info_fetch (mi, 1);

      ps->nvdisasm = TRUE;
      if (!close_function (ps, error, FALSE))
        return FALSE;
      if (g_str_has_prefix (name, ".text.") && name[6] != '\0')
        start_function (ps, name + 6, lineno);
      return TRUE;
    }
  g_clear_pointer (&mi, g_match_info_free);

  if (g_regex_match (p->label, line, 0, &mi))
    {
      g_autofree char *name = g_match_info_fetch (mi, 1);
      KsSassFunction *f;

      if (ps->function == KS_SASS_NONE)
        return TRUE;            /* a data section's label */
      f = current_function (ps);
      if (strcmp (name, f->name) != 0
          && !(g_str_has_prefix (name, ".text.") && strcmp (name + 6, f->name) == 0))
        {
          KsSassLabel l = { g_string_chunk_insert_const (ps->strings, name), ps->insns->len };

          g_array_append_val (ps->labels, l);
          f->n_labels++;
        }
      return TRUE;
    }
  g_clear_pointer (&mi, g_match_info_free);

  if (g_regex_match (p->ignored, line, 0, NULL))
    return TRUE;

  return fail (ps, error, lineno, "not a line of a cuobjdump or nvdisasm SASS listing");
}

KsSassListing *
ks_sass_parse (const char  *text,
               gsize        len,
               const char  *filename,
               GError     **error)
{
  Parser ps = { 0 };
  g_autoptr(GError) local = NULL;
  KsSassListing *l;
  const char *end, *s;
  guint lineno = 0;
  gboolean ok = TRUE;
  const char *bad;

  g_return_val_if_fail (text != NULL || len == 0, NULL);

  ps.filename = filename != NULL ? filename : "<input>";
  /* A byte order mark: UTF-8's is no line (Windows editors write one);
   * UTF-16 is what PowerShell's > makes of cuobjdump's output */
  if (len >= 3 && memcmp (text, "\xef\xbb\xbf", 3) == 0)
    {
      text += 3;
      len -= 3;
    }
  else if (len >= 2 && (memcmp (text, "\xff\xfe", 2) == 0 || memcmp (text, "\xfe\xff", 2) == 0))
    {
      fail (&ps, error, 1, "UTF-16 text, not UTF-8 (PowerShell's > writes it so; save the listing "
            "as UTF-8, for example with | Out-File -Encoding utf8)");
      return NULL;
    }
  end = text + len;
  s = text;
  if (memchr (text, '\0', len) != NULL || !g_utf8_validate (text, (gssize) len, &bad))
    {
      const char *at = memchr (text, '\0', len);
      guint line = 1;

      if (at == NULL || (!g_utf8_validate (text, (gssize) len, &bad) && bad < at))
        at = bad;
      for (const char *c = text; c < at; c++)
        line += *c == '\n';
      fail (&ps, error, line, "binary data, not a text listing (disassemble a cubin with "
            "nvdisasm or cuobjdump -sass first)");
      return NULL;
    }

  ps.strings = g_string_chunk_new (4096);
  ps.functions = g_array_new (FALSE, FALSE, sizeof (KsSassFunction));
  ps.insns = g_array_new (FALSE, FALSE, sizeof (KsSassInsn));
  ps.operands = g_ptr_array_new ();
  ps.sources = g_array_new (FALSE, FALSE, sizeof (KsSassSource));
  ps.labels = g_array_new (FALSE, FALSE, sizeof (KsSassLabel));
  ps.function = ps.source = ps.pending = KS_SASS_NONE;

  while (s < end && ok)
    {
      const char *nl = memchr (s, '\n', (gsize) (end - s));
      const char *e = nl != NULL ? nl : end;
      g_autofree char *line = NULL;

      if (e > s && e[-1] == '\r')
        line = g_strndup (s, (gsize) (e - 1 - s));
      else
        line = g_strndup (s, (gsize) (e - s));
      lineno++;
      ok = parse_line (&ps, line, lineno, &local);
      s = nl != NULL ? nl + 1 : end;
    }

  if (ok && ps.insns->len == 0 && ps.stray_line != 0)
    ok = fail (&ps, &local, ps.stray_line, "a hex word that belongs to no instruction");
  if (ok && ps.insns->len == 0)
    {
      g_set_error (&local, KS_SASS_ERROR, KS_SASS_ERROR_EMPTY,
                   "%s:%u:1: error: no SASS instructions in this file", ps.filename, MAX (lineno, 1));
      ok = FALSE;
    }
  /* A Volta+ listing with hex that ends on an instruction line has lost
   * the instruction's second word: it was cut. */
  if (ok)
    ok = close_function (&ps, &local, TRUE);

  if (!ok)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      g_string_chunk_free (ps.strings);
      g_array_unref (ps.functions);
      g_array_unref (ps.insns);
      g_ptr_array_unref (ps.operands);
      g_array_unref (ps.sources);
      g_array_unref (ps.labels);
      return NULL;
    }

  l = g_new0 (KsSassListing, 1);
  l->format = ps.nvdisasm ? KS_SASS_FORMAT_NVDISASM : KS_SASS_FORMAT_CUOBJDUMP;
  l->strings = ps.strings;
  l->n_functions = ps.functions->len;
  l->functions = (KsSassFunction *) (void *) g_array_free (ps.functions, FALSE);
  l->n_insns = ps.insns->len;
  l->insns = (KsSassInsn *) (void *) g_array_free (ps.insns, FALSE);
  l->n_operands = ps.operands->len;
  l->operands = (const char **) g_ptr_array_free (ps.operands, FALSE);
  l->n_sources = ps.sources->len;
  l->sources = (KsSassSource *) (void *) g_array_free (ps.sources, FALSE);
  l->n_labels = ps.labels->len;
  l->labels = (KsSassLabel *) (void *) g_array_free (ps.labels, FALSE);
  return l;
}

void
ks_sass_listing_free (KsSassListing *l)
{
  if (l == NULL)
    return;
  g_free (l->functions);
  g_free (l->insns);
  g_free (l->operands);
  g_free (l->sources);
  g_free (l->labels);
  _ks_sass_cubin_free (l->cubin);
  g_string_chunk_free (l->strings);
  g_free (l);
}

void
ks_sass_listing_set_arch (KsSassListing *l,
                          const char    *arch)
{
  const char *interned;

  g_return_if_fail (l != NULL);
  if (arch == NULL)
    return;
  interned = g_string_chunk_insert_const (l->strings, arch);
  for (uint32_t f = 0; f < l->n_functions; f++)
    if (l->functions[f].arch == NULL)
      l->functions[f].arch = interned;
}

const KsSassFunction *
ks_sass_find_function (const KsSassListing *l,
                       const char          *name,
                       const char          *arch)
{
  g_return_val_if_fail (l != NULL && name != NULL, NULL);

  for (uint32_t i = 0; i < l->n_functions; i++)
    if (strcmp (l->functions[i].name, name) == 0
        && (arch == NULL || g_strcmp0 (l->functions[i].arch, arch) == 0))
      return &l->functions[i];
  return NULL;
}

const KsSassSource *
ks_sass_insn_source (const KsSassListing *l,
                     uint32_t             insn)
{
  g_return_val_if_fail (l != NULL, NULL);

  if (insn >= l->n_insns || l->insns[insn].source == KS_SASS_NONE)
    return NULL;
  return &l->sources[l->insns[insn].source];
}

/* "void f<int>(int*)" -> "f<int>": the text before the parameters' '('
 * and after the return type's last space outside template brackets */
static char *
bare_name (const char *demangled)
{
  const char *start = demangled, *end = NULL;
  int depth = 0;

  for (const char *c = demangled; *c != '\0' && end == NULL; c++)
    {
      if (*c == '<')
        depth++;
      else if (*c == '>' && depth > 0)
        depth--;
      else if (*c == ' ' && depth == 0)
        start = c + 1;
      else if (*c == '(' && depth == 0)
        end = c;
    }
  if (end == NULL || end < start)
    return g_strdup (demangled);
  return g_strndup (start, (gsize) (end - start));
}

const KsSassFunction *
ks_sass_match_function (const KsSassListing *l,
                        const char          *name,
                        const char          *arch)
{
  const KsSassFunction *f;

  g_return_val_if_fail (l != NULL && name != NULL, NULL);

  f = ks_sass_find_function (l, name, arch);
  if (f != NULL)
    return f;
  for (int pass = 0; pass < 2; pass++)
    for (uint32_t i = 0; i < l->n_functions; i++)
      {
        g_autofree char *d = NULL;
        g_autofree char *bare = NULL;

        if (arch != NULL && g_strcmp0 (l->functions[i].arch, arch) != 0)
          continue;
        d = ks_sass_demangle (l->functions[i].name);
        if (d == NULL)
          continue;
        if (pass == 0 && strcmp (d, name) == 0)
          return &l->functions[i];
        bare = bare_name (d);
        if (pass == 1 && strcmp (bare, name) == 0)
          return &l->functions[i];
      }
  return NULL;
}

static gboolean
same_file (const char *a,
           const char *b)
{
  const char *sa, *sb;

  if (a == NULL || b == NULL)
    return FALSE;
  if (strcmp (a, b) == 0)
    return TRUE;
  sa = strrchr (a, '/');
  sb = strrchr (b, '/');
  if (sa != NULL && sb != NULL)
    return FALSE;
  return strcmp (sa != NULL ? sa + 1 : a, sb != NULL ? sb + 1 : b) == 0;
}

GArray *
ks_sass_insns_for_line (const KsSassListing  *l,
                        const KsSassFunction *f,
                        const char           *file,
                        uint32_t              line,
                        gboolean              inlined)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint32));

  g_return_val_if_fail (l != NULL && f != NULL && file != NULL, out);

  for (uint32_t i = f->first_insn; i < f->first_insn + f->n_insns && i < l->n_insns; i++)
    {
      const KsSassSource *s = ks_sass_insn_source (l, i);

      if (s == NULL)
        continue;
      if (s->line == line && same_file (s->file, file))
        g_array_append_val (out, i);
      else if (inlined)
        {
          /* any frame of its inlining stack; the outermost call site may
           * only be named by the last record's "inlined at" */
          for (guint depth = 0; s != NULL && depth < 1024; depth++)
            {
              if ((depth > 0 && s->line == line && same_file (s->file, file))
                  || (s->inlined_file != NULL && s->inlined_line == line
                      && same_file (s->inlined_file, file)))
                {
                  g_array_append_val (out, i);
                  break;
                }
              s = s->caller != KS_SASS_NONE && s->caller < l->n_sources ? &l->sources[s->caller] : NULL;
            }
        }
    }
  return out;
}

GArray *
ks_sass_insns_for_ptx_line (const KsSassListing  *l,
                            const KsSassFunction *f,
                            const KsPtxModule    *m,
                            uint32_t              ptx_line)
{
  g_return_val_if_fail (l != NULL && f != NULL && m != NULL, NULL);

  for (uint32_t i = 0; i < m->n_insns; i++)
    {
      uint32_t file, line;
      const KsPtxFile *pf;
      g_autofree char *path = NULL;

      if (m->insns[i].line != ptx_line)
        continue;
      if (!ks_ptx_insn_source (m, &m->insns[i], &file, &line))
        break;
      pf = ks_ptx_module_find_file (m, file);
      if (pf == NULL)
        break;
      path = ks_ptx_span_dup (m, pf->path);
      return ks_sass_insns_for_line (l, f, path, line, TRUE);
    }
  return g_array_new (FALSE, FALSE, sizeof (guint32));
}

/* Volta to Blackwell: bits 105-125 of the 128-bit instruction, i.e. bits
 * 41-61 of its high word, as found by Jia et al., "Dissecting the NVIDIA
 * Volta GPU Architecture via Microbenchmarking" (2018), section 2.1: stall
 * cycles (4 bits), yield (1; clear means the warp may yield), write barrier
 * (3; 7 is none), read barrier (3), wait barrier mask (6), reuse (4).  The
 * YKTian sm_86 cubin and its CuAssembler text in tests/fixtures/sass check
 * this bit for bit. */
void
ks_sass_decode_control_volta (uint64_t       w,
                              KsSassControl *out)
{
  out->stall = (uint8_t) ((w >> 41) & 0xf);
  out->yield = (uint8_t) !((w >> 45) & 1);
  out->write_barrier = (uint8_t) ((w >> 46) & 0x7);
  out->read_barrier = (uint8_t) ((w >> 49) & 0x7);
  out->wait_mask = (uint8_t) ((w >> 52) & 0x3f);
  out->reuse = (uint8_t) ((w >> 58) & 0xf);
}

void
ks_sass_insn_append_text (GString             *out,
                          const KsSassListing *l,
                          const KsSassInsn    *in,
                          const char          *unnamed)
{
  if (in->opcode == NULL)
    {
      g_string_append (out, unnamed);
      return;
    }
  if (in->predicate != NULL)
    g_string_append_printf (out, "%s ", in->predicate);
  g_string_append_printf (out, "%s%s", in->opcode, in->modifiers);
  for (uint32_t k = 0; k < in->n_operands; k++)
    g_string_append_printf (out, "%s%s", k ? ", " : " ", l->operands[in->first_operand + k]);
}

char *
ks_sass_control_to_string (const KsSassControl *c,
                           char                *buf)
{
  char wait[7];

  g_return_val_if_fail (c != NULL && buf != NULL, buf);

  for (guint bit = 0; bit < 6; bit++)
    wait[bit] = (c->wait_mask & (1u << bit)) ? (char) ('0' + bit) : '-';
  wait[6] = '\0';
  g_snprintf (buf, KS_SASS_CONTROL_TEXT_SIZE, "B%s:R%c:W%c:%c:S%02u", wait,
              c->read_barrier >= KS_SASS_NO_BARRIER ? '-' : (char) ('0' + c->read_barrier),
              c->write_barrier >= KS_SASS_NO_BARRIER ? '-' : (char) ('0' + c->write_barrier),
              c->yield ? 'Y' : '-', (guint) c->stall & 0xf);
  return buf;
}

/* Maxwell and Pascal: a control word in front of every three instructions,
 * three 21-bit fields from the low bits up (slot 0 first), each laid out as
 * Volta's 21 bits are (stall 0-3, yield 4, write barrier 5-7, read barrier
 * 8-10, wait mask 11-16, reuse 17-20), as Scott Gray's maxas documents them
 * (github.com/NervanaSystems/maxas, wiki "Control Codes"); the Volta paper
 * above notes that Volta keeps the same fields per instruction. */
void
ks_sass_decode_control_maxwell (uint64_t       w,
                                guint          slot,
                                KsSassControl *out)
{
  uint32_t c;

  g_return_if_fail (slot < 3);
  c = (uint32_t) ((w >> (21 * slot)) & 0x1fffff);
  out->stall = (uint8_t) (c & 0xf);
  out->yield = (uint8_t) !((c >> 4) & 1);
  out->write_barrier = (uint8_t) ((c >> 5) & 0x7);
  out->read_barrier = (uint8_t) ((c >> 8) & 0x7);
  out->wait_mask = (uint8_t) ((c >> 11) & 0x3f);
  out->reuse = (uint8_t) ((c >> 17) & 0xf);
}

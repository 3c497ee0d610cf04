/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sass-decode.c: the opcode of a Volta-to-Hopper SASS instruction read
 * from its words, where no disassembler is at hand (CUDA 13 ships ptxas
 * but neither nvdisasm nor cuobjdump on every machine).
 *
 * From sm_70 on, bits 0-11 of an instruction's low word select the
 * instruction and the kind of its operands (0x223 FFMA R, R, R; 0x823 FFMA
 * R, R, imm; 0xa23 FFMA R, R, c[][]).  The table below maps those twelve
 * bits to the opcode NVIDIA's disassembler prints, for the architecture
 * families in which the pair was seen: it was read off nvdisasm 11.8's
 * listings of 257,105 instructions (every PTX of this repository and the
 * Probe Lab's probes, assembled by ptxas 11.8 for sm_70, 75, 80, 86, 87, 89
 * and 90; build-aux/make-sass-decode-table.py remakes it), and
 * tests/test-sass.c holds it to every committed listing.  A code not in the table for the instruction's family,
 * or an architecture outside sm_70..sm_90, decodes to NULL: never a guess.
 * It names the opcode only: the modifiers and operands need a
 * disassembler.  The one code whose name changed within the families is
 * 0x98e, RED up to Ada and REDG on Hopper.
 *
 * S2R, S2UR and CS2R name the special register they read in bits 8-15 of
 * the high word, from the same listings. */

#include <stdlib.h>
#include <string.h>

#include "ks-sass.h"
#include "ks-timing.h"

enum
{
  VOLTA = 1 << 0,               /* sm_70, sm_72 */
  TURING = 1 << 1,              /* sm_75 */
  AMPERE = 1 << 2,              /* sm_80, sm_86, sm_87 and Ada, sm_89 */
  HOPPER = 1 << 3,              /* sm_90 */
};

typedef struct
{
  uint16_t code;                /* bits 0-11 of the low word */
  uint8_t families;             /* where nvdisasm named it so */
  const char *opcode;
} DecodeRow;

/* Sorted by code, then name (a test checks it) */
static const DecodeRow rows[] = {
  { 0x202, 0xf, "MOV" },
  { 0x207, 0xf, "SEL" },
  { 0x208, 0xf, "FSEL" },
  { 0x20b, 0xf, "FSETP" },
  { 0x20c, 0xf, "ISETP" },
  { 0x210, 0xf, "IADD3" },
  { 0x211, 0xf, "LEA" },
  { 0x212, 0xf, "LOP3" },
  { 0x213, 0xf, "IABS" },
  { 0x215, 0xf, "VABSDIFF4" },
  { 0x216, 0xf, "PRMT" },
  { 0x217, 0x6, "IMNMX" },
  { 0x219, 0xf, "SHF" },
  { 0x220, 0xf, "FMUL" },
  { 0x221, 0xf, "FADD" },
  { 0x223, 0xf, "FFMA" },
  { 0x224, 0xf, "IMAD" },
  { 0x225, 0xf, "IMAD" },
  { 0x226, 0xf, "IDP" },
  { 0x227, 0xe, "IMAD" },
  { 0x228, 0xf, "DMUL" },
  { 0x229, 0xf, "DADD" },
  { 0x22a, 0xf, "DSETP" },
  { 0x22b, 0xf, "DFMA" },
  { 0x230, 0xf, "HADD2" },
  { 0x231, 0x8, "HFMA2" },
  { 0x232, 0xf, "HMUL2" },
  { 0x236, 0x1, "HMMA" },
  { 0x23c, 0xe, "HMMA" },
  { 0x23e, 0xc, "F2FP" },
  { 0x245, 0xc, "I2FP" },
  { 0x290, 0xe, "UIADD3" },
  { 0x291, 0x2, "ULEA" },
  { 0x292, 0xe, "ULOP3" },
  { 0x2a4, 0xe, "UIMAD" },
  { 0x2a5, 0x6, "UIMAD" },
  { 0x2bd, 0xe, "UFLO" },
  { 0x2bf, 0xe, "UPOPC" },
  { 0x2ca, 0x8, "R2UR" },
  { 0x300, 0xf, "FLO" },
  { 0x301, 0xf, "BREV" },
  { 0x302, 0xf, "FCHK" },
  { 0x304, 0xb, "F2F" },
  { 0x305, 0xf, "F2I" },
  { 0x306, 0xf, "I2F" },
  { 0x307, 0xf, "FRND" },
  { 0x308, 0xf, "MUFU" },
  { 0x309, 0xf, "POPC" },
  { 0x310, 0xf, "F2F" },
  { 0x311, 0xf, "F2I" },
  { 0x312, 0xf, "I2F" },
  { 0x313, 0xf, "FRND" },
  { 0x31c, 0xf, "B2R" },
  { 0x31d, 0x8, "BAR" },
  { 0x344, 0xf, "CALL" },
  { 0x348, 0xf, "WARPSYNC" },
  { 0x355, 0xf, "BMOV" },
  { 0x356, 0xf, "BMOV" },
  { 0x35d, 0xf, "NANOSLEEP" },
  { 0x381, 0x3, "LDG" },
  { 0x385, 0x3, "ST" },
  { 0x386, 0x3, "STG" },
  { 0x387, 0xf, "STL" },
  { 0x388, 0xf, "STS" },
  { 0x389, 0xf, "SHFL" },
  { 0x38a, 0x3, "ATOM" },
  { 0x38b, 0xf, "ATOM" },
  { 0x38c, 0x7, "ATOMS" },
  { 0x38d, 0xf, "ATOMS" },
  { 0x3a1, 0xf, "MATCH" },
  { 0x3a8, 0x1, "ATOMG" },
  { 0x3a9, 0xf, "ATOMG" },
  { 0x3aa, 0xf, "QSPC" },
  { 0x3c2, 0x4, "R2UR" },
  { 0x3c4, 0xc, "REDUX" },
  { 0x414, 0xf, "VABSDIFF" },
  { 0x421, 0xf, "FADD" },
  { 0x423, 0xf, "FFMA" },
  { 0x424, 0xf, "IMAD" },
  { 0x429, 0xf, "DADD" },
  { 0x42a, 0xf, "DSETP" },
  { 0x42b, 0xf, "DFMA" },
  { 0x431, 0xf, "HFMA2" },
  { 0x433, 0xf, "HSET2" },
  { 0x434, 0xf, "HSETP2" },
  { 0x435, 0xc, "HFMA2" },
  { 0x4a4, 0xe, "UIMAD" },
  { 0x589, 0xf, "SHFL" },
  { 0x5a7, 0x8, "SYNCS" },
  { 0x5ab, 0x8, "CGAERRBAR" },
  { 0x5b2, 0x8, "SYNCS" },
  { 0x621, 0x4, "FADD" },
  { 0x623, 0x7, "FFMA" },
  { 0x624, 0x7, "IMAD" },
  { 0x625, 0x7, "IMAD" },
  { 0x629, 0x7, "DADD" },
  { 0x62b, 0x7, "DFMA" },
  { 0x630, 0x3, "HADD2" },
  { 0x802, 0xf, "MOV" },
  { 0x803, 0xf, "P2R" },
  { 0x804, 0xf, "R2P" },
  { 0x805, 0xf, "CS2R" },
  { 0x806, 0xf, "VOTE" },
  { 0x807, 0xf, "SEL" },
  { 0x808, 0xf, "FSEL" },
  { 0x80b, 0xf, "FSETP" },
  { 0x80c, 0xf, "ISETP" },
  { 0x810, 0xf, "IADD3" },
  { 0x811, 0xf, "LEA" },
  { 0x812, 0xf, "LOP3" },
  { 0x816, 0xf, "PRMT" },
  { 0x817, 0x6, "IMNMX" },
  { 0x819, 0xf, "SHF" },
  { 0x81a, 0xf, "SGXT" },
  { 0x81c, 0xf, "PLOP3" },
  { 0x820, 0xf, "FMUL" },
  { 0x823, 0xf, "FFMA" },
  { 0x824, 0xf, "IMAD" },
  { 0x825, 0xf, "IMAD" },
  { 0x827, 0xe, "IMAD" },
  { 0x828, 0xf, "DMUL" },
  { 0x82b, 0xf, "DFMA" },
  { 0x831, 0xf, "HFMA2" },
  { 0x835, 0xc, "HFMA2" },
  { 0x840, 0x8, "HMNMX2" },
  { 0x882, 0xe, "UMOV" },
  { 0x886, 0xe, "VOTEU" },
  { 0x88c, 0xe, "UISETP" },
  { 0x890, 0xe, "UIADD3" },
  { 0x891, 0x8, "ULEA" },
  { 0x892, 0xe, "ULOP3" },
  { 0x896, 0x8, "UPRMT" },
  { 0x899, 0xe, "USHF" },
  { 0x8a4, 0x2, "UIMAD" },
  { 0x8a5, 0xa, "UIMAD" },
  { 0x906, 0xf, "I2F" },
  { 0x908, 0xf, "MUFU" },
  { 0x918, 0xf, "NOP" },
  { 0x919, 0xf, "S2R" },
  { 0x91a, 0xf, "DEPBAR" },
  { 0x91b, 0x8, "ENDCOLLECTIVE" },
  { 0x941, 0xf, "BSYNC" },
  { 0x942, 0xf, "BREAK" },
  { 0x943, 0xf, "CALL" },
  { 0x944, 0xf, "CALL" },
  { 0x945, 0xf, "BSSY" },
  { 0x946, 0xf, "YIELD" },
  { 0x947, 0xf, "BRA" },
  { 0x948, 0xf, "WARPSYNC" },
  { 0x949, 0x1, "BRX" },
  { 0x94d, 0xf, "EXIT" },
  { 0x950, 0xf, "RET" },
  { 0x956, 0x4, "BMOV" },
  { 0x958, 0xe, "BRXU" },
  { 0x95c, 0xf, "BPT" },
  { 0x95d, 0xf, "NANOSLEEP" },
  { 0x980, 0xf, "LD" },
  { 0x981, 0xe, "LDG" },
  { 0x983, 0xf, "LDL" },
  { 0x984, 0xf, "LDS" },
  { 0x985, 0xe, "ST" },
  { 0x986, 0xe, "STG" },
  { 0x988, 0xe, "STS" },
  { 0x989, 0xf, "SHFL" },
  { 0x98a, 0xe, "ATOM" },
  { 0x98c, 0x8, "ATOMS" },
  { 0x98e, 0x7, "RED" },
  { 0x98e, 0x8, "REDG" },
  { 0x98f, 0xf, "CCTL" },
  { 0x992, 0xf, "MEMBAR" },
  { 0x9a2, 0x8, "ATOM" },
  { 0x9a6, 0x8, "REDG" },
  { 0x9a7, 0x8, "SYNCS" },
  { 0x9a8, 0xe, "ATOMG" },
  { 0x9aa, 0x2, "QSPC" },
  { 0x9ab, 0xf, "ERRBAR" },
  { 0x9af, 0x8, "LDGDEPBAR" },
  { 0x9b0, 0x8, "ARRIVES" },
  { 0x9c3, 0xe, "S2UR" },
  { 0x9c7, 0x8, "UCGABAR_ARV" },
  { 0xa02, 0x7, "MOV" },
  { 0xa08, 0x7, "FSEL" },
  { 0xa09, 0x7, "FMNMX" },
  { 0xa0b, 0x7, "FSETP" },
  { 0xa0c, 0x7, "ISETP" },
  { 0xa10, 0x7, "IADD3" },
  { 0xa11, 0x7, "LEA" },
  { 0xa12, 0x7, "LOP3" },
  { 0xa13, 0x7, "IABS" },
  { 0xa20, 0x7, "FMUL" },
  { 0xa23, 0x7, "FFMA" },
  { 0xa24, 0x7, "IMAD" },
  { 0xa25, 0x7, "IMAD" },
  { 0xa28, 0x7, "DMUL" },
  { 0xa2b, 0x7, "DFMA" },
  { 0xa3e, 0x4, "F2FP" },
  { 0xa45, 0x4, "I2FP" },
  { 0xab9, 0xe, "ULDC" },
  { 0xabb, 0xe, "ULDC" },
  { 0xb04, 0x3, "F2F" },
  { 0xb06, 0x7, "I2F" },
  { 0xb10, 0x7, "F2F" },
  { 0xb1d, 0xf, "BAR" },
  { 0xb60, 0x7, "TEX" },
  { 0xb66, 0x7, "TLD" },
  { 0xb82, 0xf, "LDC" },
  { 0xb99, 0x7, "SULD" },
  { 0xb9d, 0x7, "SUST" },
  { 0xc02, 0xe, "MOV" },
  { 0xc08, 0x8, "FSEL" },
  { 0xc09, 0x8, "FMNMX" },
  { 0xc0b, 0x8, "FSETP" },
  { 0xc0c, 0xe, "ISETP" },
  { 0xc10, 0xe, "IADD3" },
  { 0xc11, 0x8, "LEA" },
  { 0xc12, 0xe, "LOP3" },
  { 0xc20, 0x8, "FMUL" },
  { 0xc23, 0x8, "FFMA" },
  { 0xc24, 0xe, "IMAD" },
  { 0xc25, 0xe, "IMAD" },
  { 0xc27, 0x8, "IMAD" },
  { 0xc28, 0x8, "DMUL" },
  { 0xc2b, 0x8, "DFMA" },
  { 0xc45, 0x8, "I2FP" },
  { 0xc82, 0xe, "UMOV" },
  { 0xd00, 0xe, "FLO" },
  { 0xd06, 0x8, "I2F" },
  { 0xd09, 0xe, "POPC" },
  { 0xd10, 0x8, "F2F" },
  { 0xdc7, 0x8, "UCGABAR_WAIT" },
  { 0xe23, 0x8, "FFMA" },
  { 0xe24, 0xe, "IMAD" },
  { 0xe29, 0x8, "DADD" },
  { 0xe2b, 0x8, "DFMA" },
  { 0xf55, 0x4, "BMOV" },
  { 0xf60, 0x8, "TEX" },
  { 0xf66, 0x8, "TLD" },
  { 0xf89, 0xf, "SHFL" },
  { 0xf8c, 0xc, "ATOMS" },
  { 0xf99, 0x8, "SULD" },
  { 0xf9d, 0x8, "SUST" },
  { 0xfae, 0x8, "LDGSTS" },
};

static const struct
{
  uint8_t number;
  const char *name;
} sregs[] = {
  { 0x00, "SR_LANEID" }, { 0x21, "SR_TID.X" }, { 0x22, "SR_TID.Y" }, { 0x23, "SR_TID.Z" },
  { 0x25, "SR_CTAID.X" }, { 0x26, "SR_CTAID.Y" }, { 0x27, "SR_CTAID.Z" },
  { 0x2f, "SR_SWINHI" }, { 0x30, "SR_SWINLO" }, { 0x39, "SR_LTMASK" },
  { 0x43, "SR_VIRTUALSMID" }, { 0x50, "SR_CLOCKLO" }, { 0x52, "SR_GLOBALTIMERLO" },
  { 0x88, "SR_CgaCtaId" }, { 0xff, "SRZ" },
};

static guint
family_of (guint sm)
{
  switch (sm)
    {
    case 70:
    case 72:
      return VOLTA;
    case 75:
      return TURING;
    case 80:
    case 86:
    case 87:
    case 89:
      return AMPERE;
    case 90:
      return HOPPER;
    default:
      return 0;
    }
}

const char *
ks_sass_decode_opcode (guint             arch_number,
                       const KsSassInsn *insn)
{
  guint family = family_of (arch_number);
  uint16_t code;
  size_t lo = 0, hi = G_N_ELEMENTS (rows);

  g_return_val_if_fail (insn != NULL, NULL);
  if (family == 0 || !(insn->flags & KS_SASS_HAS_WORD0))
    return NULL;
  code = (uint16_t) (insn->words[0] & 0xfff);
  /* the first row of the code, then its names in turn */
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;

      if (rows[mid].code < code)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (; lo < G_N_ELEMENTS (rows) && rows[lo].code == code; lo++)
    if (rows[lo].families & family)
      return rows[lo].opcode;
  return NULL;
}

const char *
ks_sass_decode_sreg (guint             arch_number,
                     const KsSassInsn *insn)
{
  const char *op = ks_sass_decode_opcode (arch_number, insn);
  guint number;

  if (op == NULL || !(insn->flags & KS_SASS_HAS_WORD1)
      || (g_strcmp0 (op, "S2R") != 0 && g_strcmp0 (op, "CS2R") != 0
          && g_strcmp0 (op, "S2UR") != 0))
    return NULL;
  number = (guint) ((insn->words[1] >> 8) & 0xff);
  for (guint i = 0; i < G_N_ELEMENTS (sregs); i++)
    if (sregs[i].number == number)
      return sregs[i].name;
  return NULL;
}

const char *
ks_sass_decode_predicate (guint             arch_number,
                          const KsSassInsn *insn,
                          char              buf[8])
{
  guint p;

  if (ks_sass_decode_opcode (arch_number, insn) == NULL)
    return NULL;
  /* bits 12-14 the predicate register, 7 being PT (always: none shown), bit
   * 15 negates it */
  p = (guint) ((insn->words[0] >> 12) & 7);
  if (p == 7 && !((insn->words[0] >> 15) & 1))
    return NULL;
  g_snprintf (buf, 8, "@%sP%c", ((insn->words[0] >> 15) & 1) ? "!" : "", p == 7 ? 'T' : '0' + p);
  return buf;
}

const char *
ks_sass_insn_opcode (guint             arch_number,
                     const KsSassInsn *insn)
{
  return insn->opcode != NULL ? insn->opcode : ks_sass_decode_opcode (arch_number, insn);
}

guint
ks_sass_insn_pipe (guint             arch_number,
                   const KsSassInsn *insn)
{
  const char *op;

  if (insn->opcode != NULL)
    return insn->pipe;
  op = ks_sass_decode_opcode (arch_number, insn);
  return op != NULL ? ks_sass_opcode_pipe (op, "") : KS_N_PIPES;
}

gboolean
ks_sass_decode_branch_target (guint             arch_number,
                              const KsSassInsn *insn,
                              uint64_t         *target)
{
  guint family = family_of (arch_number);
  int64_t rel;

  g_return_val_if_fail (insn != NULL && target != NULL, FALSE);
  if (family == 0 || (insn->flags & (KS_SASS_HAS_WORD0 | KS_SASS_HAS_WORD1))
                     != (KS_SASS_HAS_WORD0 | KS_SASS_HAS_WORD1))
    return FALSE;
  /* a BRA, or a CALL.REL (code 0x944) before Hopper: the same field */
  if (g_strcmp0 (ks_sass_decode_opcode (arch_number, insn), "BRA") != 0
      && ((insn->words[0] & 0xfff) != 0x944 || family == HOPPER))
    return FALSE;
  if (family == HOPPER)
    {
      /* bits 34-81: the offset over 1024, signed; bits 16-23: the offset
       * over 4, its low byte */
      uint64_t high = (insn->words[0] >> 34) | (insn->words[1] << 30);

      rel = (int64_t) (high << 16) >> 16;
      rel = (int64_t) ((uint64_t) rel << 10) | (int64_t) (((insn->words[0] >> 16) & 0xff) << 2);
    }
  else
    {
      /* bits 32-81: the offset in bytes, signed */
      uint64_t field = (insn->words[0] >> 32) | (insn->words[1] << 32);

      rel = (int64_t) (field << 14) >> 14;
    }
  /* from the next instruction */
  *target = insn->offset + 16 + (uint64_t) rel;
  return TRUE;
}

guint
ks_sass_decode_access_bytes (guint             arch_number,
                             const KsSassInsn *insn)
{
  static const guint bytes[8] = { 1, 1, 2, 2, 4, 8, 16, 16 };
  const char *op = ks_sass_decode_opcode (arch_number, insn);

  if (op == NULL || !(insn->flags & KS_SASS_HAS_WORD1)
      || (strcmp (op, "LDS") != 0 && strcmp (op, "STS") != 0 && strcmp (op, "LDG") != 0
          && strcmp (op, "STG") != 0))
    return 0;
  /* bits 73-75: U8, S8, U16, S16, 32, 64, 128, U.128 */
  return bytes[(insn->words[1] >> 9) & 7];
}

gboolean
ks_sass_decode_table_sorted (void)
{
  for (guint i = 1; i < G_N_ELEMENTS (rows); i++)
    if (rows[i - 1].code > rows[i].code)
      return FALSE;
  return TRUE;
}

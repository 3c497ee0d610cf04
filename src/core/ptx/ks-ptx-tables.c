/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-ptx-tables.c: names of opcodes, types, modifiers, special registers and
 * directives, and the hash tables the parser decodes them with. */

#include <string.h>

#include "ks-ptx-tables.h"

static const char *const opcode_names[KS_PTX_N_OPCODES] = {
  [KS_PTX_OPC_UNKNOWN] = "unknown",
#define X(e, s) [KS_PTX_OPC_##e] = s,
#include "ks-ptx-opcodes.def"
#undef X
};

static const struct
{
  const char *name;
  uint32_t size;
} type_info[KS_PTX_N_TYPES] = {
  [KS_PTX_TYPE_NONE] = { "", 0 },
  [KS_PTX_TYPE_B8] = { "b8", 1 }, [KS_PTX_TYPE_B16] = { "b16", 2 },
  [KS_PTX_TYPE_B32] = { "b32", 4 }, [KS_PTX_TYPE_B64] = { "b64", 8 },
  [KS_PTX_TYPE_B128] = { "b128", 16 },
  [KS_PTX_TYPE_U8] = { "u8", 1 }, [KS_PTX_TYPE_U16] = { "u16", 2 },
  [KS_PTX_TYPE_U32] = { "u32", 4 }, [KS_PTX_TYPE_U64] = { "u64", 8 },
  [KS_PTX_TYPE_S8] = { "s8", 1 }, [KS_PTX_TYPE_S16] = { "s16", 2 },
  [KS_PTX_TYPE_S32] = { "s32", 4 }, [KS_PTX_TYPE_S64] = { "s64", 8 },
  [KS_PTX_TYPE_F16] = { "f16", 2 }, [KS_PTX_TYPE_F16X2] = { "f16x2", 4 },
  [KS_PTX_TYPE_BF16] = { "bf16", 2 }, [KS_PTX_TYPE_BF16X2] = { "bf16x2", 4 },
  [KS_PTX_TYPE_F32] = { "f32", 4 }, [KS_PTX_TYPE_F64] = { "f64", 8 },
  [KS_PTX_TYPE_TF32] = { "tf32", 4 },
  [KS_PTX_TYPE_E4M3] = { "e4m3", 1 }, [KS_PTX_TYPE_E5M2] = { "e5m2", 1 },
  [KS_PTX_TYPE_E4M3X2] = { "e4m3x2", 2 }, [KS_PTX_TYPE_E5M2X2] = { "e5m2x2", 2 },
  [KS_PTX_TYPE_E2M1X2] = { "e2m1x2", 1 }, [KS_PTX_TYPE_E2M3X2] = { "e2m3x2", 2 },
  [KS_PTX_TYPE_E3M2X2] = { "e3m2x2", 2 }, [KS_PTX_TYPE_UE8M0X2] = { "ue8m0x2", 2 },
  [KS_PTX_TYPE_S4] = { "s4", 1 }, [KS_PTX_TYPE_U4] = { "u4", 1 }, [KS_PTX_TYPE_B1] = { "b1", 1 },
  [KS_PTX_TYPE_PRED] = { "pred", 1 },
  [KS_PTX_TYPE_TEXREF] = { "texref", 8 },
  [KS_PTX_TYPE_SAMPLERREF] = { "samplerref", 8 },
  [KS_PTX_TYPE_SURFREF] = { "surfref", 8 },
};

static const char *const space_names[] = {
  [KS_PTX_SPACE_NONE] = "generic", [KS_PTX_SPACE_REG] = "reg", [KS_PTX_SPACE_SREG] = "sreg",
  [KS_PTX_SPACE_GLOBAL] = "global", [KS_PTX_SPACE_SHARED] = "shared",
  [KS_PTX_SPACE_SHARED_CLUSTER] = "shared::cluster", [KS_PTX_SPACE_LOCAL] = "local",
  [KS_PTX_SPACE_CONST] = "const", [KS_PTX_SPACE_PARAM] = "param",
  [KS_PTX_SPACE_TEX] = "tex", [KS_PTX_SPACE_SURF] = "surf",
};

static const char *const sreg_names[KS_PTX_N_SREGS] = {
  [KS_PTX_SREG_NONE] = "",
  [KS_PTX_SREG_TID] = "%tid", [KS_PTX_SREG_NTID] = "%ntid",
  [KS_PTX_SREG_CTAID] = "%ctaid", [KS_PTX_SREG_NCTAID] = "%nctaid",
  [KS_PTX_SREG_LANEID] = "%laneid", [KS_PTX_SREG_WARPID] = "%warpid",
  [KS_PTX_SREG_NWARPID] = "%nwarpid", [KS_PTX_SREG_SMID] = "%smid",
  [KS_PTX_SREG_NSMID] = "%nsmid", [KS_PTX_SREG_GRIDID] = "%gridid",
  [KS_PTX_SREG_CLOCK] = "%clock", [KS_PTX_SREG_CLOCK_HI] = "%clock_hi",
  [KS_PTX_SREG_CLOCK64] = "%clock64", [KS_PTX_SREG_GLOBALTIMER] = "%globaltimer",
  [KS_PTX_SREG_GLOBALTIMER_LO] = "%globaltimer_lo", [KS_PTX_SREG_GLOBALTIMER_HI] = "%globaltimer_hi",
  [KS_PTX_SREG_LANEMASK_EQ] = "%lanemask_eq", [KS_PTX_SREG_LANEMASK_LT] = "%lanemask_lt",
  [KS_PTX_SREG_LANEMASK_LE] = "%lanemask_le", [KS_PTX_SREG_LANEMASK_GT] = "%lanemask_gt",
  [KS_PTX_SREG_LANEMASK_GE] = "%lanemask_ge",
  [KS_PTX_SREG_DYNAMIC_SMEM_SIZE] = "%dynamic_smem_size",
  [KS_PTX_SREG_TOTAL_SMEM_SIZE] = "%total_smem_size",
  [KS_PTX_SREG_AGGR_SMEM_SIZE] = "%aggr_smem_size",
  [KS_PTX_SREG_RESERVED_SMEM_OFFSET_BEGIN] = "%reserved_smem_offset_begin",
  [KS_PTX_SREG_RESERVED_SMEM_OFFSET_END] = "%reserved_smem_offset_end",
  [KS_PTX_SREG_RESERVED_SMEM_OFFSET_CAP] = "%reserved_smem_offset_cap",
  [KS_PTX_SREG_RESERVED_SMEM_OFFSET_0] = "%reserved_smem_offset_0",
  [KS_PTX_SREG_RESERVED_SMEM_OFFSET_1] = "%reserved_smem_offset_1",
  [KS_PTX_SREG_CLUSTERID] = "%clusterid", [KS_PTX_SREG_NCLUSTERID] = "%nclusterid",
  [KS_PTX_SREG_CLUSTER_CTAID] = "%cluster_ctaid", [KS_PTX_SREG_CLUSTER_NCTAID] = "%cluster_nctaid",
  [KS_PTX_SREG_CLUSTER_CTARANK] = "%cluster_ctarank",
  [KS_PTX_SREG_CLUSTER_NCTARANK] = "%cluster_nctarank",
  [KS_PTX_SREG_IS_EXPLICIT_CLUSTER] = "%is_explicit_cluster",
  [KS_PTX_SREG_ENVREG] = "%envreg", [KS_PTX_SREG_PM] = "%pm", [KS_PTX_SREG_PM64] = "%pm_64",
  [KS_PTX_SREG_CURRENT_GRAPH_EXEC] = "%current_graph_exec",
};

static const struct
{
  const char *name;
  uint8_t category;
} modifier_list[] = {
#define X(w, c, v) { w, KS_PTX_WORD_##c },
#include "ks-ptx-modifiers.def"
#undef X
};

/* The values of modifier_list: enum values, or 64-bit masks for flags */
static const uint64_t modifier_values[] = {
#define X(w, c, v) (uint64_t) (v),
#include "ks-ptx-modifiers.def"
#undef X
};

static const char *const directive_names[KS_PTX_N_DIRECTIVES] = {
#define X(e, s) [KS_PTX_DIR_##e] = s,
  KS_PTX_DIRECTIVES
#undef X
};

const char *
ks_ptx_opcode_name (KsPtxOpcode opcode)
{
  if ((unsigned) opcode >= KS_PTX_N_OPCODES)
    return "unknown";
  return opcode_names[opcode];
}

const char *
ks_ptx_type_name (KsPtxType type)
{
  if ((unsigned) type >= KS_PTX_N_TYPES)
    return "";
  return type_info[type].name;
}

uint32_t
ks_ptx_type_size (KsPtxType type)
{
  if ((unsigned) type >= KS_PTX_N_TYPES)
    return 0;
  return type_info[type].size;
}

gboolean
ks_ptx_type_is_float (KsPtxType type)
{
  switch (type)
    {
    case KS_PTX_TYPE_F16:
    case KS_PTX_TYPE_F16X2:
    case KS_PTX_TYPE_BF16:
    case KS_PTX_TYPE_BF16X2:
    case KS_PTX_TYPE_F32:
    case KS_PTX_TYPE_F64:
    case KS_PTX_TYPE_TF32:
      return TRUE;
    default:
      return FALSE;
    }
}

const char *
ks_ptx_space_name (KsPtxSpace space)
{
  if ((unsigned) space >= G_N_ELEMENTS (space_names) || space_names[space] == NULL)
    return "";
  return space_names[space];
}

const char *
ks_ptx_sreg_name (KsPtxSreg sreg)
{
  if ((unsigned) sreg >= KS_PTX_N_SREGS)
    return "";
  return sreg_names[sreg];
}

gboolean
ks_ptx_sreg_is_timer (KsPtxSreg sreg)
{
  switch (sreg)
    {
    case KS_PTX_SREG_CLOCK:
    case KS_PTX_SREG_CLOCK_HI:
    case KS_PTX_SREG_CLOCK64:
    case KS_PTX_SREG_GLOBALTIMER:
    case KS_PTX_SREG_GLOBALTIMER_LO:
    case KS_PTX_SREG_GLOBALTIMER_HI:
      return TRUE;
    default:
      return FALSE;
    }
}

/* An open-addressing table of static words.  Built once; read-only after. */
typedef struct
{
  const char *name;
  uint32_t len;
  uint32_t category;
  uint64_t value;
  uint32_t kind;                /* for KS_PTX_WORD_MODIFIER: the modifier's own category */
} Word;

#define WORD_TABLE_SIZE 4096u
static Word word_table[WORD_TABLE_SIZE];

uint32_t
ks_ptx_hash_bytes (const char *s,
                   size_t      len)
{
  uint32_t h = 2166136261u;

  for (size_t i = 0; i < len; i++)
    h = (h ^ (uint8_t) s[i]) * 16777619u;
  return h;
}

static void
add_word_kind (const char *name,
               uint32_t    category,
               uint64_t    value,
               uint32_t    kind)
{
  uint32_t len = (uint32_t) strlen (name);
  uint32_t i = ks_ptx_hash_bytes (name, len) ^ category * 0x9e3779b9u;

  for (;; i++)
    {
      Word *w = &word_table[i & (WORD_TABLE_SIZE - 1)];

      if (w->name == NULL)
        {
          w->name = name;
          w->len = len;
          w->category = category;
          w->value = value;
          w->kind = kind;
          return;
        }
      if (w->category == category && w->len == len && memcmp (w->name, name, len) == 0)
        return;                 /* first definition wins */
    }
}

static void
add_word (const char *name,
          uint32_t    category,
          uint64_t    value)
{
  add_word_kind (name, category, value, category);
}

static void
init_tables (void)
{
  for (unsigned i = 1; i < KS_PTX_N_OPCODES; i++)
    add_word (opcode_names[i], KS_PTX_WORD_OPCODE, i);
  for (unsigned i = 1; i < KS_PTX_N_TYPES; i++)
    if (i < KS_PTX_TYPE_TEXREF)
      add_word (type_info[i].name, KS_PTX_WORD_TYPE, i);
  for (unsigned i = 0; i < G_N_ELEMENTS (modifier_list); i++)
    {
      uint64_t v = modifier_values[i];

      add_word (modifier_list[i].name, modifier_list[i].category, v);
      add_word_kind (modifier_list[i].name, KS_PTX_WORD_MODIFIER, v, modifier_list[i].category);
    }
  for (unsigned i = 1; i < KS_PTX_TYPE_TEXREF; i++)
    add_word_kind (type_info[i].name, KS_PTX_WORD_MODIFIER, i, KS_PTX_WORD_TYPE);
  for (unsigned i = 1; i < KS_PTX_N_SREGS; i++)
    if (i != KS_PTX_SREG_ENVREG && i != KS_PTX_SREG_PM && i != KS_PTX_SREG_PM64)
      add_word (sreg_names[i], KS_PTX_WORD_SREG, i);
  for (unsigned i = 1; i < KS_PTX_N_DIRECTIVES; i++)
    add_word (directive_names[i], KS_PTX_WORD_DIRECTIVE, i);
}

static const Word *
find_word (const char *s,
           size_t      len,
           uint32_t    hash,
           uint32_t    category)
{
  static gsize once = 0;
  uint32_t i;

  if (g_once_init_enter (&once))
    {
      init_tables ();
      g_once_init_leave (&once, 1);
    }

  if (len == 0 || len > 64)
    return NULL;

  i = hash ^ category * 0x9e3779b9u;
  for (;; i++)
    {
      const Word *w = &word_table[i & (WORD_TABLE_SIZE - 1)];

      if (w->name == NULL)
        return NULL;
      if (w->category == category && w->len == len && memcmp (w->name, s, len) == 0)
        return w;
    }
}

gboolean
ks_ptx_lookup_word_hashed (const char *s,
                           size_t      len,
                           uint32_t    hash,
                           uint32_t    category,
                           uint64_t   *value)
{
  const Word *w = find_word (s, len, hash, category);

  if (w == NULL)
    return FALSE;
  *value = w->value;
  return TRUE;
}

gboolean
ks_ptx_lookup_word (const char *s,
                    size_t      len,
                    uint32_t    category,
                    uint64_t   *value)
{
  return ks_ptx_lookup_word_hashed (s, len, ks_ptx_hash_bytes (s, len), category, value);
}

gboolean
ks_ptx_lookup_modifier (const char *s,
                        size_t      len,
                        uint32_t    hash,
                        uint32_t   *category,
                        uint64_t   *value)
{
  const Word *w = find_word (s, len, hash, KS_PTX_WORD_MODIFIER);

  if (w == NULL)
    return FALSE;
  *category = w->kind;
  *value = w->value;
  return TRUE;
}

KsPtxType
ks_ptx_type_from_name (const char *name,
                       size_t      len)
{
  uint64_t v;

  if (len > 0 && name[0] == '.')
    name++, len--;
  if (ks_ptx_lookup_word (name, len, KS_PTX_WORD_TYPE, &v))
    return (KsPtxType) v;
  return KS_PTX_TYPE_NONE;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sass-json.c: a SASS listing as JSON (ks-sass-json.h), shared by
 * `kernelscope-cli sass` and the "sass" member of `analyze`. */

#include <string.h>

#include "ks-resources.h"
#include "ks-sass-cubin.h"
#include "ks-sass-json.h"
#include "ks-sass-loops.h"
#include "ks-timing.h"

static void
add_int (JsonBuilder *b,
         const char  *name,
         gint64       value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

static void
add_string (JsonBuilder *b,
            const char  *name,
            const char  *value)
{
  json_builder_set_member_name (b, name);
  if (value != NULL)
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

/* A barrier number, or null for none (7) */
static void
add_barrier (JsonBuilder *b,
             const char  *name,
             guint        barrier)
{
  json_builder_set_member_name (b, name);
  if (barrier == KS_SASS_NO_BARRIER)
    json_builder_add_null_value (b);
  else
    json_builder_add_int_value (b, barrier);
}

static void
add_insn (JsonBuilder         *b,
          const KsSassListing *l,
          uint32_t             index)
{
  const KsSassInsn *in = &l->insns[index];
  const KsSassSource *src = ks_sass_insn_source (l, index);
  g_auto(GStrv) mods = g_strsplit (in->modifiers[0] == '.' ? in->modifiers + 1 : in->modifiers, ".", -1);

  json_builder_begin_object (b);
  add_int (b, "offset", in->offset);
  add_int (b, "line", in->line);
  add_string (b, "opcode", in->opcode);
  json_builder_set_member_name (b, "modifiers");
  json_builder_begin_array (b);
  for (guint i = 0; mods[i] != NULL; i++)
    if (mods[i][0] != '\0')
      json_builder_add_string_value (b, mods[i]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "operands");
  json_builder_begin_array (b);
  for (uint32_t i = 0; i < in->n_operands; i++)
    json_builder_add_string_value (b, l->operands[in->first_operand + i]);
  json_builder_end_array (b);
  add_string (b, "predicate", in->predicate);
  /* no pipe for an instruction no disassembler named */
  add_string (b, "pipe", in->opcode != NULL && in->pipe < KS_N_PIPES ? ks_pipe_name (in->pipe) : NULL);
  if (l->format == KS_SASS_FORMAT_CUBIN)
    {
      char hex[KS_SASS_HEX_TEXT_SIZE];

      add_string (b, "hex", ks_sass_insn_hex (in, hex));
    }
  json_builder_set_member_name (b, "control");
  if (in->flags & KS_SASS_HAS_CONTROL)
    {
      json_builder_begin_object (b);
      add_int (b, "stall", in->control.stall);
      json_builder_set_member_name (b, "yield");
      json_builder_add_boolean_value (b, in->control.yield);
      add_barrier (b, "write_barrier", in->control.write_barrier);
      add_barrier (b, "read_barrier", in->control.read_barrier);
      add_int (b, "wait_mask", in->control.wait_mask);
      add_int (b, "reuse", in->control.reuse);
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);
  if (in->flags & (KS_SASS_DUAL_FIRST | KS_SASS_DUAL_SECOND))
    {
      json_builder_set_member_name (b, "dual_issue");
      json_builder_add_string_value (b, in->flags & KS_SASS_DUAL_FIRST ? "first" : "second");
    }
  json_builder_set_member_name (b, "source");
  if (src != NULL)
    {
      json_builder_begin_object (b);
      add_string (b, "file", src->file);
      add_int (b, "line", src->line);
      if (src->ptx_line != 0)
        add_int (b, "ptx_line", src->ptx_line);
      if (src->inlined_file != NULL)
        {
          const KsSassSource *s = src;

          /* The call sites, innermost first: each record's "inlined at" */
          json_builder_set_member_name (b, "inlined_at");
          json_builder_begin_array (b);
          for (guint depth = 0; s != NULL && s->inlined_file != NULL && depth < 1024; depth++)
            {
              json_builder_begin_object (b);
              add_string (b, "file", s->inlined_file);
              add_int (b, "line", s->inlined_line);
              json_builder_end_object (b);
              s = s->caller != KS_SASS_NONE && s->caller < l->n_sources ? &l->sources[s->caller] : NULL;
            }
          json_builder_end_array (b);
        }
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);
  json_builder_end_object (b);
}

/* A value that may be unknown (KS_SASS_NONE): null then */
static void
add_known (JsonBuilder *b,
           const char  *name,
           uint32_t     value)
{
  json_builder_set_member_name (b, name);
  if (value == KS_SASS_NONE)
    json_builder_add_null_value (b);
  else
    json_builder_add_int_value (b, value);
}

static const char *
format_name (guint format)
{
  static const char *const names[] = { NULL, "nval", "bval", "hval", "sval" };

  return format < G_N_ELEMENTS (names) ? names[format] : NULL;
}

/* What the cubin says about function f: resources, parameters, and every
 * .nv.info record about it (by number, with its name when known) */
static void
add_cubin_function (JsonBuilder         *b,
                    const KsSassListing *l,
                    uint32_t             f)
{
  const KsSassCubin *c = l->cubin;
  const KsCubinFunction *cf = &c->functions[f];

  json_builder_set_member_name (b, "kernel");
  json_builder_add_boolean_value (b, cf->entry);
  add_known (b, "registers", cf->registers);
  add_known (b, "barriers", cf->barriers);
  add_int (b, "shared_bytes", (gint64) cf->shared_bytes);
  add_int (b, "constant0_bytes", (gint64) cf->constant0_bytes);
  add_known (b, "param_cbank_offset", cf->param_cbank_offset);
  add_known (b, "param_bytes", cf->param_bytes);
  add_known (b, "max_stack", cf->max_stack);
  add_known (b, "min_stack", cf->min_stack);
  add_known (b, "frame_size", cf->frame_size);
  add_known (b, "max_registers", cf->max_registers);
  json_builder_set_member_name (b, "max_threads");
  if (cf->max_threads[0] != 0)
    {
      json_builder_begin_array (b);
      for (guint k = 0; k < 3; k++)
        json_builder_add_int_value (b, cf->max_threads[k]);
      json_builder_end_array (b);
    }
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "params");
  json_builder_begin_array (b);
  for (uint32_t k = 0; k < cf->n_params; k++)
    {
      const KsCubinParam *p = &c->params[cf->first_param + k];

      json_builder_begin_object (b);
      add_int (b, "index", p->index);
      add_int (b, "offset", p->offset);
      add_int (b, "size", p->size);
      add_known (b, "cbank_offset", p->cbank_offset);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "attributes");
  json_builder_begin_array (b);
  for (uint32_t k = 0; k < c->n_attrs; k++)
    {
      const KsCubinAttr *a = &c->attrs[k];

      if (a->function != f)
        continue;
      json_builder_begin_object (b);
      add_int (b, "id", a->id);
      add_string (b, "name", ks_cubin_attr_name (a->id));
      add_string (b, "format", format_name (a->format));
      add_string (b, "section", a->section < c->n_sections ? c->sections[a->section].name : NULL);
      if (a->format == KS_CUBIN_EIFMT_SVAL)
        {
          gsize n;
          const guint8 *v = ks_cubin_attr_data (c, a, &n);
          g_autoptr(GString) hex = g_string_sized_new (2 * n);

          for (gsize i = 0; i < n; i++)
            g_string_append_printf (hex, "%02x", v[i]);
          add_string (b, "bytes_hex", hex->str);
        }
      else if (a->format != KS_CUBIN_EIFMT_NVAL)
        add_int (b, "value", a->value);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

/* The ELF's own facts */
static void
add_cubin (JsonBuilder         *b,
           const KsSassListing *l)
{
  const KsSassCubin *c = l->cubin;

  json_builder_set_member_name (b, "cubin");
  json_builder_begin_object (b);
  add_string (b, "arch", c->arch);
  add_int (b, "abi_version", c->abi_version);
  add_int (b, "os_abi", c->os_abi);
  add_int (b, "e_flags", c->e_flags);
  json_builder_set_member_name (b, "toolkit");
  if (c->toolkit != 0)
    {
      char v[16];

      g_snprintf (v, sizeof v, "%u.%u", c->toolkit / 10, c->toolkit % 10);
      json_builder_add_string_value (b, v);
    }
  else
    json_builder_add_null_value (b);
  add_string (b, "disassembler", c->disassembler);
  add_string (b, "note", c->note);
  json_builder_set_member_name (b, "sections");
  json_builder_begin_array (b);
  for (uint32_t i = 0; i < c->n_sections; i++)
    {
      const KsCubinSection *s = &c->sections[i];

      json_builder_begin_object (b);
      add_int (b, "index", i);
      add_string (b, "name", s->name);
      add_int (b, "type", s->type);
      add_int (b, "flags", (gint64) s->flags);
      add_int (b, "offset", (gint64) MIN (s->offset, (uint64_t) G_MAXINT64));
      add_int (b, "size", (gint64) MIN (s->size, (uint64_t) G_MAXINT64));
      add_int (b, "link", s->link);
      add_int (b, "info", s->info);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

/* Each record names the listing's function it describes (ptxas -v prints
 * demangled names, cuobjdump mangled ones), or null. */
static void
add_resources (JsonBuilder         *b,
               const KsSassListing *l,
               GPtrArray           *resources)
{
  json_builder_set_member_name (b, "resources");
  json_builder_begin_array (b);
  for (guint i = 0; resources != NULL && i < resources->len; i++)
    {
      const KsKernelResources *r = g_ptr_array_index (resources, i);
      g_autofree char *demangled = ks_sass_demangle (r->name);

      json_builder_begin_object (b);
      add_string (b, "name", r->name);
      add_string (b, "demangled", demangled != NULL ? demangled : r->name);
      add_string (b, "arch", r->arch);
      {
        const KsSassFunction *fn = ks_sass_match_function (l, r->name, r->arch);

        if (fn == NULL)
          fn = ks_sass_match_function (l, r->name, NULL);
        add_string (b, "function", fn != NULL ? fn->name : NULL);
      }
      add_string (b, "source", ks_resources_source_name (r->source));
      json_builder_set_member_name (b, "registers");
      if (r->fields & KS_RESOURCES_HAS_REGISTERS)
        json_builder_add_int_value (b, r->registers);
      else
        json_builder_add_null_value (b);
      add_int (b, "shared_static_bytes", r->shared_static_bytes);
      add_int (b, "local_bytes", r->local_bytes);
      add_int (b, "spill_store_bytes", r->spill_store_bytes);
      add_int (b, "spill_load_bytes", r->spill_load_bytes);
      json_builder_set_member_name (b, "constant_bytes");
      json_builder_begin_object (b);
      for (guint k = 0; k < KS_RESOURCES_N_CONSTANT_BANKS; k++)
        if (r->constant_bytes[k] != 0)
          {
            char key[8];

            g_snprintf (key, sizeof key, "%u", k);
            add_int (b, key, r->constant_bytes[k]);
          }
      json_builder_end_object (b);
      json_builder_set_member_name (b, "barriers");
      if (r->fields & KS_RESOURCES_HAS_BARRIERS)
        json_builder_add_int_value (b, r->barriers);
      else
        json_builder_add_null_value (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
add_work (JsonBuilder  *b,
          const KsLoop *loop)
{
  add_int (b, "instructions", loop->n_insns);
  add_int (b, "flops", loop->flops);
  add_int (b, "shared_bytes", loop->shared_bytes);
  add_int (b, "global_bytes", loop->global_bytes);
}

static void
add_ptx_lines (JsonBuilder       *b,
               const KsPtxModule *m,
               const KsLoop      *p)
{
  json_builder_set_member_name (b, "lines");
  json_builder_begin_array (b);
  json_builder_add_int_value (b, m->insns[p->first_insn].line);
  json_builder_add_int_value (b, m->insns[p->last_insn].line);
  json_builder_end_array (b);
}

void
ks_sass_loops_add_json (JsonBuilder          *b,
                        const KsSassListing  *l,
                        const KsSassFunction *fn,
                        const KsPtxModule    *m,
                        uint32_t              ptx_function)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsLoopSet) set = NULL;
  g_autoptr(KsLoopSet) ptx = NULL;

  g_return_if_fail (JSON_IS_BUILDER (b) && l != NULL && fn != NULL);
  set = ks_loops_from_sass (l, fn, &error);
  json_builder_set_member_name (b, "loops");
  if (set == NULL)
    {
      json_builder_add_null_value (b);
      add_string (b, "loops_error", error->message);
      return;
    }
  if (m != NULL && ptx_function < m->n_functions)
    {
      ptx = ks_loops_from_ptx (m, ptx_function);
      ks_loops_match (set, ptx);
    }
  json_builder_begin_array (b);
  for (uint32_t k = 0; k < set->n_loops; k++)
    {
      const KsLoop *s = &set->loops[k];

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "offsets");
      json_builder_begin_array (b);
      json_builder_add_int_value (b, l->insns[s->first_insn].offset);
      json_builder_add_int_value (b, l->insns[s->last_insn].offset);
      json_builder_end_array (b);
      add_int (b, "back_edge", l->insns[s->back_edge].offset);
      add_int (b, "depth", s->depth);
      json_builder_set_member_name (b, "cuda_line");
      if (s->cuda_line != 0)
        json_builder_add_int_value (b, s->cuda_line);
      else
        json_builder_add_null_value (b);
      add_work (b, s);
      if (ptx != NULL)
        {
          json_builder_set_member_name (b, "ptx");
          if (s->match != KS_LOOP_NONE)
            {
              const KsLoop *p = &ptx->loops[s->match];

              json_builder_begin_object (b);
              add_ptx_lines (b, m, p);
              add_int (b, "back_edge_line", m->insns[p->back_edge].line);
              add_work (b, p);
              json_builder_end_object (b);
            }
          else
            json_builder_add_null_value (b);
          add_int (b, "unroll", s->unroll);
          json_builder_set_member_name (b, "estimated");
          json_builder_add_boolean_value (b, s->estimated);
          json_builder_set_member_name (b, "inner");
          if (s->inner != KS_LOOP_NONE)
            {
              json_builder_begin_object (b);
              add_ptx_lines (b, m, &ptx->loops[s->inner]);
              add_int (b, "trips", s->inner_trips);
              json_builder_end_object (b);
            }
          else
            json_builder_add_null_value (b);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

void
ks_sass_listing_add_json (JsonBuilder         *b,
                          const KsSassListing *l,
                          GPtrArray           *resources)
{
  g_return_if_fail (JSON_IS_BUILDER (b));
  g_return_if_fail (l != NULL);

  add_string (b, "format", l->format == KS_SASS_FORMAT_NVDISASM ? "nvdisasm"
                          : l->format == KS_SASS_FORMAT_CUBIN ? "cubin" : "cuobjdump");
  if (l->cubin != NULL)
    add_cubin (b, l);
  json_builder_set_member_name (b, "functions");
  json_builder_begin_array (b);
  for (uint32_t f = 0; f < l->n_functions; f++)
    {
      const KsSassFunction *fn = &l->functions[f];
      g_autofree char *demangled = ks_sass_demangle (fn->name);

      json_builder_begin_object (b);
      add_string (b, "name", fn->name);
      add_string (b, "demangled", demangled != NULL ? demangled : fn->name);
      add_string (b, "arch", fn->arch);
      if (l->cubin != NULL)
        add_cubin_function (b, l, f);
      json_builder_set_member_name (b, "labels");
      json_builder_begin_object (b);
      for (uint32_t k = fn->first_label; k < fn->first_label + fn->n_labels; k++)
        {
          uint32_t at = l->labels[k].insn;

          json_builder_set_member_name (b, l->labels[k].name);
          if (at < fn->first_insn + fn->n_insns)
            json_builder_add_int_value (b, l->insns[at].offset);
          else
            json_builder_add_null_value (b);    /* the function's end */
        }
      json_builder_end_object (b);
      json_builder_set_member_name (b, "instructions");
      json_builder_begin_array (b);
      for (uint32_t i = fn->first_insn; i < fn->first_insn + fn->n_insns; i++)
        add_insn (b, l, i);
      json_builder_end_array (b);
      ks_sass_loops_add_json (b, l, fn, NULL, 0);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  add_resources (b, l, resources);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-window-private.h: what ks-window.c (files, panes, linking, actions)
 * and ks-window-run.c (the engine thread and the results) share. */
#pragma once

#include <gtksourceview/gtksource.h>

#include "ks-analysis.h"
#include "ks-anatomy-window.h"
#include "ks-gpu-db.h"
#include "ks-launch.h"
#include "ks-launch-form.h"
#include "ks-line-map.h"
#include "ks-samples.h"
#include "ks-toolchain.h"
#include "ks-window.h"

G_BEGIN_DECLS

struct _KsWindow
{
  GtkApplicationWindow parent_instance;

  /* Template widgets */
  GtkWidget *open_label;
  GtkLabel *title_label;
  GtkLabel *subtitle_label;
  GtkMenuButton *samples_button;
  GtkPopover *samples_popover;
  GtkListBox *samples_list;
  GtkSearchEntry *samples_search;
  GtkDropDown *gpu_dropdown;
  GtkDropDown *launch_step_dropdown;
  GtkMenuButton *launch_button;
  GtkLabel *launch_label;
  GtkMenuButton *recording_button;
  GtkLabel *recording_label;
  GtkListBox *recording_list;
  GMenu *recent_menu;
  GtkRevealer *toolkit_revealer;
  GtkLabel *toolkit_label;
  GtkButton *toolkit_close_button;
  GtkRevealer *message_revealer;
  GtkLabel *message_label;
  GtkButton *message_close_button;
  GtkSourceView *cuda_view;
  GtkSourceView *ptx_view;
  GtkSourceView *sass_view;
  GtkLabel *cuda_file_label;
  GtkLabel *ptx_file_label;
  GtkLabel *sass_file_label;
  GtkStack *sass_stack;
  GtkLabel *sass_placeholder_title;
  GtkLabel *sass_placeholder_label;
  GtkWidget *sass_pane;
  GtkWidget *sass_header;
  GtkWidget *sass_folded_label;         /* KsVerticalLabel */
  GtkButton *sass_placeholder_button;
  GtkPaned *asm_paned;
  GtkPaned *source_paned;
  GtkStack *results_stack;
  GtkStackPage *hints_page;
  GtkStackPage *output_page;
  GtkListBox *hints_list;
  GtkLabel *hints_placeholder;  /* made in code */
  GtkLabel *output_label;
  GtkWidget *kernel_choice;     /* the module's kernels, when the run needs one chosen */
  GtkFlowBox *kernel_choice_box;
  GtkLabel *status_label;
  GtkLabel *stale_label;
  GtkProgressBar *progress_bar;
  GtkWidget *header_start_fold; /* KsFoldBox (ks-window-layout.c) */
  GtkWidget *header_fold;
  GtkWidget *stop_button;
  GtkWidget *step_box;
  GMenu *folded_section;        /* the primary menu's section of folded controls */
  GtkWidget *views_switcher;
  GtkDropDown *views_dropdown;  /* the views' tabs, folded */
  /* The views (ks-window-views.c), made in code */
  GtkWidget *timeline;
  GtkWidget *memory_view;
  GtkWidget *occupancy_view;
  GtkWidget *lane_view;
  GtkWidget *cfg_view;
  /* The launch editor (ks-window-launch.c), made in code */
  GtkWidget *launch_popover;
  GtkWidget *launch_editor;
  GtkWidget *launch_sequence_note;     /* in the popover, for a spec of several launches */
  GtkWidget *sass_control_column;       /* (ks-window-sass.c) */

  /* Borrowed references (the views own them) */
  GtkSourceBuffer *cuda_buffer;
  GtkSourceBuffer *ptx_buffer;
  GtkSourceBuffer *sass_buffer;

  /* Owned references */
  GFile *cuda_file;
  GFile *ptx_file;
  GFile *spec_file;
  GFile *sass_file;
  KsLaunch *launch;             /* the spec's, NULL without one */
  KsLaunchForm *launch_form;    /* the spec as written or applied; NULL without one */
  char *launch_saved_json;      /* launch_form's JSON as read or saved; NULL: not in a file */
  GtkFileChooserNative *save_chooser;   /* asking where to save a copy */
  KsLineMap *line_map;          /* of the PTX shown, NULL before it parsed */
  KsSassListing *sass_listing;  /* the SASS pane's, parsed; NULL when none or unreadable */
  char *sass_live_label;        /* "sm_89 · nvdisasm": what made the pane's own SASS */
  char *sass_live_how;          /* the commands that made it */
  KsGpuDb *gpu_db;
  char **gpu_ids;               /* index-aligned with the drop-down */
  GPtrArray *samples;           /* KsSample */
  const KsSample *lesson;       /* the sample opened (in samples), NULL: not one of them */
  KsToolchain *toolchain;       /* NULL until found */
  GSettings *settings;          /* NULL when the schema is not installed */
  GCancellable *cancellable;    /* cancelled when the window goes */
  GCancellable *run_cancellable;/* the run in progress */
  GCancellable *lanes_cancellable;      /* the lane view's recording */
  gpointer analysis;            /* KsAnalysis: the last good results */
  char *screenshot_path;
  char *initial_view;           /* --view: the results page to show first */
  gpointer heat;                /* ks-window-heat.c's state */
  gpointer step;                /* ks-window-step.c's state */

  guint selected_cuda_line;     /* lit by the cursor; 0 = none */
  guint hover_cuda_line;        /* lit by the pointer; 0 = none */
  guint run_serial;
  gint64 run_started;           /* g_get_monotonic_time () at the run's start */
  guint edit_timeout_id;        /* runs again when typing pauses */
  gint64 keep_in_sight_until;   /* the panes follow the selection while laid out anew */
  guint keep_in_sight_idle;     /* scrolls to the selection after a layout */
  gboolean running;
  gboolean lesson_pending;      /* the next run is the first since opening: show its lesson */
  gboolean presentation;
  gboolean presenting_once;     /* the presentation property is set, not the setting */
  gboolean close_confirmed;
  gboolean gpu_chosen;          /* the user picked the GPU: keep it across files */
  gpointer baseline;            /* KsAnalysis: "Set as Baseline"'s, or NULL (ks-window-compare.c) */
  GtkWidget *baseline_revealer; /* the bar of changes against it */
  GtkWidget *baseline_label;
  GMenu *compare_partners_section;      /* the Compare menu's: the open sample's partners */
  GMenu *compare_course_section;        /* ... and the course's groups */
  GPtrArray *recording;         /* the launches of the recording the spec is in, or NULL
                                 * (ks-window-record.c) */
  char *recording_gpu;          /* the GPU it was recorded for, or NULL */
  gboolean loading;
  gboolean sass_asked;          /* the SASS pane asked for the highlight: do not scroll it */
  gboolean sass_live;           /* the SASS pane shows the last run's own SASS, not a file */
  gboolean sass_nothing;        /* no SASS to be had (no toolkit, none shipped): the pane folds */
  gboolean sass_unfolded;       /* the user opened the folded pane: it stays open */
  char *sass_offer_gpu;         /* the GPU the placeholder's button picks, or NULL */
  gboolean have_nvcc;           /* as the last run found it */
  gboolean have_disassembler;   /* nvdisasm or cuobjdump, as the last run found them */
  gboolean toolkit_dismissed;
  gboolean launch_modified;     /* applied, not saved */
  gboolean launch_editor_loaded;/* the editor shows this file's launch: its edits stay */
  gboolean launch_editor_at_start;
  gboolean launch_step_updating;       /* the launch drop-down is being filled */
  gboolean launch_step_chosen;         /* the next result shows a newly chosen launch's (or a
                                        * recorded launch's) kernel */
  gboolean close_after_save;    /* the close dialog's Save waits for a copy to be saved */
  gboolean export_message_shown; /* the message bar's is Export View's */
  gboolean views_syncing;       /* the views' drop-down follows the stack */
  gboolean fullscreen_pending;  /* presentation mode before the window showed */
  gboolean made_fullscreen;     /* presentation mode made the window full screen */
  guint screenshot_tries;       /* resizes asked for the picture */
  guint screenshot_waits;       /* looks since the last, with no change yet */
  int screenshot_seen_w;        /* the size the window had when it was asked */
  int screenshot_seen_h;
  gboolean screenshot_drawn;    /* the size came and has had a frame to draw */
  gboolean screenshot_scheduled;/* the picture is on its way: once only */
  gboolean screenshot_refused;  /* the file asked for was refused: the picture is of the
                                 * message, and the exit status 1 */
  guint anatomy_stage;          /* --anatomy N: open it at stage N (1-based) after the run */
  int screenshot_width;         /* the picture's size (--size) */
  int screenshot_height;
};

/* ks-window-layout.c */
void        _ks_window_layout_class_init   (GtkWidgetClass *klass);
void        _ks_window_layout_init         (KsWindow    *self);
void        _ks_window_layout_set_presentation (KsWindow *self,
                                                gboolean  on);
gboolean    _ks_window_results_maximized   (KsWindow    *self);
/* Lists the folded controls in the primary menu again (their choices changed) */
void        _ks_window_update_folded_menu  (KsWindow    *self);

/* ks-window.c */
void        _ks_window_show_message        (KsWindow    *self,
                                            const char  *message);
void        _ks_window_select_cuda_line    (KsWindow    *self,
                                            guint        cuda_line);
void        _ks_window_set_line_map        (KsWindow    *self,
                                            KsLineMap   *map);
gboolean    _ks_window_show_gpu            (KsWindow    *self,
                                            const char  *gpu_id);
const char *_ks_window_get_gpu_id          (KsWindow    *self);
void        _ks_window_show_launch         (KsWindow       *self,
                                            const KsLaunch *launch,
                                            gboolean        is_default);
void        _ks_window_show_compiled_ptx   (KsWindow    *self,
                                            const char  *ptx_text);
char       *_ks_window_dup_text            (GtkSourceBuffer *buffer);
/* "4096", "(64, 64)", "(8, 8, 4)": a grid or block as the header bar shows it */
void        _ks_window_format_dim3         (GString        *s,
                                            const uint32_t  d[3]);
/* Selects `line` of the CUDA (cuda TRUE) or PTX pane as a click there
 * would, lights its linked lines and scrolls every pane to them, and leaves
 * the keyboard focus where it is (a view's keys stay the view's) */
void        _ks_window_show_line           (KsWindow    *self,
                                            gboolean     cuda,
                                            guint        line);
/* Scrolls the panes to the selection's lines now and, for a moment, as
 * they are laid out again (a file just loaded, a new font size) */
void        _ks_window_keep_selection_in_sight (KsWindow *self);
/* A mark of the view named `name`, moved to the start of 1-based line
 * `line` (made the first time); NULL for line 0.  Scrolling to a mark
 * waits until the lines are measured. */
GtkTextMark *_ks_window_line_mark          (GtkSourceView   *view,
                                            const char      *name,
                                            guint            line);
/* Shows text in the SASS pane with its listing (transfer full; NULL when
 * it could not be read) and links it: an opened file, or with file NULL
 * the run's own SASS; text NULL shows the placeholder */
void        _ks_window_set_sass            (KsWindow      *self,
                                            GFile         *file,
                                            const char    *text,
                                            KsSassListing *listing);
/* The same with the text already laid out for the pane
 * (ks_sass_display_text, transfer full), made off the main thread */
void        _ks_window_set_sass_shown      (KsWindow      *self,
                                            GFile         *file,
                                            char          *shown,
                                            KsSassListing *listing);
void        _ks_window_update_titles       (KsWindow    *self);
/* Opens @file here, or in a new window when this one has unsaved changes */
void        _ks_window_open                (KsWindow    *self,
                                            GFile       *file);

/* ks-window-launch.c */
/* ks-window-compare.c: the baseline, and Compare windows for samples */
void        _ks_window_compare_class_init  (GtkWidgetClass *klass);
void        _ks_window_compare_init        (KsWindow    *self);
void        _ks_window_compare_finalize    (KsWindow    *self);
/* After a run, or a file opened: the baseline's bar, the menu's partners */
void        _ks_window_compare_update      (KsWindow    *self);
void        _ks_window_compare_update_menu (KsWindow    *self);
/* A Samples row's compare button; NULL for a sample without partners */
GtkWidget  *_ks_window_compare_sample_button (KsWindow       *self,
                                              const KsSample *sample);
/* ks-window-record.c: a recording's launches */
void        _ks_window_record_class_init   (GtkWidgetClass *klass);
void        _ks_window_record_init         (KsWindow    *self);
void        _ks_window_record_finalize     (KsWindow    *self);
/* Shows the list when the spec opened lies in a recording's folder */
void        _ks_window_record_update       (KsWindow    *self);
void        _ks_window_record_append_menu  (KsWindow    *self,
                                            GMenu       *section);
GFile      *_ks_window_record_first_launch (GFile       *folder);
void        _ks_window_launch_class_init   (GtkWidgetClass *klass);
void        _ks_window_launch_init         (KsWindow    *self);
void        _ks_window_launch_dispose      (KsWindow    *self);
void        _ks_window_launch_finalize     (KsWindow    *self);
/* A file was opened: its spec (spec_file), as written, is the launch to edit */
void        _ks_window_launch_opened       (KsWindow    *self);
/* Writes an applied launch to its spec (KERNEL.json beside the kernel) */
gboolean    _ks_window_launch_save         (KsWindow    *self,
                                            GError     **error);
/* What is to be saved cannot be saved where it is (a sample, a folder
 * that cannot be written) */
gboolean    _ks_window_needs_save_as       (KsWindow    *self);
/* Asks where to save a copy, and saves it there */
void        _ks_window_save_as             (KsWindow    *self);
/* Writes the CUDA, the PTX and the spec as FILE's name with their
 * suffixes in FILE's folder, and goes on with them */
gboolean    _ks_window_save_copy           (KsWindow    *self,
                                            GFile       *file,
                                            GError     **error);
/* A spec's "launches": fills the drop-down that chooses the one the
 * views show (hidden for a spec of one launch) from self->launch */
void        _ks_window_launch_steps_update (KsWindow    *self);
/* "final_sum" of "_Z9final_sum4SpanPf": a kernel as a reader names it */
char       *_ks_window_short_kernel_name   (const char  *kernel);
/* Shows launch @step of the sequence (self->launch->step) and runs again */
void        _ks_window_choose_launch_step  (KsWindow    *self,
                                            guint        step);
/* After a run that shows a newly chosen launch: its kernel in the panes */
void        _ks_window_update_kernel_choice (KsWindow        *self,
                                            const KsAnalysis *result);
void        _ks_window_launch_show_kernel  (KsWindow         *self,
                                            const KsAnalysis *result);
/* Draws the launch editor where it shows over the window (screenshots) */
void        _ks_window_launch_snapshot     (KsWindow    *self,
                                            GtkSnapshot *snapshot);

/* ks-window-recent.c */
void        _ks_window_recent_class_init   (GtkWidgetClass *klass);
void        _ks_window_recent_init         (KsWindow    *self);
void        _ks_window_recent_add          (KsWindow    *self,
                                            GFile       *file);

/* ks-window-sass.c */
void        _ks_window_sass_init           (KsWindow    *self);
/* A run's SASS into the pane, unless the user opened a listing; without
 * it, the placeholder says how to get it, or why it failed.  listing and
 * shown (transfer full, either may be NULL) are the window's own copy of
 * the result's listing and its text laid out for the pane, made by the
 * run's worker (_ks_window_sass_prepare) */
void        _ks_window_sass_show_analysis  (KsWindow         *self,
                                            const KsAnalysis *result,
                                            KsSassListing    *listing,
                                            char             *shown);
/* What the pane needs of a run's SASS, made on the worker's thread: the
 * parsing and laying out would otherwise hold the main loop for
 * milliseconds at the end of every run */
void        _ks_window_sass_prepare        (const KsAnalysis *result,
                                            KsSassListing   **listing,
                                            char            **shown);
/* Whether file starts with the ELF magic: a cubin, whatever its name */
gboolean    _ks_window_file_is_cubin       (GFile       *file);
/* Shows a cubin in the SASS pane as read by hand (offsets, words, control
 * codes), then, when the toolkit's disassembler reads it, named */
gboolean    _ks_window_open_cubin          (KsWindow    *self,
                                            GFile       *file,
                                            GError     **error);
/* Drops the pane's listing, opened or made, for a new kernel */
void        _ks_window_sass_forget         (KsWindow    *self);
void        _ks_window_sass_class_init     (GtkWidgetClass *klass);
/* Shows the folded bar (TRUE) or the pane's own header and page */
void        _ks_window_sass_set_folded     (KsWindow    *self,
                                            gboolean     folded);
/* Shows, folds or hides the SASS pane for what it has, and shares the
 * width out (ks-window.c) */
void        _ks_window_update_sass_pane    (KsWindow    *self);
/* Ends the SASS pane's scrolling animation before the pane is hidden */
void        _ks_window_sass_stop_scrolling (KsWindow    *self);
void        _ks_window_sass_update_label   (KsWindow    *self);
/* Shows the control-code column only when the listing has control codes */
void        _ks_window_sass_update_column  (KsWindow    *self);
/* The control-code column's text for listing line `line` (1-based), or
 * NULL where no instruction with a decoded control code starts */
char       *_ks_window_sass_control_text   (KsWindow    *self,
                                            guint        line);
/* The SASS pane's tooltip for listing line `line` (1-based): the opcode's
 * description, the decoded control code, Maxwell's dual issue; NULL off an
 * instruction */
char       *_ks_window_sass_tooltip_text   (KsWindow    *self,
                                            guint        line);

/* ks-window-ptx.c */
void        _ks_window_ptx_init            (KsWindow    *self);
/* The PTX pane's tooltip for byte byte_column of line `line` (0-based):
 * the instruction there spelled out, as Pango markup, or NULL */
char       *_ks_window_ptx_tooltip_markup  (KsWindow    *self,
                                            guint        line,
                                            guint        byte_column);

/* ks-window-views.c */
void        _ks_window_views_class_init    (GtkWidgetClass *klass);
void        _ks_window_views_init          (KsWindow    *self);
/* Exports the visible view to PATH (.png, .svg or .pdf) */
gboolean    _ks_window_views_export        (KsWindow    *self,
                                            const char  *path,
                                            GError     **error);
void        _ks_window_views_dispose       (KsWindow    *self);
/* Feeds the views a good run; with `lesson` (the first run after opening)
 * they open on what the file teaches: the sample's "focus", else the top
 * hint's line, its access in Memory, the warp's first split in Lanes */
void        _ks_window_views_show          (KsWindow    *self,
                                            KsAnalysis  *analysis,
                                            gboolean     lesson);
void        _ks_window_views_set_presentation (KsWindow *self,
                                               gboolean  on);

/* ks-window-heat.c: the heat gutters and their legends */
typedef enum
{
  KS_HEAT_PANE_CUDA = 0,
  KS_HEAT_PANE_PTX,
  KS_HEAT_PANE_SASS,
  KS_HEAT_N_PANES
} KsHeatPane;

void        _ks_window_heat_init           (KsWindow    *self);
void        _ks_window_heat_dispose        (KsWindow    *self);
/* Colours the gutters by a good run's per-line statistics (NULL: none) */
void        _ks_window_heat_show           (KsWindow    *self,
                                            KsAnalysis  *analysis);
/* A KsHeatMetric, or -1 to turn the gutters off */
void        _ks_window_heat_set_metric     (KsWindow    *self,
                                            int          metric);
/* Line (1-based) of a pane: its figure in the metric shown and its bin;
 * FALSE when it is blank */
gboolean    _ks_window_heat_value          (KsWindow    *self,
                                            KsHeatPane   pane,
                                            guint        line,
                                            double      *value,
                                            uint32_t    *bin);
char       *_ks_window_heat_tooltip        (KsWindow    *self,
                                            KsHeatPane   pane,
                                            guint        line);
GtkSourceGutterRenderer *_ks_window_heat_gutter (KsWindow   *self,
                                                 KsHeatPane  pane);
GtkWidget  *_ks_window_heat_legend         (KsWindow    *self,
                                            KsHeatPane   pane);

/* ks-window-step.c: stepping through a launch (step.* actions) */
void        _ks_window_step_class_init     (GtkWidgetClass *klass);
void        _ks_window_step_init           (KsWindow    *self);
void        _ks_window_step_dispose        (KsWindow    *self);
/* Ends the stepping session, if any, and updates the step actions */
void        _ks_window_step_end            (KsWindow    *self);
/* After a run: whether stepping can start */
void        _ks_window_step_update         (KsWindow    *self);
/* The session's simulation (NULL without a session, or while a worker
 * runs it), the steps taken, and whether a worker is busy */
KsSim      *_ks_window_step_get_sim        (KsWindow    *self);
guint64     _ks_window_step_count          (KsWindow    *self);
gboolean    _ks_window_step_is_busy        (KsWindow    *self);

/* ks-window-run.c */
void        _ks_window_run_class_init      (GtkWidgetClass *klass);
void        _ks_window_run_init            (KsWindow    *self);
void        _ks_window_run_dispose         (KsWindow    *self);
void        _ks_window_run                 (KsWindow    *self);
void        _ks_window_stop                (KsWindow    *self);
void        _ks_window_screenshot_soon     (KsWindow    *self);
KsAnatomyWindow *_ks_window_open_anatomy   (KsWindow    *self,
                                            guint        stage);
void        _ks_window_show_toolchain      (KsWindow    *self);
void        _ks_window_sass_update_folded_label (KsWindow *self);
/* The no-toolkit banner's words, in a Flatpak sandbox or not */
const char *_ks_window_toolkit_advice      (gboolean     sandboxed);
/* Makes FOLDER (one holding nvcc, or bin/nvcc) the toolkit-path setting
 * and runs again; FALSE, with a message, for a folder without nvcc */
gboolean    _ks_window_set_toolkit_folder  (KsWindow    *self,
                                            GFile       *folder);

G_END_DECLS

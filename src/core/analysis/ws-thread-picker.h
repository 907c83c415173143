/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-frame-classifier.h"
#include "ws-trace.h"

G_BEGIN_DECLS

/**
 * WsPickSubject:
 * @WS_PICK_RANKED: nobody said which program matters: the one held up
 *   most was chosen
 * @WS_PICK_RECORDED: the trace was recorded for one command or process
 *   (`perf record -p PID`, or a command perf started): that one
 * @WS_PICK_CHOSEN: the caller asked for it (`why --comm/--pid`, the
 *   Overview's switch)
 *
 * How the program explained was chosen.
 */
typedef enum {
  WS_PICK_RANKED,
  WS_PICK_RECORDED,
  WS_PICK_CHOSEN,
} WsPickSubject;

/**
 * WsPickChoice:
 * @comm: (nullable): only processes of this name
 * @pid: only this process, or 0
 *
 * What the caller asks the picker to explain; zeroes = rank.
 */
typedef struct {
  const char *comm;
  gint32      pid;
} WsPickChoice;

/**
 * WsThreadPick:
 * @trace: the trace (not owned)
 * @program: the chosen program's process name
 * @pid: the pid of its first process
 * @n_processes: how many processes of that name it spans (PostgreSQL's
 *   backends that wait for one another are one program)
 * @threads: (element-type guint): the chosen thread indices, held up
 *   longest first: at most @k of them, or, with @explains_ended, every
 *   thread of the program whose end others waited for (up to 4,096)
 * @inside: summed over the program's threads: time blocked while a thread
 *   of the program itself was what held it up (running, or blocked: a
 *   lock holder, its own I/O) (ns)
 * @outside: time blocked while another program's thread held it up (ns)
 * @cpu: time runnable without a CPU, its own or that of a thread it
 *   waited for (ns)
 * @ran: time on a CPU (ns)
 * @launched: time other programs waited for its processes to end (a
 *   shell for its child), in the share of their busy time they ran (ns)
 * @explains_ended: the program was picked mostly for @launched, so its
 *   threads are those whose end was waited for, over their whole lives
 * @score: what programs were ranked by (ns): @inside + @outside + the
 *   CPU waits of threads it waited for + its own CPU waits in the share of
 *   its busy time it ran + @launched
 * @subject: how it was chosen
 * @record_command: (nullable): %WS_PICK_RECORDED: the recording's command
 *   line
 * @runner_up: (nullable): the program ranked next (%WS_PICK_RANKED), or
 *   the one ranked first when the choice was not the ranking's
 * @runner_up_pid: its first process's pid
 * @runner_up_score: its score (ns)
 * @runner_up_ran: time its threads ran (ns)
 *
 * Which program a trace without scenario instances is explained from, and
 * why (ws_thread_pick_describe()).
 */
typedef struct {
  WsTrace       *trace;
  char          *program;
  gint32         pid;
  guint          n_processes;
  GArray        *threads;
  WsTime         inside;
  WsTime         outside;
  WsTime         cpu;
  WsTime         ran;
  WsTime         launched;
  gboolean       explains_ended;
  double         score;
  WsPickSubject  subject;
  char          *record_command;
  char          *runner_up;
  gint32         runner_up_pid;
  double         runner_up_score;
  WsTime         runner_up_ran;
} WsThreadPick;

void     ws_thread_pick_free     (WsThreadPick *pick);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsThreadPick, ws_thread_pick_free)

/*
 * ws_thread_pick_describe:
 * One translated sentence saying which program was chosen and why, for
 * the Overview and `waitscope-cli why`.
 *
 * Returns: (transfer full): the sentence
 */
char          *ws_thread_pick_describe (const WsThreadPick *pick);

/*
 * ws_thread_picks_explained:
 * @picks: (element-type WsThreadPick) (nullable): the picks the targets came from
 * @n_targets: how many threads are explained
 *
 * What `why` and the Overview explain, as a translated phrase: the threads
 * held up longest of the program held up most, or, when every pick was
 * made for the time others waited for its processes to end, those
 * processes' threads.
 *
 * Returns: (transfer full): the phrase
 */
char          *ws_thread_picks_explained (GPtrArray *picks,
                                          guint      n_targets);

/*
 * ws_thread_picker_pick:
 * @classifier: (nullable): %NULL = the default lists
 * @k: at most this many threads
 *
 * Without scenarios: the program of @trace held up most by work it waited
 * for, and its @k threads held up longest (see docs/attribution.md, "The
 * thread picker").
 *
 * Returns: (transfer full) (nullable): the pick, or %NULL when no thread
 *   of the trace was held up at all
 */
WsThreadPick  *ws_thread_picker_pick   (WsTrace           *trace,
                                        WsFrameClassifier *classifier,
                                        guint              k);

/*
 * ws_thread_picker_pick_full:
 * @choice: (nullable): the program the caller asks for; %NULL = the
 *   recording's subject if the trace says what was recorded, else the
 *   ranking's first
 *
 * Returns: (transfer full) (nullable): the pick, or %NULL when no thread
 *   (of the choice) was held up at all
 */
WsThreadPick  *ws_thread_picker_pick_full (WsTrace            *trace,
                                           WsFrameClassifier  *classifier,
                                           guint               k,
                                           const WsPickChoice *choice);

/*
 * ws_thread_picker_record_subject:
 * @command: a `perf record …` command line (perf's header "cmdline")
 * @pids: (out) (transfer full) (optional): the pids it names (-p), or %NULL
 * @system_wide: (out) (optional): whether it recorded every CPU (-a)
 *
 * What a recording was made for: %TRUE for `-p`/`-t` (@pids set) or a
 * command perf started and followed (not `-a … -- sleep N`, the duration
 * of a system-wide recording).
 */
gboolean       ws_thread_picker_record_subject (const char  *command,
                                                GArray     **pids,
                                                gboolean    *system_wide);

gboolean ws_thread_picker_is_candidate (WsTrace           *trace,
                                        WsFrameClassifier *classifier,
                                        guint              thread);

G_END_DECLS

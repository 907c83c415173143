/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The libbabeltrace2 graph of the CTF importer: the `ctf` plugin's `fs`
 * source (one message stream per CPU), the `utils` plugin's `muxer`
 * (merges them in time order, as `babeltrace2` itself does) and a simple
 * sink handing each batch of messages to ws-ctf-reader.c.  Also the child
 * process that reads a trace through the same graph first, so that a
 * crash or an endless loop of the library on a damaged trace is reported
 * instead of taking the application down.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib-unix.h>
#include <glib/gstdio.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>

#include "ws-ctf-graph.h"
#include "ws-library-child.h"

/* Under LeakSanitizer (the sanitizer and fuzz builds): babeltrace2 2.0.4
 * and its ctf plugin leak on damaged traces — 16 bytes when the `fs`
 * source refuses one in its initialisation, messages and packets when an
 * iterator fails half-way (fuzz-ctf, 2026-11-29) — and the plugin is
 * dlopen'ed without frame pointers, so no suppression file can name the
 * stack.  Only those two library calls are kept out of leak checking:
 * neither runs anything of Waitscope's (our component is the sink; it
 * puts every message it is given, after the call). */
#ifdef WS_WITH_ASAN
# include <sanitizer/lsan_interface.h>
# define LIBRARY_LEAKS_BEGIN() __lsan_disable ()
# define LIBRARY_LEAKS_END() __lsan_enable ()
#else
# define LIBRARY_LEAKS_BEGIN() ((void) 0)
# define LIBRARY_LEAKS_END() ((void) 0)
#endif

static bt_graph_simple_sink_component_initialize_func_status
sink_init (bt_message_iterator *iterator,
           void                *data)
{
  return BT_GRAPH_SIMPLE_SINK_COMPONENT_INITIALIZE_FUNC_STATUS_OK;
}

typedef struct {
  WsCtfMessagesFunc func;
  gpointer          data;
} Sink;

static bt_graph_simple_sink_component_consume_func_status
sink_consume (bt_message_iterator *iterator,
              void                *data)
{
  Sink *sink = data;
  bt_message_array_const msgs;
  bt_message_iterator_next_status status;
  guint64 count = 0;
  gboolean ok;

  LIBRARY_LEAKS_BEGIN ();
  status = bt_message_iterator_next (iterator, &msgs, &count);
  LIBRARY_LEAKS_END ();
  switch (status)
    {
    case BT_MESSAGE_ITERATOR_NEXT_STATUS_OK:
      break;
    case BT_MESSAGE_ITERATOR_NEXT_STATUS_END:
      return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_END;
    case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN:
      return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_AGAIN;
    case BT_MESSAGE_ITERATOR_NEXT_STATUS_MEMORY_ERROR:
      return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_MEMORY_ERROR;
    default:
      return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_ERROR;
    }
  ok = sink->func (msgs, count, sink->data);
  for (guint64 i = 0; i < count; i++)
    bt_message_put_ref (msgs[i]);
  return ok ? BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_OK
            : BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_ERROR;
}

/* libbabeltrace2's own account of a failure, the cause nearest the data
 * first (it names the stream file and offset); NULL if it has none. */
static char *
take_library_error (void)
{
  const bt_error *err = bt_current_thread_take_error ();
  GString *text;
  guint64 n;

  if (err == NULL)
    return NULL;
  text = g_string_new (NULL);
  n = bt_error_get_cause_count (err);
  for (guint64 i = n; i > 0 && text->len < 600; i--)
    {
      const char *m = bt_error_cause_get_message (bt_error_borrow_cause_by_index (err, i - 1));

      /* The framework's own wrappers ("Component initialization method
       * failed: status=ERROR, comp-addr=…") say nothing about the data. */
      if (m == NULL || *m == '\0' || strstr (m, "comp-addr=") != NULL || strstr (m, "status=") != NULL)
        continue;
      if (text->len > 0)
        g_string_append (text, ": ");
      g_string_append (text, m);
    }
  bt_error_release (err);
  if (!g_utf8_validate (text->str, -1, NULL))
    {
      g_autofree char *valid = g_utf8_make_valid (text->str, -1);
      g_string_assign (text, valid);
    }
  return g_string_free (text, FALSE);
}

/* Builds source → muxer → sink over @dirs and runs it; FALSE with a
 * message in @problem when libbabeltrace2 refuses the trace. */
gboolean
ws_ctf_graph_run (const char * const *dirs,
                  bt_logging_level    log_level,
                  WsCtfMessagesFunc   func,
                  gpointer            data,
                  char              **problem)
{
  const bt_plugin *ctf = NULL, *utils = NULL;
  bt_graph *graph = NULL;
  bt_value *params = NULL, *inputs = NULL;
  const bt_component_source *source = NULL;
  const bt_component_filter *muxer = NULL;
  const bt_component_sink *sink = NULL;
  gboolean ok = FALSE;
  bt_graph_run_status status;
  bt_graph_add_component_status added;
  Sink sink_data = { func, data };

  if (bt_plugin_find ("ctf", BT_FALSE, BT_FALSE, BT_TRUE, BT_TRUE, BT_FALSE, &ctf) != BT_PLUGIN_FIND_STATUS_OK ||
      bt_plugin_find ("utils", BT_FALSE, BT_FALSE, BT_TRUE, BT_TRUE, BT_FALSE, &utils) != BT_PLUGIN_FIND_STATUS_OK)
    {
      *problem = g_strdup (_("libbabeltrace2's ctf and utils plugins are not installed (Debian: babeltrace2)"));
      goto out;
    }
  graph = bt_graph_create (0);
  params = bt_value_map_create ();
  inputs = bt_value_array_create ();
  for (guint i = 0; dirs[i] != NULL; i++)
    bt_value_array_append_string_element (inputs, dirs[i]);
  bt_value_map_insert_entry (params, "inputs", inputs);

  LIBRARY_LEAKS_BEGIN ();
  added = bt_graph_add_source_component (graph, bt_plugin_borrow_source_component_class_by_name_const (ctf, "fs"),
                                         "source", params, log_level, &source);
  LIBRARY_LEAKS_END ();
  if (added != BT_GRAPH_ADD_COMPONENT_STATUS_OK)
    goto failed;
  if (bt_graph_add_filter_component (graph, bt_plugin_borrow_filter_component_class_by_name_const (utils, "muxer"),
                                     "muxer", NULL, BT_LOGGING_LEVEL_NONE, &muxer) != BT_GRAPH_ADD_COMPONENT_STATUS_OK ||
      bt_graph_add_simple_sink_component (graph, "sink", sink_init, sink_consume, NULL, &sink_data, &sink) != BT_GRAPH_ADD_COMPONENT_STATUS_OK)
    goto failed;
  for (guint64 i = 0; i < bt_component_source_get_output_port_count (source); i++)
    {
      /* The muxer adds an input port each time one is connected. */
      guint64 n_in = bt_component_filter_get_input_port_count (muxer);

      if (bt_graph_connect_ports (graph, bt_component_source_borrow_output_port_by_index_const (source, i),
                                  bt_component_filter_borrow_input_port_by_index_const (muxer, n_in - 1),
                                  NULL) != BT_GRAPH_CONNECT_PORTS_STATUS_OK)
        goto failed;
    }
  if (bt_graph_connect_ports (graph, bt_component_filter_borrow_output_port_by_name_const (muxer, "out"),
                              bt_component_sink_borrow_input_port_by_name_const (sink, "in"),
                              NULL) != BT_GRAPH_CONNECT_PORTS_STATUS_OK)
    goto failed;

  do
    status = bt_graph_run (graph);
  while (status == BT_GRAPH_RUN_STATUS_AGAIN);
  if (status == BT_GRAPH_RUN_STATUS_OK)
    {
      ok = TRUE;
      goto out;
    }

failed:
  *problem = take_library_error ();
  if (*problem == NULL)
    *problem = g_strdup (_("libbabeltrace2 cannot read it"));
out:
  bt_value_put_ref (inputs);
  bt_value_put_ref (params);
  bt_graph_put_ref (graph);
  bt_plugin_put_ref (ctf);
  bt_plugin_put_ref (utils);
  return ok;
}

/* The first error the ctf plugin logged in @log ("E PLUGIN/CTF/…
 * function@file.c:123 MESSAGE"): its message, or NULL. */
static char *
first_logged_error (const char *log)
{
  g_auto(GStrv) lines = g_strsplit (log, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *e = strstr (lines[i], " E PLUGIN/");
      const char *at, *space;

      if (e == NULL || (at = strchr (e, '@')) == NULL || (space = strchr (at, ' ')) == NULL)
        continue;
      /* The metadata parser's own line numbers go to a log of its own
       * that the plugin does not let a component turn on; the file at
       * least is named. */
      if (strstr (e, "PLUGIN/CTF/META") != NULL)
        {
          g_autofree char *text = g_utf8_make_valid (space + 1, MIN (strlen (space + 1), 300));
          return g_strdup_printf (_("its metadata file is not valid CTF metadata (%s)"), text);
        }
      return g_utf8_make_valid (space + 1, MIN (strlen (space + 1), 300));
    }
  return NULL;
}

/* How long the child may read without delivering an event before it is
 * taken to loop (libbabeltrace2 2.0 loops for ever on some damaged
 * streams, its own `babeltrace2` too): WAITSCOPE_CTF_STALL_TIMEOUT
 * seconds, 30 by default.  Any real trace delivers events all the time. */
static guint
stall_timeout (void)
{
  const char *env = g_getenv ("WAITSCOPE_CTF_STALL_TIMEOUT");
  guint64 v;

  if (env != NULL && g_ascii_string_to_unsigned (env, 10, 1, 24 * 3600, &v, NULL))
    return (guint) v;
  return 30;
}

typedef struct {
  int     fd;
  guint64 n_events;
  gint64  last_report;
} Counter;

/* The child's sink: counts events, telling the parent now and then. */
static gboolean
count_messages (const bt_message * const *msgs,
                guint64                   count,
                gpointer                  data)
{
  Counter *c = data;
  gint64 now = g_get_monotonic_time ();

  c->n_events += count;
  if (now - c->last_report >= G_USEC_PER_SEC / 10)
    {
      c->last_report = now;
      if (write (c->fd, &c->n_events, sizeof c->n_events) < 0)
        return FALSE;   /* the parent is gone */
    }
  return TRUE;
}

/*
 * libbabeltrace2 aborts on some damaged traces (an assertion in its CTF
 * decoder) and loops on others, so a child process reads the whole trace
 * first; only one it read to its end is read in the application.  The
 * child touches nothing but the library and ends with _exit(), so forking
 * from a worker thread is safe.  @logged: the first error the plugin
 * logged, if any.
 */
WsCtfSkim
ws_ctf_graph_skim (const char * const *dirs,
                   GCancellable       *cancellable,
                   int                *how,
                   guint64            *n_events,
                   char              **logged)
{
  g_autofree char *log_path = NULL;
  int log_fd = g_file_open_tmp ("waitscope-ctf-log-XXXXXX", &log_path, NULL);
  int fds[2];
  pid_t pid;
  int status = 0;
  WsCtfSkim result = WS_CTF_SKIM_OK;
  gint64 last_progress = g_get_monotonic_time ();
  gint64 timeout = (gint64) stall_timeout () * G_USEC_PER_SEC;

  *n_events = 0;
  *logged = NULL;
  if (!g_unix_open_pipe (fds, FD_CLOEXEC, NULL))
    fds[0] = fds[1] = -1;
  pid = fork ();
  if (pid < 0)
    goto out;   /* no child to be had: read it in the application */
  if (pid == 0)
    {
      Counter counter = { fds[1], 0, 0 };
      g_autofree char *problem = NULL;

      /* The plugin's log says where the data is wrong: kept for the parent. */
      ws_library_child_enter (log_fd);
      ws_ctf_graph_run (dirs, BT_LOGGING_LEVEL_ERROR, count_messages, &counter, &problem);
      _exit (0);
    }
  if (fds[1] >= 0)
    close (fds[1]), fds[1] = -1;
  for (;;)
    {
      pid_t done = waitpid (pid, &status, WNOHANG);
      struct pollfd p = { .fd = fds[0], .events = POLLIN };
      gint64 now;

      if (done == pid)
        break;
      if (done < 0 && errno != EINTR)
        goto out;
      if (g_cancellable_is_cancelled (cancellable))
        result = WS_CTF_SKIM_CANCELLED;
      /* Events delivered: the child is still reading. */
      if (fds[0] >= 0 && poll (&p, 1, 20) > 0)
        {
          guint64 n;
          if (read (fds[0], &n, sizeof n) == sizeof n)
            *n_events = n, last_progress = g_get_monotonic_time ();
        }
      else if (fds[0] < 0)
        g_usleep (20000);
      now = g_get_monotonic_time ();
      if (result == WS_CTF_SKIM_OK && now - last_progress > timeout)
        result = WS_CTF_SKIM_STALLED;
      if (result != WS_CTF_SKIM_OK)
        {
          kill (pid, SIGKILL);
          waitpid (pid, &status, 0);
          goto out;
        }
    }
  if (!(WIFEXITED (status) && WEXITSTATUS (status) == 0))
    {
      *how = WIFSIGNALED (status) ? WTERMSIG (status) : -WEXITSTATUS (status);
      result = WS_CTF_SKIM_CRASHED;
    }
out:
  if (fds[0] >= 0)
    close (fds[0]);
  if (fds[1] >= 0)
    close (fds[1]);
  if (log_fd >= 0)
    {
      g_autofree char *log = NULL;

      close (log_fd);
      if (g_file_get_contents (log_path, &log, NULL, NULL))
        *logged = first_logged_error (log);
      g_unlink (log_path);
    }
  return result;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The search bar of the graph page, kept apart from the page so that the
 * page only hears "the matches changed" and "show this match".  The entry
 * and label stay in the page's template; this object connects to them.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-graph-search.h"

struct _WsGraphSearch
{
  GObject          parent_instance;

  /* Borrowed widgets (the page's template owns them) */
  GtkSearchEntry  *entry;
  GtkLabel        *match_label;

  /* What is searched: weak, the page owns them */
  WsTrace         *trace;
  WsGraphScene    *scene;
  WsCriticalPath  *path;

  WsStackSearch   *search;
  GArray          *matches;        /* guint scene nodes or segments, reading order */
  guint            current_match;  /* index into matches, or WS_NONE */
  char            *status;
  char            *tooltip;        /* the entry's own, restored after an error */
  gboolean         in_set_text;
};

G_DEFINE_FINAL_TYPE (WsGraphSearch, ws_graph_search, G_TYPE_OBJECT)

enum {
  CHANGED,
  MATCH_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
update_match_label (WsGraphSearch *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->entry));
  guint n = self->matches ? self->matches->len : 0;

  g_clear_pointer (&self->status, g_free);
  if (text == NULL || *text == '\0')
    self->status = g_strdup ("");
  else if (self->search == NULL)
    self->status = g_strdup (_("Invalid"));
  else if (n == 0)
    self->status = g_strdup (_("No match"));
  else if (self->current_match == WS_NONE)
    self->status = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u match", "%u matches", n), n);
  else
    /* Translators: search position, "2 of 8" */
    self->status = g_strdup_printf (_("%u of %u"), self->current_match + 1, n);
  gtk_label_set_text (self->match_label, self->status);
}

/* The scene's nodes matching, layer by layer (the order Tab visits them).
 * A node matches by its stacks (ws_graph_scene_node_matches()) or by its
 * event, so that a search of events (an inspector finding) finds it. */
static void
find_scene_matches (WsGraphSearch *self,
                    GArray        *matches)
{
  WsGraphLayout *layout = ws_graph_scene_get_layout (self->scene);

  for (guint l = 0; l < ws_graph_layout_get_n_layers (layout); l++)
    {
      guint n;
      const guint *nodes = ws_graph_layout_get_layer_nodes (layout, l, &n);

      for (guint i = 0; i < n; i++)
        {
          const WsSceneNode *node = ws_graph_scene_get_node (self->scene, nodes[i]);

          if ((node->event != WS_NONE && ws_stack_search_matches_event (self->search, node->event)) ||
              ws_graph_scene_node_matches (self->scene, nodes[i], self->search))
            g_array_append_val (matches, nodes[i]);
        }
    }
}

/* The scene's nodes or the path's segments (in time order) that match. */
static GArray *
find_matches (WsGraphSearch *self)
{
  GArray *matches = g_array_new (FALSE, FALSE, sizeof (guint));

  if (self->search == NULL || ws_stack_search_get_trace (self->search) != self->trace)
    return matches;
  if (self->scene != NULL)
    find_scene_matches (self, matches);
  else if (self->path != NULL)
    for (guint i = 0; i < ws_critical_path_get_n_segments (self->path); i++)
      if (ws_critical_path_segment_matches (self->path, i, self->search))
        g_array_append_val (matches, i);
  return matches;
}

/**
 * ws_graph_search_refresh:
 *
 * Recomputes the matches of the entry's text (or of the search given) on
 * what is shown, then emits ::changed.
 */
void
ws_graph_search_refresh (WsGraphSearch *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->entry));
  g_autoptr(GError) error = NULL;

  g_return_if_fail (WS_IS_GRAPH_SEARCH (self));

  g_clear_pointer (&self->matches, g_array_unref);
  self->current_match = WS_NONE;
  gtk_widget_remove_css_class (GTK_WIDGET (self->entry), "error");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->entry), self->tooltip);

  if (text != NULL && *text != '\0' && self->trace != NULL)
    {
      /* A search given by events keeps its description as the entry's text. */
      if (self->search == NULL || !g_str_equal (ws_stack_search_get_pattern (self->search), text) ||
          ws_stack_search_get_trace (self->search) != self->trace)
        {
          g_clear_object (&self->search);
          self->search = ws_stack_search_new (self->trace, text, NULL, &error);
        }
      if (self->search == NULL)
        {
          gtk_widget_add_css_class (GTK_WIDGET (self->entry), "error");
          gtk_widget_set_tooltip_text (GTK_WIDGET (self->entry), error->message);
        }
      else
        self->matches = find_matches (self);
    }
  else
    g_clear_object (&self->search);

  update_match_label (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

/* Sets the entry's text without the search the entry would start: a
 * search entry emptied (as setting a text does first) reports it at once,
 * which would drop a search given by events rather than by its text. */
static void
set_entry_text (WsGraphSearch *self,
                const char    *text)
{
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->entry)), text) == 0)
    return;
  self->in_set_text = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->entry), text);
  self->in_set_text = FALSE;
}

/**
 * ws_graph_search_next:
 * @forward: %FALSE for the previous match
 *
 * Makes the next (previous) match current, wrapping around, and emits
 * ::match-activated with it; rings the bell when there is none.
 */
void
ws_graph_search_next (WsGraphSearch *self,
                      gboolean       forward)
{
  guint n;

  g_return_if_fail (WS_IS_GRAPH_SEARCH (self));

  n = self->matches ? self->matches->len : 0;
  if (n == 0)
    {
      gtk_widget_error_bell (GTK_WIDGET (self->entry));
      return;
    }
  if (self->current_match == WS_NONE)
    self->current_match = forward ? 0 : n - 1;
  else
    self->current_match = (self->current_match + (forward ? 1 : n - 1)) % n;
  g_signal_emit (self, signals[MATCH_ACTIVATED], 0, g_array_index (self->matches, guint, self->current_match));
  update_match_label (self);
}

static gboolean
key_pressed_cb (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                WsGraphSearch         *self)
{
  gboolean shift = (state & GDK_SHIFT_MASK) != 0;

  /* Tab cycles while there are matches; with none it moves the focus on
   * as usual, so the keyboard can always leave the entry. */
  if ((keyval == GDK_KEY_Tab || keyval == GDK_KEY_ISO_Left_Tab || keyval == GDK_KEY_KP_Tab) &&
      !(state & GDK_CONTROL_MASK) && self->matches != NULL && self->matches->len > 0)
    {
      ws_graph_search_next (self, !(shift || keyval == GDK_KEY_ISO_Left_Tab));
      return TRUE;
    }
  if (keyval == GDK_KEY_F3)
    {
      ws_graph_search_next (self, !shift);
      return TRUE;
    }
  return FALSE;
}

static void
search_changed_cb (WsGraphSearch *self)
{
  if (!self->in_set_text)
    ws_graph_search_refresh (self);
}

static void
next_cb (WsGraphSearch *self)
{
  ws_graph_search_next (self, TRUE);
}

static void
previous_cb (WsGraphSearch *self)
{
  ws_graph_search_next (self, FALSE);
}

static void
ws_graph_search_dispose (GObject *object)
{
  WsGraphSearch *self = WS_GRAPH_SEARCH (object);

  if (self->entry != NULL)
    g_signal_handlers_disconnect_by_data (self->entry, self);
  g_clear_object (&self->entry);
  g_clear_object (&self->match_label);
  g_clear_object (&self->search);
  g_clear_pointer (&self->matches, g_array_unref);
  g_clear_pointer (&self->status, g_free);
  g_clear_pointer (&self->tooltip, g_free);
  self->trace = NULL;
  self->scene = NULL;
  self->path = NULL;

  G_OBJECT_CLASS (ws_graph_search_parent_class)->dispose (object);
}

static void
ws_graph_search_class_init (WsGraphSearchClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ws_graph_search_dispose;

  /**
   * WsGraphSearch::changed:
   *
   * The matches (or the search) changed.
   */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /**
   * WsGraphSearch::match-activated:
   * @item: the scene node (or critical path segment) now current
   */
  signals[MATCH_ACTIVATED] =
    g_signal_new ("match-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
ws_graph_search_init (WsGraphSearch *self)
{
  self->current_match = WS_NONE;
}

/**
 * ws_graph_search_new:
 * @entry: the search entry to drive
 * @match_label: where "n of m" goes
 */
WsGraphSearch *
ws_graph_search_new (GtkSearchEntry *entry,
                     GtkLabel       *match_label)
{
  WsGraphSearch *self = g_object_new (WS_TYPE_GRAPH_SEARCH, NULL);
  GtkEventController *keys;

  self->entry = g_object_ref (entry);
  self->match_label = g_object_ref (match_label);
  self->tooltip = g_strdup (gtk_widget_get_tooltip_text (GTK_WIDGET (entry)));

  g_signal_connect_swapped (entry, "search-changed", G_CALLBACK (search_changed_cb), self);
  g_signal_connect_swapped (entry, "activate", G_CALLBACK (next_cb), self);
  g_signal_connect_swapped (entry, "next-match", G_CALLBACK (next_cb), self);
  g_signal_connect_swapped (entry, "previous-match", G_CALLBACK (previous_cb), self);
  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect_object (keys, "key-pressed", G_CALLBACK (key_pressed_cb), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (entry), keys);
  update_match_label (self);
  return self;
}

/**
 * ws_graph_search_set_target:
 * @trace: (nullable): the trace shown; a new one drops the search
 * @scene: (nullable): the scene shown
 * @path: (nullable): or the critical path shown
 *
 * Borrows the three until the next call: the caller keeps them alive and
 * then calls ws_graph_search_refresh().
 */
void
ws_graph_search_set_target (WsGraphSearch  *self,
                            WsTrace        *trace,
                            WsGraphScene   *scene,
                            WsCriticalPath *path)
{
  g_return_if_fail (WS_IS_GRAPH_SEARCH (self));

  if (self->trace != trace)
    g_clear_object (&self->search);
  self->trace = trace;
  self->scene = scene;
  self->path = path;
}

void
ws_graph_search_set_text (WsGraphSearch *self,
                          const char    *text)
{
  g_return_if_fail (WS_IS_GRAPH_SEARCH (self));

  set_entry_text (self, text ? text : "");
  /* Not waiting for the entry's typing delay. */
  ws_graph_search_refresh (self);
}

/**
 * ws_graph_search_set_search:
 * @search: matches decided elsewhere (the events of a mined pattern or of
 *   an inspector finding); ignored unless of the trace shown
 *
 * Highlights @search's matches as if typed; the entry shows its
 * description, and typing replaces it with a regular-expression search.
 */
void
ws_graph_search_set_search (WsGraphSearch *self,
                            WsStackSearch *search)
{
  g_return_if_fail (WS_IS_GRAPH_SEARCH (self));
  g_return_if_fail (WS_IS_STACK_SEARCH (search));

  if (self->trace == NULL || ws_stack_search_get_trace (search) != self->trace)
    return;
  /* ws_graph_search_refresh() keeps a search whose description is the entry's text. */
  g_set_object (&self->search, search);
  set_entry_text (self, ws_stack_search_get_pattern (search));
  ws_graph_search_refresh (self);
}

/* Forgets the search (a new trace), leaving the entry's text. */
void
ws_graph_search_clear (WsGraphSearch *self)
{
  g_return_if_fail (WS_IS_GRAPH_SEARCH (self));
  g_clear_object (&self->search);
}

/* Returns: (transfer none) (nullable): the search, %NULL if none or invalid */
WsStackSearch *
ws_graph_search_get_search (WsGraphSearch *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_SEARCH (self), NULL);
  return self->search;
}

/* Returns: (transfer none) (nullable) (element-type guint): the matches */
GArray *
ws_graph_search_get_matches (WsGraphSearch *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_SEARCH (self), NULL);
  return self->matches;
}

guint
ws_graph_search_get_n_matches (WsGraphSearch *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_SEARCH (self), 0);
  return self->matches ? self->matches->len : 0;
}

gboolean
ws_graph_search_is_match (WsGraphSearch *self,
                          guint          item)
{
  g_return_val_if_fail (WS_IS_GRAPH_SEARCH (self), FALSE);
  for (guint i = 0; self->matches && i < self->matches->len; i++)
    if (g_array_index (self->matches, guint, i) == item)
      return TRUE;
  return FALSE;
}

/* The text of the "n of m" label. */
const char *
ws_graph_search_get_status (WsGraphSearch *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_SEARCH (self), "");
  return self->status ? self->status : "";
}

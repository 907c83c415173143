/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The chooser every "open traces" action shows (File → Open, and the
 * fleet's traces or folders): many at once, opening where the user's
 * files are, and — for files — one filter for every format the importer
 * registry reads, then one a format, then all files.  A new importer's
 * patterns reach every such chooser from the registry.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-chooser-folder.h"
#include "ws-importer.h"
#include "ws-trace-chooser.h"

/* @importer's file-name patterns, or every importer's when %NULL. */
static void
add_importer_patterns (GtkFileFilter    *filter,
                       const WsImporter *importer)
{
  guint n;
  const WsImporter * const *importers = ws_importers_get (&n);

  for (guint i = 0; i < n; i++)
    if (importer == NULL || importers[i] == importer)
      for (guint k = 0; importers[i]->patterns[k] != NULL; k++)
        gtk_file_filter_add_pattern (filter, importers[i]->patterns[k]);
}

static void
add_filter (GtkFileChooser   *chooser,
            const char       *name,
            const WsImporter *importer,
            const char       *pattern)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, name);
  if (pattern != NULL)
    gtk_file_filter_add_pattern (filter, pattern);
  else
    add_importer_patterns (filter, importer);
  gtk_file_chooser_add_filter (chooser, filter);
  g_object_unref (filter);
}

/**
 * ws_trace_chooser_new:
 * @parent: the window asking
 * @action: %GTK_FILE_CHOOSER_ACTION_OPEN for trace files, or
 *   %GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER for folders of them
 * @title: the dialog's title, translated
 * @accept_label: its accept button's label, translated
 *
 * Returns: (transfer full): a chooser of many traces (or folders), not
 *   yet shown
 */
GtkFileChooserNative *
ws_trace_chooser_new (GtkWindow            *parent,
                      GtkFileChooserAction  action,
                      const char           *title,
                      const char           *accept_label)
{
  GtkFileChooserNative *native = gtk_file_chooser_native_new (title, parent, action, accept_label, _("_Cancel"));
  GtkFileChooser *chooser = GTK_FILE_CHOOSER (native);

  gtk_file_chooser_set_select_multiple (chooser, TRUE);
  ws_chooser_set_start_folder (chooser, GTK_WIDGET (parent));
  if (action == GTK_FILE_CHOOSER_ACTION_OPEN)
    {
      guint n;
      const WsImporter * const *importers = ws_importers_get (&n);

      add_filter (chooser, _("All Traces"), NULL, NULL);
      for (guint i = 0; i < n; i++)
        add_filter (chooser, _(importers[i]->name), importers[i], NULL);
      add_filter (chooser, _("All Files"), NULL, "*");
    }
  return native;
}

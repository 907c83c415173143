/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "ws-application.h"
#include "ws-timing.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(WsApplication) app = NULL;

  ws_timing_start ();
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_set_application_name (_("Waitscope"));

  app = ws_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * A finding's note: plain text with light markup, readable as it is typed.
 * Blank lines separate paragraphs; lines starting with "- " are list
 * items; *emphasis*, **strong** and `code` inside a line.  Anything else is
 * text, escaped, never markup of the output format.
 */
char *ws_report_note_to_html  (const char *note);
char *ws_report_note_to_pango (const char *note);

G_END_DECLS

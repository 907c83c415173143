/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The digest reader's checks, for the fuzz target and the regression
 * replay: a refusal is a WS_ERROR naming the file and a place; a digest
 * that reads writes back canonically (the second writing equals the
 * first) and mines without a fault.
 */
#include "config.h"

#include <string.h>

#include "ws-digest.h"
#include "ws-error.h"
#include "ws-fuzz-harness.h"
#include "ws-mining-run.h"

#define NAME "fuzz-input.wsdigest"

static void
check_digest_refusal (const GError *error)
{
  if (error == NULL)
    ws_fuzz_fail ("a digest was refused without an error");
  if (error->domain != WS_ERROR)
    ws_fuzz_fail ("error from domain %s, not WS_ERROR: %s", g_quark_to_string (error->domain), error->message);
  if (!g_str_has_prefix (error->message, NAME ": ") || strchr (error->message + strlen (NAME) + 2, ':') == NULL)
    ws_fuzz_fail ("error does not start with “%s: PLACE: ”: %s", NAME, error->message);
  if (!g_utf8_validate (error->message, -1, NULL))
    ws_fuzz_fail ("error is not UTF-8");
}

gboolean
ws_fuzz_digest (const guint8 *data,
                gsize         size)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(WsDigest) digest = ws_digest_read_bytes (bytes, NAME, &error);
  g_autoptr(WsDigest) again = NULL;
  g_autoptr(GBytes) first = NULL, second = NULL;
  g_autoptr(WsMiningResult) mined = NULL;
  WsMiningSettings settings;

  if (digest == NULL)
    {
      check_digest_refusal (error);
      return FALSE;
    }
  first = ws_digest_to_bytes (digest);
  if ((again = ws_digest_read_bytes (first, NAME, &error)) == NULL)
    ws_fuzz_fail ("a digest written does not read back: %s", error->message);
  second = ws_digest_to_bytes (again);
  if (!g_bytes_equal (first, second))
    ws_fuzz_fail ("a digest written, read and written again differs");

  ws_mining_settings_init (&settings);
  settings.read_history = settings.record_history = FALSE;
  settings.cluster = TRUE;
  mined = ws_mining_run_digest (digest, &settings, NULL, NULL, NULL, &error);
  if (mined == NULL)
    ws_fuzz_fail ("mining a digest that read failed: %s", error->message);
  return TRUE;
}

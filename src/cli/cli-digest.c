/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli digest -o DIR TRACE…: each trace reduced to a small file
 * holding what mine and cluster need (docs/digest.md), the map step of a
 * fleet; digest-merge -o OUT DIGEST…: digests merged into one, the
 * reduce's partial step.  mine and cluster read digests wherever they
 * read traces (cli_load_digests()).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <errno.h>
#include <glib/gstdio.h>

#include "cli-common.h"
#include "cli-digest.h"
#include "ws-scenario-rules.h"
#include "ws-trace-loader.h"

int cli_digest (int argc, char **argv);
int cli_digest_merge (int argc, char **argv);

/* Whether any of @paths is a digest file. */
gboolean
cli_paths_have_digest (char **paths)
{
  for (guint i = 0; paths[i] != NULL; i++)
    if (ws_digest_file_sniff (paths[i]))
      return TRUE;
  return FALSE;
}

/**
 * cli_rules_text:
 *
 * What a digest records of the scenario rules @rules (cli_build_rules()):
 * each rule's text in the set's order, or %NULL when they are the built-in
 * rules (a digest made without --scenario records none).
 */
GStrv
cli_rules_text (WsScenarioRules *rules)
{
  g_autoptr(WsScenarioRules) builtin = ws_scenario_rules_new_default ();
  g_autoptr(GStrvBuilder) text = g_strv_builder_new ();
  gboolean same = ws_scenario_rules_get_n_rules (rules) == ws_scenario_rules_get_n_rules (builtin);

  for (guint i = 0; i < ws_scenario_rules_get_n_rules (rules); i++)
    {
      g_autofree char *rule = ws_scenario_rules_to_string (rules, i);

      if (same)
        {
          g_autofree char *b = ws_scenario_rules_to_string (builtin, i);

          same = g_str_equal (rule, b);
        }
      g_strv_builder_add (text, rule);
    }
  return same ? NULL : g_strv_builder_end (text);
}

/* A trace reduced in this process, as `digest` would have written it:
 * loaded with @rules (%NULL: the built-in ones), recorded with @options. */
static WsDigest *
reduce_trace (const char            *path,
              WsScenarioRules       *rules,
              const WsDigestOptions *options,
              WsDigestReadFlags      flags,
              guint                  areas,
              GError               **error)
{
  g_autoptr(WsTrace) trace = ws_trace_loader_load_full (path, NULL, rules, NULL, NULL, NULL, error);
  g_autoptr(WsDigest) digest = NULL;

  if (trace == NULL)
    return NULL;
  digest = ws_digest_new ();
  if (!ws_digest_add_trace_with (digest, trace, options, flags, areas, NULL, error))
    return NULL;
  return g_steal_pointer (&digest);
}

/* cli_load_digests_areas(), a trace among digests loaded with @rules and
 * reduced with @rules_text as `digest --scenario` would. */
static WsDigest *
load_digests (char              **paths,
              WsDigestReadFlags   flags,
              guint               areas,
              WsScenarioRules    *rules,
              char              **rules_text,
              GError            **error)
{
  g_autoptr(WsDigest) all = NULL;
  WsDigestOptions options = { (const char * const *) rules_text, NULL };

  /* Traces alone, with the built-in rules: loaded one per core at a time.
   * (A digest made for other rules records them, as reduce_trace() does.) */
  if (rules_text == NULL && !cli_paths_have_digest (paths))
    return ws_digest_load_traces (paths, rules, flags, areas, NULL, error);
  for (guint i = 0; paths[i] != NULL; i++)
    {
      g_autoptr(WsDigest) one = ws_digest_file_sniff (paths[i]) ? ws_digest_read_full (paths[i], flags, error)
                                                                  : reduce_trace (paths[i], rules, &options, flags,
                                                                                  areas, error);
      if (one == NULL)
        return NULL;
      /* A single file (a merged digest, say) is taken as read, not copied. */
      if (all == NULL)
        all = g_steal_pointer (&one);
      else
        ws_digest_merge (all, one);
    }
  return all != NULL ? g_steal_pointer (&all) : ws_digest_new ();
}

/**
 * cli_load_digests:
 * @paths: digest files, or traces (reduced here)
 * @flags: the parts of the digests the run does not need
 *
 * Each file is read as a stream and folded into the result before the
 * next is opened: memory is the result's (distinct stacks, and each
 * trace's entries) plus one file's, whatever the number of files.  Traces
 * alone are loaded and reduced one per core at a time
 * (ws_digest_load_traces()), each freed once reduced.
 *
 * Returns: (transfer full): their traces in the order given, or %NULL
 *   with @error set at the first that fails
 */
WsDigest *
cli_load_digests (char              **paths,
                  WsDigestReadFlags   flags,
                  GError            **error)
{
  return cli_load_digests_areas (paths, flags, WS_DIGEST_ALL_AREAS, error);
}

/**
 * cli_load_digests_areas:
 * @areas: the areas of a digest to reduce the traces to (the digest files'
 *   are read whole)
 *
 * cli_load_digests() for a run that mines only @areas.
 */
WsDigest *
cli_load_digests_areas (char              **paths,
                        WsDigestReadFlags   flags,
                        guint               areas,
                        GError            **error)
{
  return load_digests (paths, flags, areas, NULL, NULL, error);
}

/**
 * cli_load_digests_with_rules:
 * @rules: (nullable): the scenario rules the traces among @paths are
 *   loaded with (%NULL: the built-in ones)
 * @rules_text: (nullable): cli_rules_text() of @rules
 *
 * cli_load_digests(), a trace among the digests reduced as `digest` with
 * those rules would have: contrast's rules then apply to it as to them.
 */
WsDigest *
cli_load_digests_with_rules (char              **paths,
                             WsDigestReadFlags   flags,
                             WsScenarioRules    *rules,
                             char              **rules_text,
                             GError            **error)
{
  return load_digests (paths, flags, WS_DIGEST_ALL_AREAS, rules, rules_text, error);
}

/* DIR/NAME.wsdigest, NAME the trace's file name; "-2", "-3"… after it
 * when two traces of this run share a name. */
static char *
output_path (const char *dir,
             const char *trace,
             GHashTable *taken)
{
  g_autofree char *base = g_path_get_basename (trace);
  char *path = NULL;

  for (guint n = 1; path == NULL || g_hash_table_contains (taken, path); n++)
    {
      g_autofree char *name = n == 1 ? g_strdup_printf ("%s.wsdigest", base)
                                     : g_strdup_printf ("%s-%u.wsdigest", base, n);
      g_free (path);
      path = g_build_filename (dir, name, NULL);
    }
  g_hash_table_add (taken, g_strdup (path));
  return path;
}

int
cli_digest (int    argc,
            char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GHashTable) taken = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(WsScenarioRules) rules = NULL;
  g_auto(GStrv) specs = NULL, programs = NULL, rules_text = NULL;
  g_autofree char *dir = NULL, *rules_file = NULL;
  WsDigestOptions options = { NULL };
  guint n_failed = 0;
  int status;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &dir, N_("Write the digests into DIR (created if missing)"), N_("DIR") },
    { "scenario", 0, 0, G_OPTION_ARG_STRING_ARRAY, &specs,
      N_("A scenario rule: begin and end events on one thread"), N_("NAME=BEGIN,END") },
    { "scenario-file", 0, 0, G_OPTION_ARG_FILENAME, &rules_file,
      N_("Scenario rules from a key file ([scenario NAME] begin= end=)"), N_("FILE") },
    { "program", 0, 0, G_OPTION_ARG_STRING_ARRAY, &programs,
      N_("Keep the thread spans of this program too (besides the two the thread picker ranks first)"), N_("NAME") },
    { NULL }
  };

  context = g_option_context_new (_("TRACE… — reduce traces to digests for mining many traces"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_description (context,
    _("Writes DIR/NAME.wsdigest per trace: its interned stacks with their costs (waits that delayed another "
      "thread, every wait, running samples, causes), its threads, its content hash and recording facts.  "
      "mine, cluster and history add read digests as they read traces, with the same results; digest-merge "
      "merges them.  A trace that cannot be read is named on stderr and the exit status is 1.  "
      "For contrast, a digest keeps the scenario instances the rules find (--scenario and --scenario-file, "
      "as contrast takes them; contrast over the digests then needs the same rules) and the thread spans "
      "of the two programs the thread picker ranks first, and of each --program."));
  if (!cli_parse_options (context, "digest", &argc, &argv, &status))
    return status;
  if (dir == NULL)
    return cli_usage_error ("digest", "%s", _("no output directory given (-o DIR)"));
  if (argc < 2)
    return cli_usage_error ("digest", "%s", _("no trace given"));
  for (guint i = 0; programs != NULL && programs[i] != NULL; i++)
    if (programs[i][0] == '\0' || !g_utf8_validate (programs[i], -1, NULL))
      return cli_usage_error ("digest", "%s", _("--program takes a program's name"));
  if ((rules = cli_build_rules (specs, rules_file, "digest", &status)) == NULL)
    return status;
  rules_text = cli_rules_text (rules);
  options.scenario_rules = (const char * const *) rules_text;
  options.programs = (const char * const *) programs;
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      fprintf (stderr, _("waitscope-cli: cannot create %s: %s\n"), dir, g_strerror (errno));
      return CLI_EXIT_INPUT;
    }

  /* One trace at a time: memory is the largest trace's, not the sum. */
  for (int i = 1; i < argc; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(WsDigest) digest = reduce_trace (argv[i], rules, &options, WS_DIGEST_READ_ALL, WS_DIGEST_ALL_AREAS,
                                                 &error);
      g_autofree char *out = output_path (dir, argv[i], taken);

      if (digest == NULL || !ws_digest_write (digest, out, &error))
        {
          /* The loader's and the writer's errors name the file. */
          fprintf (stderr, "waitscope-cli: %s\n", error->message);
          n_failed++;
          continue;
        }
      printf ("%s\n", out);
    }
  return n_failed > 0 ? CLI_EXIT_INPUT : CLI_EXIT_OK;
}

/* %FALSE at the first trace of @one, read from @file, whose content a
 * digest read before (@seen: content hash → the first trace holding it,
 * @from: that trace → its file) or an earlier trace of @one holds, made
 * for other things (ws_digest_check_made_alike()). */
static gboolean
check_made_alike (WsDigest    *one,
                  const char  *file,
                  GHashTable  *seen,
                  GHashTable  *from,
                  GError     **error)
{
  g_autoptr(GHashTable) here = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint t = 0; t < ws_digest_get_n_traces (one); t++)
    {
      const WsDigestTrace *trace = ws_digest_get_trace (one, t);
      const WsDigestTrace *before = g_hash_table_lookup (seen, trace->content_hash);
      const WsDigestTrace *earlier = g_hash_table_lookup (here, trace->content_hash);

      if (before != NULL && !ws_digest_check_made_alike (before, g_hash_table_lookup (from, before), trace, file, error))
        return FALSE;
      if (earlier != NULL && !ws_digest_check_made_alike (earlier, file, trace, file, error))
        return FALSE;
      if (earlier == NULL)
        g_hash_table_insert (here, trace->content_hash, (gpointer) trace);
    }
  return TRUE;
}

/* Registers the traces @all gained from @file (from @from_index on). */
static void
remember (WsDigest    *all,
          guint        from_index,
          const char  *file,
          GHashTable  *seen,
          GHashTable  *from)
{
  for (guint t = from_index; t < ws_digest_get_n_traces (all); t++)
    {
      const WsDigestTrace *trace = ws_digest_get_trace (all, t);

      if (!g_hash_table_contains (seen, trace->content_hash))
        {
          g_hash_table_insert (seen, trace->content_hash, (gpointer) trace);
          g_hash_table_insert (from, (gpointer) trace, (gpointer) file);
        }
    }
}

/* cli_load_digests() over digests alone, refusing two digests of one
 * trace made for different things: a merge keeps one of them, and the
 * fleet would then hold instances found by other rules than the rest.
 * The same trace digested alike merges as before: the same path once,
 * another path as a trace of its own (ws_digest_merge()). */
static WsDigest *
merge_digests (char    **paths,
               GError  **error)
{
  g_autoptr(WsDigest) all = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) from = g_hash_table_new (NULL, NULL);

  for (guint i = 0; paths[i] != NULL; i++)
    {
      g_autoptr(WsDigest) one = ws_digest_read_full (paths[i], WS_DIGEST_READ_ALL, error);
      guint before = all != NULL ? ws_digest_get_n_traces (all) : 0;

      if (one == NULL || !check_made_alike (one, paths[i], seen, from, error))
        return NULL;
      /* The first is taken as read, not copied (as cli_load_digests() does). */
      if (all == NULL)
        all = g_steal_pointer (&one);
      else
        ws_digest_merge (all, one);
      remember (all, before, paths[i], seen, from);
    }
  return all != NULL ? g_steal_pointer (&all) : ws_digest_new ();
}

int
cli_digest_merge (int    argc,
                  char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(WsDigest) merged = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  int status, level = WS_DIGEST_MERGE_GZIP_LEVEL;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, N_("Write the merged digest to FILE (.wsdigest)"), N_("FILE") },
    { "level", 0, 0, G_OPTION_ARG_INT, &level,
      N_("Compress the merged digest at gzip level N: 1, the default, is the fastest; 9 the smallest"), N_("N") },
    { NULL }
  };

  context = g_option_context_new (_("DIGEST… — merge digests into one"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_description (context,
    _("The merged digest holds every trace of its inputs, over one table of frames and stacks, in a canonical "
      "order (traces by path): merging is associative and independent of the order, so partial merges "
      "combine.  Mining it is mining its traces in that order.  Two digests of one trace (the same content) "
      "made with different --scenario, --scenario-file or --program are refused, naming both files."));
  if (!cli_parse_options (context, "digest-merge", &argc, &argv, &status))
    return status;
  if (out == NULL)
    return cli_usage_error ("digest-merge", "%s", _("no output file given (-o FILE)"));
  if (!ws_digest_file_sniff (out))
    return cli_usage_error ("digest-merge", "%s", _("the output file's name must end in .wsdigest"));
  if (level < 1 || level > 9)
    return cli_usage_error ("digest-merge", "%s", _("--level takes a gzip level from 1 to 9"));
  if (argc < 2)
    return cli_usage_error ("digest-merge", "%s", _("no digest given"));
  for (int i = 1; i < argc; i++)
    if (!ws_digest_file_sniff (argv[i]))
      return cli_usage_error ("digest-merge", _("“%s” is not a digest (.wsdigest)"), argv[i]);
  if ((merged = merge_digests (argv + 1, &error)) == NULL || !ws_digest_write_level (merged, out, level, &error))
    return cli_fail (error);
  return CLI_EXIT_OK;
}

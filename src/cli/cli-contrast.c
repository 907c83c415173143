/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli contrast: the causality analysis of the cost-propagation
 * paper (§4.2): contrast patterns between fast and slow instances of a
 * scenario, ranked by total cost P.C (or, --rank=average, by P.C/P.N as the
 * paper does), with ITC, TTC and the top-n % coverage.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "cli-classes.h"
#include "cli-digest.h"
#include "ws-contrast-words.h"
#include "ws-fleet-classes.h"
#include "ws-trace-classes.h"
#include "cli-common.h"
#include "cli-contrast-common.h"
#include "ws-contrast.h"
#include "ws-contrast-export.h"
#include "ws-error.h"

static void
print_json (WsContrastResult *r, const char *scenario, const char *component, guint top)
{
  g_autoptr(JsonNode) root = ws_contrast_export_json (r, scenario, component, top);

  cli_print_json_node (root);
}

static void
print_set (WsSignatures *sigs, const char *label, const WsSigId *v, guint n)
{
  printf ("        %-8s {", label);
  for (guint i = 0; i < n; i++)
    printf ("%s%s", i ? ", " : "", ws_signatures_get_name (sigs, v[i]));
  printf ("}\n");
}

static void
print_header (WsContrastResult *r, const char *scenario, const char *component)
{
  g_autofree char *tf = cli_format_duration (ws_contrast_result_get_t_fast (r));
  g_autofree char *ts = cli_format_duration (ws_contrast_result_get_t_slow (r));
  g_autofree char *total = cli_format_duration (ws_contrast_result_get_total_cost (r));
  guint nf = ws_instance_set_get_n (ws_contrast_result_get_fast (r));
  guint ns = ws_instance_set_get_n (ws_contrast_result_get_slow (r));
  guint mf, ms, mc;
  /* Translators: the sizes of the two classes; the noun goes with the slow count */
  g_autofree char *classes = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "fast %u, slow %u instance",
                                                           "fast %u, slow %u instances", ns), nf, ns);

  printf (_("Contrast of scenario “%s”, component “%s”\n"), scenario, component);
  {
    /* the Contrast page's sentence, from the same core function */
    g_autofree char *summary = ws_contrast_result_dup_summary (r, ws_contrast_result_get_by_class (r));
    printf ("%s\n", summary);
  }
  if (ws_contrast_result_get_by_class (r)
      && !ws_trace_classes_span_thresholds_are_medians (ws_contrast_result_get_t_fast (r),
                                                        ws_contrast_result_get_t_slow (r)))
    /* Translators: classes of whole traces given without latencies */
    printf (_("Classes by trace (no latencies given): %s\n"), classes);
  else if (ws_contrast_result_get_by_class (r))
    {
      g_autofree char *fast = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "fast %u instance (median %s)",
                                                            "fast %u instances (median %s)", nf), nf, tf);
      g_autofree char *slow = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "slow %u instance (median %s)",
                                                            "slow %u instances (median %s)", ns), ns, ts);

      /* Translators: %s are "fast 3 instances (median 1.2 ms)" and the slow one */
      printf (_("Classes by trace: %s, %s\n"), fast, slow);
    }
  else if (ws_contrast_result_get_thresholds_proposed (r))
    printf (_("Thresholds proposed from the durations (give --fast-below/--slow-above to choose): "
              "T_fast = %s (median), T_slow = %s (90th percentile); %s\n"), tf, ts, classes);
  else
    printf (_("T_fast = %s, T_slow = %s; %s\n"), tf, ts, classes);
  ws_contrast_result_get_meta_counts (r, &mf, &ms, &mc);
  printf (_("Meta-patterns (k = %u): fast %u, slow %u, contrast %u\n"), ws_contrast_result_get_k (r), mf, ms, mc);
  printf (g_dngettext (GETTEXT_PACKAGE, "%u contrast pattern; ITC %.1f %%, TTC %.1f %% of the slow class's component cost %s\n",
                       "%u contrast patterns; ITC %.1f %%, TTC %.1f %% of the slow class's component cost %s\n",
                       ws_contrast_result_get_n_patterns (r)),
          ws_contrast_result_get_n_patterns (r), 100 * ws_contrast_result_get_itc (r),
          100 * ws_contrast_result_get_ttc (r), total);
  printf (ws_contrast_result_get_rank (r) == WS_CONTRAST_RANK_AVERAGE
          ? _("Ranked by average cost C/N; coverage of the top 10 %% / 20 %% / 30 %% of patterns: %.1f %% / %.1f %% / %.1f %%\n\n")
          : _("Ranked by total cost C; coverage of the top 10 %% / 20 %% / 30 %% of patterns: %.1f %% / %.1f %% / %.1f %%\n\n"),
          100 * ws_contrast_result_get_coverage (r, 10), 100 * ws_contrast_result_get_coverage (r, 20),
          100 * ws_contrast_result_get_coverage (r, 30));
}

static void
print_text (WsContrastResult *r, const char *scenario, const char *component, guint top)
{
  WsSignatures *sigs = ws_contrast_result_get_signatures (r);
  guint n = ws_contrast_result_get_n_patterns (r);

  print_header (r, scenario, component);
  printf ("  %4s %12s %12s %8s %5s  %s\n", _("RANK"), _("C/N"), _("C"), _("N"), _("HIGH"), _("PATTERN"));
  for (guint i = 0; i < MIN (n, top); i++)
    {
      const WsContrastPattern *p = ws_contrast_result_get_pattern (r, i);
      g_autofree char *cn = cli_format_duration (p->n ? p->c / (gint64) p->n : 0);
      g_autofree char *c = cli_format_duration (p->c);

      printf ("  %4u %12s %12s %8" G_GUINT64_FORMAT " %5s\n", i + 1, cn, c, p->n, p->high_impact ? _("yes") : _("no"));
      print_set (sigs, _("wait"), p->w, p->n_w);
      print_set (sigs, _("unwait"), p->u, p->n_u);
      print_set (sigs, _("running"), p->r, p->n_r);
    }
}

typedef struct {
  CliClasses classes;
  char      *fast_below;
  char      *slow_above;
  char      *rank;
  int        k;
  int        top;
} ContrastArgs;

/* The usage checks, and T_fast / T_slow into @s: -1, or the exit status.
 * With classes, positional inputs may only be digests: the traces the
 * classes name are looked up in them. */
static int
check_args (ContrastArgs *a, char **positional, WsContrastSettings *s)
{
  g_autoptr(GError) error = NULL;
  gboolean by_trace = cli_classes_given (&a->classes);

  for (guint i = 0; by_trace && positional[i] != NULL; i++)
    if (!ws_digest_file_sniff (positional[i]))
      return cli_usage_error ("contrast", "%s", _("with --fast, --slow or --classes give no other trace "
                                                  "(only digests that hold the traces they name)"));
  if (by_trace && a->classes.file == NULL && (a->classes.fast == NULL || a->classes.slow == NULL))
    return cli_usage_error ("contrast", "%s", _("give both --fast and --slow traces, and no other trace"));
  if (!by_trace && positional[0] == NULL)
    return cli_usage_error ("contrast", "%s", _("no trace given"));
  if ((a->fast_below && !cli_parse_time (a->fast_below, &s->t_fast, &error))
      || (a->slow_above && !cli_parse_time (a->slow_above, &s->t_slow, &error)))
    return cli_usage_error ("contrast", "%s", error->message);
  if (a->rank != NULL && !ws_contrast_rank_from_string (a->rank, &s->rank))
    return cli_usage_error ("contrast", _("unknown --rank “%s”: total or average"), a->rank);
  return -1;
}

/* The instances to contrast: the classes' or the chosen scenario's. */
typedef struct {
  WsFleetClasses fleet;
  WsInstanceSet *all;
} Instances;

static void
instances_clear (Instances *in)
{
  ws_fleet_classes_clear (&in->fleet);
  g_clear_object (&in->all);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Instances, instances_clear)

static int
instances_of_traces (ContrastArgs *a, CliContrastOptions *o, char **paths, Instances *out)
{
  g_autoptr(GPtrArray) traces = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  if (!cli_contrast_load (paths, o, "contrast", &traces, &status))
    return status;
  if (o->scenario_name == NULL && !cli_classes_given (&a->classes))
    return cli_usage_error ("contrast", "%s", _("the traces hold no scenario instance (see --scenario): give slow and "
                                                "fast traces (--slow, --fast or --classes) to contrast whole traces"));
  if (cli_classes_given (&a->classes))
    {
      /* The same core call as the Contrast page's "open traces, slow
       * against fast". */
      if (!ws_fleet_classes_build (&out->fleet, traces, (const WsRunClass *) (gpointer) a->classes.classes->data,
                                   a->classes.entries, o->scenario_name, &error))
        return cli_usage_error ("contrast", "%s", error->message);
      out->all = g_object_ref (out->fleet.all);
      return -1;
    }
  out->all = ws_instance_set_new ();
  for (guint i = 0; i < traces->len; i++)
    ws_instance_set_add_trace (out->all, g_ptr_array_index (traces, i), o->scenario_name);
  return -1;
}

/* The digest of the traces @paths name (past the @n_positional digests),
 * taken from those digests, in @paths' order. */
static WsDigest *
select_named (char **paths, guint n_positional, WsScenarioRules *rules, char **rules_text, GError **error)
{
  g_auto(GStrv) digests = g_new0 (char *, n_positional + 1);
  g_autoptr(WsDigest) pool = NULL;
  g_autoptr(GArray) picked = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GHashTable) held = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  /* The positional digests alone (not a copy cut short with a NULL: the
   * strings after it would never be freed). */
  for (guint i = 0; i < n_positional; i++)
    digests[i] = g_strdup (paths[i]);
  if ((pool = cli_load_digests_with_rules (digests, WS_DIGEST_READ_SKIP_WAIT_SAMPLES, rules, rules_text, error)) == NULL)
    return NULL;
  /* Each path canonicalized once, looked up by hash: comparing every named
   * trace with every held one cost N²/2 canonicalizations (a third of a
   * fleet contrast's CPU at 4,000 traces, and growing with N).  The first
   * trace holding a path wins, as the scan in trace order did. */
  for (guint t = 0; t < ws_digest_get_n_traces (pool); t++)
    {
      char *have = g_canonicalize_filename (ws_digest_get_trace (pool, t)->path, NULL);

      if (g_hash_table_contains (held, have))
        g_free (have);
      else
        g_hash_table_insert (held, have, GUINT_TO_POINTER (t + 1));
    }
  for (guint i = n_positional; paths[i] != NULL; i++)
    {
      g_autofree char *want = g_canonicalize_filename (paths[i], NULL);
      guint found = GPOINTER_TO_UINT (g_hash_table_lookup (held, want));

      if (found-- == 0)
        {
          /* Translators: a trace the classes name */
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("%s: no digest given holds this trace"), paths[i]);
          return NULL;
        }
      g_array_append_val (picked, found);
    }
  return ws_digest_take_selected (pool, (const guint *) (gpointer) picked->data, picked->len);
}

/* The same instances from digests (traces among them reduced here). */
static int
instances_of_digests (ContrastArgs *a, CliContrastOptions *o, char **paths, char **positional, Instances *out)
{
  g_autoptr(WsDigest) digest = NULL;
  g_autoptr(GError) error = NULL;
  gboolean by_trace = cli_classes_given (&a->classes);
  guint n_positional = g_strv_length (positional);
  g_autoptr(WsScenarioRules) rules = NULL;
  g_auto(GStrv) rules_text = NULL;
  int status;

  /* A digest keeps the scenario instances of the rules it was made with:
   * the same rules, checked below, give the traces' instances. */
  if ((rules = cli_build_rules (o->rule_specs, o->rules_file, "contrast", &status)) == NULL)
    return status;
  rules_text = cli_rules_text (rules);
  digest = by_trace && n_positional > 0
           ? select_named (paths, n_positional, rules, rules_text, &error)
           : cli_load_digests_with_rules (paths, WS_DIGEST_READ_SKIP_WAIT_SAMPLES, rules, rules_text, &error);
  if (digest == NULL)
    return g_error_matches (error, WS_ERROR, WS_ERROR_INVALID) ? cli_usage_error ("contrast", "%s", error->message)
                                                               : cli_fail (error);
  if (by_trace && n_positional == 0 && ws_digest_get_n_traces (digest) != g_strv_length (paths))
    return cli_usage_error ("contrast", "%s", _("--slow, --fast and --classes take digests of one trace each "
                                                "(or name the traces and give the digests that hold them)"));
  if (!ws_digest_check_instances (digest, &error)
      || !ws_digest_check_rules (digest, (const char * const *) rules_text, &error))
    return cli_usage_error ("contrast", "%s", error->message);
  {
    g_auto(GStrv) names = ws_digest_list_scenarios (digest);

    if (!cli_contrast_choose_scenario (names, o, "contrast", &status))
      return status;
  }
  if (o->scenario_name == NULL && !by_trace)
    return cli_usage_error ("contrast", "%s", _("the traces hold no scenario instance (see --scenario): give slow and "
                                                "fast traces (--slow, --fast or --classes) to contrast whole traces"));
  if (by_trace)
    {
      const WsRunClass *classes = (const WsRunClass *) (gpointer) a->classes.classes->data;

      if (!ws_digest_fleet_classes_build (&out->fleet, digest, classes + n_positional, a->classes.entries,
                                          o->scenario_name, &error))
        return cli_usage_error ("contrast", "%s", error->message);
      out->all = g_object_ref (out->fleet.all);
      return -1;
    }
  out->all = ws_instance_set_new ();
  for (guint i = 0; i < ws_digest_get_n_traces (digest); i++)
    if (!ws_digest_add_instances (digest, i, o->scenario_name, NULL, out->all, &error))
      return cli_usage_error ("contrast", "%s", error->message);
  return -1;
}

static int
run (ContrastArgs *a, CliContrastOptions *o, char **positional)
{
  g_auto(Instances) in = { 0 };
  g_autoptr(WsContrastResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) paths = NULL;
  g_autofree char *component = NULL, *scenario_shown = NULL;
  WsContrastSettings s = { 0 };
  gboolean by_trace = cli_classes_given (&a->classes);
  int status;

  if ((status = check_args (a, positional, &s)) >= 0)
    return status;
  if ((paths = cli_classes_paths ("contrast", &a->classes, positional, &status)) == NULL)
    return status;
  o->fleet = TRUE;
  status = cli_paths_have_digest (paths) ? instances_of_digests (a, o, paths, positional, &in)
                                         : instances_of_traces (a, o, paths, &in);
  if (status >= 0)
    return status;
  if (by_trace)
    {
      if (o->scenario_name == NULL && s.t_fast <= 0 && s.t_slow <= 0)
        {
          s.t_fast = in.fleet.t_fast;
          s.t_slow = in.fleet.t_slow;
        }
      s.fast = in.fleet.fast;
      s.slow = in.fleet.slow;
    }
  else
    s.instances = in.all;
  /* Without --component, the program of interest, as the Overview's. */
  component = o->components != NULL && o->components[0] != NULL ? g_strdup (o->components[0])
              : ws_instance_set_dup_default_component (in.all);
  if (component == NULL)
    return cli_usage_error ("contrast", "%s", _("no instance to contrast"));
  s.component = component;
  s.widen = o->widen;
  s.k = a->k > 0 ? (guint) a->k : WS_CONTRAST_DEFAULT_K;
  scenario_shown = o->scenario_name != NULL ? g_strdup (o->scenario_name)
                   /* Translators: what the instances are when the traces have no scenarios */
                   : g_strdup_printf (_("threads of %s, each from its first to its last event"), in.fleet.program);

  if ((result = ws_contrast_run (&s, NULL, NULL, NULL, &error)) == NULL)
    {
      if (g_error_matches (error, WS_ERROR, WS_ERROR_INVALID))
        return cli_usage_error ("contrast", "%s", error->message);
      return cli_fail (error);
    }
  if (o->json)
    print_json (result, scenario_shown, s.component, (guint) MAX (a->top, 0));
  else
    print_text (result, scenario_shown, s.component, (guint) MAX (a->top, 0));
  return CLI_EXIT_OK;
}

int
cli_contrast (int    argc,
              char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_auto(CliContrastOptions) o = { 0 };
  ContrastArgs a = { .k = WS_CONTRAST_DEFAULT_K, .top = 10 };
  int status, ret;
  const GOptionEntry entries[] = {
    { "fast-below", 0, 0, G_OPTION_ARG_STRING, &a.fast_below, N_("T_fast: instances lasting at most this are fast"), N_("TIME") },
    { "slow-above", 0, 0, G_OPTION_ARG_STRING, &a.slow_above, N_("T_slow: instances lasting at least this are slow"), N_("TIME") },
    { "k", 'k', 0, G_OPTION_ARG_INT, &a.k, N_("Longest path segment of a meta-pattern (default 5)"), N_("K") },
    { "top", 0, 0, G_OPTION_ARG_INT, &a.top, N_("Patterns shown (default 10)"), N_("N") },
    { "rank", 0, 0, G_OPTION_ARG_STRING, &a.rank, N_("Rank patterns by total cost C (total, the default) or by average cost C/N (average, as the paper)"), N_("total|average") },
    { NULL }
  };

  context = g_option_context_new (_("TRACE… — contrast patterns between fast and slow scenario instances"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  cli_contrast_add_options (context, &o);
  cli_classes_add_entries (g_option_context_get_main_group (context), &a.classes);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_description (context,
    _("Without thresholds, T_fast is the median and T_slow the 90th percentile of the durations. "
      "With --fast/--slow (or --classes) the classes are whole traces and the thresholds their medians; "
      "traces without scenario instances are contrasted thread by thread: each thread of the program "
      "of interest (the one `why` explains), from its first to its last event, is an instance.  "
      "Without --component, the component is that program (with scenarios: the slowest instance's)."));
  if (!cli_parse_options (context, "contrast", &argc, &argv, &status))
    return status;
  if (a.k < 1 || a.k > 16)
    return cli_usage_error ("contrast", "%s", _("-k must be between 1 and 16"));
  ret = run (&a, &o, argv + 1);
  cli_classes_clear (&a.classes);
  g_free (a.fast_below);
  g_free (a.slow_above);
  g_free (a.rank);
  return ret;
}

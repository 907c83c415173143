/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * WsScenarioRules: named begin/end marker rules, from built-in defaults,
 * command-line strings ("NAME=BEGIN,END[,END…]") or a key file, applied to
 * finished traces with ws_trace_add_scenario_instances_full().
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ws-error.h"
#include "ws-key-file.h"
#include "ws-scenario-rules.h"

typedef struct {
  char  *name;
  char  *begin;
  char **ends;   /* NULL-terminated */
} Rule;

struct _WsScenarioRules
{
  GObject  parent_instance;
  GArray  *rules;   /* Rule */
};

G_DEFINE_FINAL_TYPE (WsScenarioRules, ws_scenario_rules, G_TYPE_OBJECT)

static void
rule_clear (gpointer data)
{
  Rule *rule = data;

  g_free (rule->name);
  g_free (rule->begin);
  g_strfreev (rule->ends);
}

static void
ws_scenario_rules_finalize (GObject *object)
{
  WsScenarioRules *self = WS_SCENARIO_RULES (object);

  g_array_unref (self->rules);

  G_OBJECT_CLASS (ws_scenario_rules_parent_class)->finalize (object);
}

static void
ws_scenario_rules_class_init (WsScenarioRulesClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_scenario_rules_finalize;
}

static void
ws_scenario_rules_init (WsScenarioRules *self)
{
  self->rules = g_array_new (FALSE, TRUE, sizeof (Rule));
  g_array_set_clear_func (self->rules, rule_clear);
}

/**
 * ws_scenario_rules_new:
 *
 * Returns: (transfer full): an empty rule set
 */
WsScenarioRules *
ws_scenario_rules_new (void)
{
  return g_object_new (WS_TYPE_SCENARIO_RULES, NULL);
}

/**
 * ws_scenario_rules_new_default:
 *
 * Returns: (transfer full): the built-in rules: PostgreSQL transactions
 *   from the `sdt_postgresql` USDT probes, ended by commit or abort
 */
WsScenarioRules *
ws_scenario_rules_new_default (void)
{
  static const char * const tx_ends[] = {
    "sdt_postgresql:transaction__commit",
    "sdt_postgresql:transaction__abort",
    NULL,
  };
  WsScenarioRules *self = ws_scenario_rules_new ();

  ws_scenario_rules_add (self, "transaction", "sdt_postgresql:transaction__start", tx_ends, NULL);
  return self;
}

/* Also what ws_scenario_rules_to_string() can print and read back: the
 * string form strips spaces around the name. */
static gboolean
valid_scenario_name (const char *name)
{
  return name != NULL && *name != '\0' && strchr (name, '=') == NULL && g_utf8_validate (name, -1, NULL)
         && !g_ascii_isspace (name[0]) && !g_ascii_isspace (name[strlen (name) - 1]);
}

static gboolean
valid_event_name (const char *name)
{
  /* Commas separate names in rule strings, semicolons in key files. */
  return name != NULL && *name != '\0' && strpbrk (name, ",;= \t\n") == NULL
         && g_utf8_validate (name, -1, NULL);
}

/**
 * ws_scenario_rules_add:
 * @name: the scenario's name
 * @begin: the marker event that opens an instance
 * @ends: (array zero-terminated=1): marker events that close it (at least
 *   one, at most %WS_SCENARIO_RULES_MAX_ENDS)
 *
 * Adds a rule, or replaces the rule of the same name (so a user rule
 * overrides a built-in one).
 */
gboolean
ws_scenario_rules_add (WsScenarioRules    *self,
                       const char         *name,
                       const char         *begin,
                       const char * const *ends,
                       GError            **error)
{
  Rule rule;
  guint n_ends;

  g_return_val_if_fail (WS_IS_SCENARIO_RULES (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!valid_scenario_name (name))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   _("invalid scenario name “%s”"), name ? name : "");
      ws_error_make_valid (error);
      return FALSE;
    }
  if (!valid_event_name (begin))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   _("scenario “%s”: invalid begin event “%s”"), name, begin ? begin : "");
      ws_error_make_valid (error);
      return FALSE;
    }
  n_ends = ends ? g_strv_length ((char **) ends) : 0;
  if (n_ends == 0 || n_ends > WS_SCENARIO_RULES_MAX_ENDS)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   _("scenario “%s”: give between 1 and %d end events"), name, WS_SCENARIO_RULES_MAX_ENDS);
      ws_error_make_valid (error);
      return FALSE;
    }
  for (guint k = 0; k < n_ends; k++)
    if (!valid_event_name (ends[k]))
      {
        g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                     _("scenario “%s”: invalid end event “%s”"), name, ends[k]);
        ws_error_make_valid (error);
        return FALSE;
      }

  rule.name = g_strdup (name);
  rule.begin = g_strdup (begin);
  rule.ends = g_strdupv ((char **) ends);

  for (guint i = 0; i < self->rules->len; i++)
    if (strcmp (g_array_index (self->rules, Rule, i).name, name) == 0)
      {
        rule_clear (&g_array_index (self->rules, Rule, i));
        g_array_index (self->rules, Rule, i) = rule;
        return TRUE;
      }

  g_array_append_val (self->rules, rule);
  return TRUE;
}

/**
 * ws_scenario_rules_add_from_string:
 * @spec: "NAME=BEGIN,END[,END…]", as given to `waitscope-cli --scenario`
 */
gboolean
ws_scenario_rules_add_from_string (WsScenarioRules *self,
                                   const char      *spec,
                                   GError         **error)
{
  g_auto(GStrv) events = NULL;
  g_autofree char *name = NULL;
  const char *eq;

  g_return_val_if_fail (WS_IS_SCENARIO_RULES (self), FALSE);
  g_return_val_if_fail (spec != NULL, FALSE);

  eq = strchr (spec, '=');
  if (eq == NULL || eq == spec)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   _("invalid scenario rule “%s”: expected NAME=BEGIN,END"), spec);
      ws_error_make_valid (error);
      return FALSE;
    }
  name = g_strndup (spec, eq - spec);
  events = g_strsplit (eq + 1, ",", -1);
  for (guint k = 0; events[k] != NULL; k++)
    g_strstrip (events[k]);
  if (g_strv_length (events) < 2)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   _("invalid scenario rule “%s”: expected NAME=BEGIN,END"), spec);
      ws_error_make_valid (error);
      return FALSE;
    }

  return ws_scenario_rules_add (self, g_strstrip (name), events[0],
                                (const char * const *) events + 1, error);
}

/*
 * The work of ws_scenario_rules_load_key_file(); on error *@bad_group and
 * *@bad_key (%NULL: the group header) say where, for the line number.
 */
static gboolean
load_key_file (WsScenarioRules  *self,
               GKeyFile         *key_file,
               char            **bad_group,
               const char      **bad_key,
               GError          **error)
{
  g_auto(GStrv) groups = g_key_file_get_groups (key_file, NULL);

  for (guint i = 0; groups[i] != NULL; i++)
    {
      g_autofree char *begin = NULL;
      g_auto(GStrv) ends = NULL;
      g_autoptr(GError) local_error = NULL;
      g_autofree char *name = NULL;

      if (!g_str_has_prefix (groups[i], "scenario "))
        continue;
      /* "[scenario  request ]" names "request", as --scenario does. */
      name = g_strstrip (g_strdup (groups[i] + strlen ("scenario ")));
      *bad_group = g_strdup (groups[i]);

      /* GKeyFile may return part of a value with an error (a bad escape
       * sequence): the error decides. */
      *bad_key = "begin";
      begin = g_key_file_get_string (key_file, groups[i], "begin", &local_error);
      if (local_error == NULL)
        {
          *bad_key = "end";
          ends = g_key_file_get_string_list (key_file, groups[i], "end", NULL, &local_error);
        }
      if (local_error != NULL || begin == NULL || ends == NULL)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_MISSING_FIELD,
                       _("scenario “%s”: %s"), name,
                       local_error ? local_error->message : _("no value"));
          ws_error_make_valid (error);
          return FALSE;
        }
      for (guint k = 0; ends[k] != NULL; k++)
        g_strstrip (ends[k]);
      g_strstrip (begin);
      if (!ws_scenario_rules_add (self, name, begin, (const char * const *) ends, error))
        {
          *bad_key = !valid_scenario_name (name) ? NULL : !valid_event_name (begin) ? "begin" : "end";
          return FALSE;
        }
      g_clear_pointer (bad_group, g_free);
    }

  *bad_key = NULL;
  return TRUE;
}

/**
 * ws_scenario_rules_load_key_file:
 *
 * Reads groups named `[scenario NAME]` with keys `begin=EVENT` and
 * `end=EVENT[;EVENT…]`; other groups are left alone (the file may hold
 * other settings).
 */
gboolean
ws_scenario_rules_load_key_file (WsScenarioRules *self,
                                 GKeyFile        *key_file,
                                 GError         **error)
{
  g_autofree char *bad_group = NULL;
  const char *bad_key = NULL;

  g_return_val_if_fail (WS_IS_SCENARIO_RULES (self), FALSE);
  g_return_val_if_fail (key_file != NULL, FALSE);

  return load_key_file (self, key_file, &bad_group, &bad_key, error);
}

/**
 * ws_scenario_rules_load_file:
 *
 * ws_scenario_rules_load_key_file() on the key file @path; error messages
 * start with "PATH:LINE: " (just "PATH: " if it cannot be read).
 */
gboolean
ws_scenario_rules_load_file (WsScenarioRules *self,
                             const char      *path,
                             GError         **error)
{
  g_autoptr(GKeyFile) key_file = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *bad_group = NULL;
  const char *bad_key = NULL;
  gsize length = 0;

  g_return_val_if_fail (WS_IS_SCENARIO_RULES (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if ((key_file = ws_key_file_load (path, &contents, &length, error)) == NULL)
    return FALSE;
  if (!load_key_file (self, key_file, &bad_group, &bad_key, &local_error))
    {
      guint line = ws_key_file_find_line (contents, length, bad_group, bad_key);

      g_set_error (error, WS_ERROR, local_error->domain == WS_ERROR ? local_error->code : WS_ERROR_PARSE,
                   "%s:%u: %s", path, MAX (line, 1), local_error->message);
      ws_error_make_valid (error);
      return FALSE;
    }
  return TRUE;
}

guint
ws_scenario_rules_get_n_rules (WsScenarioRules *self)
{
  g_return_val_if_fail (WS_IS_SCENARIO_RULES (self), 0);
  return self->rules->len;
}

const char *
ws_scenario_rules_get_name (WsScenarioRules *self,
                            guint            index)
{
  g_return_val_if_fail (WS_IS_SCENARIO_RULES (self), NULL);
  g_return_val_if_fail (index < self->rules->len, NULL);
  return g_array_index (self->rules, Rule, index).name;
}

const char *
ws_scenario_rules_get_begin (WsScenarioRules *self,
                             guint            index)
{
  g_return_val_if_fail (WS_IS_SCENARIO_RULES (self), NULL);
  g_return_val_if_fail (index < self->rules->len, NULL);
  return g_array_index (self->rules, Rule, index).begin;
}

const char * const *
ws_scenario_rules_get_ends (WsScenarioRules *self,
                            guint            index)
{
  g_return_val_if_fail (WS_IS_SCENARIO_RULES (self), NULL);
  g_return_val_if_fail (index < self->rules->len, NULL);
  return (const char * const *) g_array_index (self->rules, Rule, index).ends;
}

/**
 * ws_scenario_rules_to_string:
 *
 * Returns: (transfer full): the rule as "NAME=BEGIN,END[,END…]", which
 *   ws_scenario_rules_add_from_string() reads back
 */
char *
ws_scenario_rules_to_string (WsScenarioRules *self,
                             guint            index)
{
  const Rule *rule;
  g_autofree char *ends = NULL;

  g_return_val_if_fail (WS_IS_SCENARIO_RULES (self), NULL);
  g_return_val_if_fail (index < self->rules->len, NULL);

  rule = &g_array_index (self->rules, Rule, index);
  ends = g_strjoinv (",", rule->ends);
  return g_strdup_printf ("%s=%s,%s", rule->name, rule->begin, ends);
}

/**
 * ws_scenario_rules_apply:
 * @trace: a finished trace
 *
 * Adds the instances of every rule to @trace.  A scenario the trace already
 * has instances of (a JSON trace carries the instances found when it was
 * converted) is left as it is, so loading a converted trace again does not
 * count its instances twice.
 *
 * Returns: the number of instances added
 */
guint
ws_scenario_rules_apply (WsScenarioRules *self,
                         WsTrace         *trace)
{
  g_autoptr(GHashTable) present = g_hash_table_new (NULL, NULL);
  guint added = 0;

  g_return_val_if_fail (WS_IS_SCENARIO_RULES (self), 0);
  g_return_val_if_fail (WS_IS_TRACE (trace), 0);

  for (guint k = 0; k < ws_trace_get_n_scenario_instances (trace); k++)
    g_hash_table_add (present, GUINT_TO_POINTER (ws_trace_get_scenario_instance (trace, k)->scenario + 1));

  for (guint i = 0; i < self->rules->len; i++)
    {
      const Rule *rule = &g_array_index (self->rules, Rule, i);
      guint32 id = ws_trace_lookup_string (trace, rule->name);

      if (id != WS_NONE && g_hash_table_contains (present, GUINT_TO_POINTER (id + 1)))
        continue;
      added += ws_trace_add_scenario_instances_full (trace, rule->name, rule->begin,
                                                     (const char * const *) rule->ends);
    }

  return added;
}

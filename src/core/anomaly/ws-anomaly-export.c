/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `anomalies`' JSON: the detector's settings, every wait's score, every
 * signature's mixture.  One field a line, in the order
 * docs/json-schemas.md lists them.
 */
#include "config.h"

#include <math.h>

#include "ws-anomaly-export.h"
#include "ws-json-fields.h"
#include "ws-json-stream.h"

const char *
ws_anomaly_flag_to_string (WsAnomalyFlag flag)
{
  switch (flag)
    {
    case WS_ANOMALY_FLAG_ANOMALOUS: return "anomalous";
    case WS_ANOMALY_FLAG_NORMAL:    return "normal";
    default:                        return "none";
    }
}

static void
add_component (JsonBuilder          *b,
               const WsAnomalyModel *m,
               guint                 k)
{
  const WsGmmComponent *c = &m->gmm.components[k];

  json_builder_begin_object (b);
  ws_json_field_double (b, "weight", c->weight);
  ws_json_field_double (b, "mean_log_ns", c->mean);
  ws_json_field_double (b, "sd_log_ns", sqrt (c->variance));
  ws_json_field_int (b, "median_ns", (gint64) llround (exp (MIN (c->mean, 60.0))));
  ws_json_field_boolean (b, "anomalous", (m->marked_components & (1u << k)) != 0);
  json_builder_end_object (b);
}

/* The model's members, after whatever the object began with. */
static void
add_model_members (JsonBuilder          *b,
                   const WsAnomalyModel *m)
{
  ws_json_field_text (b, "signature", m->key);
  ws_json_field_text (b, "pool", m->pool);
  ws_json_field_string (b, "level", ws_model_level_to_string (m->level));
  ws_json_field_int (b, "n_samples", m->samples ? m->samples->len : 0);
  ws_json_field_int (b, "n_history", m->n_history);
  ws_json_field_int (b, "n_current", m->n_current);
  ws_json_field_int (b, "flagged_normal", m->n_flagged_normal);
  ws_json_field_int (b, "flagged_anomalous", m->n_flagged_anomalous);
  ws_json_field_double (b, "threshold", m->threshold);
  ws_json_field_double (b, "pool_threshold", m->pool_threshold);
  if (m->gmm.n_components > 0)
    ws_json_field_int (b, "anomalous_from_ns", (gint64) ceil (exp (MIN (m->cut, 60.0))));
  else
    ws_json_field_null (b, "anomalous_from_ns");
  ws_json_field_double (b, "bic", m->gmm.bic);
  ws_json_field_double (b, "mean_log_likelihood", m->gmm.mean_log_likelihood);
  ws_json_field_begin_array (b, "components");
  for (guint k = 0; k < m->gmm.n_components; k++)
    add_component (b, m, k);
  json_builder_end_array (b);
}

void
ws_anomaly_export_model_json (JsonBuilder          *b,
                              const WsAnomalyModel *m)
{
  json_builder_begin_object (b);
  add_model_members (b, m);
  json_builder_end_object (b);
}

JsonNode *
ws_anomaly_export_model_show_json (const WsAnomalyModel *m)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  ws_json_field_int (b, "schema_version", WS_ANOMALY_SCHEMA_VERSION);
  add_model_members (b, m);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static void
add_wait (JsonBuilder       *b,
          WsAnomalyResult   *result,
          guint              t,
          const WsWaitScore *s)
{
  WsTrace *trace = ws_anomaly_result_get_trace (result, t);
  const WsEvent *e = ws_trace_get_event (trace, s->event);
  const WsThread *th = ws_trace_get_thread (trace, e->thread);

  json_builder_begin_object (b);
  ws_json_field_int (b, "event", s->event);
  ws_json_field_int (b, "tid", th->tid);
  ws_json_field_text (b, "thread", th->name);
  ws_json_field_int (b, "time_ns", e->time);
  ws_json_field_int (b, "duration_ns", ws_event_duration (e));
  ws_json_field_text (b, "signature", ws_anomaly_result_get_model (result, s->model)->key);
  ws_json_field_double (b, "score", s->score);
  ws_json_field_boolean (b, "model_anomalous", s->model_anomalous);
  ws_json_field_string (b, "flag", ws_anomaly_flag_to_string (s->flag));
  ws_json_field_boolean (b, "anomalous", s->anomalous);
  ws_json_field_int (b, "delay_caused_ns", s->delay_caused);
  ws_json_field_boolean (b, "shown", s->shown);
  json_builder_end_object (b);
}

static void
add_settings (WsJsonStream            *out,
              const WsAnomalySettings *settings)
{
  ws_json_stream_field_double (out, "threshold", settings->threshold);
  ws_json_stream_field_string (out, "rule", ws_anomaly_rule_to_string (settings->rule));
  ws_json_stream_field_int (out, "signature_depth", settings->signature_depth);
  ws_json_stream_field_double (out, "flag_prior", settings->flag_prior);
  ws_json_stream_field_double (out, "flag_max_shift", settings->flag_max_shift);
  if (settings->flag_model_weight == WS_ANOMALY_FLAG_MODEL_WEIGHT_WAITS)
    ws_json_stream_field_string (out, "flag_model_weight", "waits");
  else
    ws_json_stream_field_double (out, "flag_model_weight", settings->flag_model_weight);
}

/* One trace: its counts, and its anomalous and flagged waits (@all: every wait). */
static void
add_trace (WsJsonStream    *out,
           JsonBuilder     *b,
           WsAnomalyResult *result,
           guint            t,
           gboolean         all)
{
  guint n;
  const WsWaitScore *s = ws_anomaly_result_get_scores (result, t, &n);

  ws_json_stream_begin_object (out);
  ws_json_stream_field_string (out, "path", ws_trace_get_path (ws_anomaly_result_get_trace (result, t)));
  ws_json_stream_field_string (out, "digest", ws_anomaly_result_get_digest (result, t));
  ws_json_stream_field_int (out, "n_waits", n);
  ws_json_stream_field_int (out, "n_anomalous", ws_anomaly_result_count_anomalous (result, t));
  ws_json_stream_field_int (out, "n_shown", ws_anomaly_result_count_shown (result, t));
  ws_json_stream_set_member_name (out, "waits");
  ws_json_stream_begin_array (out);
  for (guint i = 0; i < n; i++)
    if (all || s[i].anomalous || s[i].flag != WS_ANOMALY_FLAG_NONE)
      {
        add_wait (b, result, t, &s[i]);
        ws_json_stream_add_builder (out, b);
      }
  ws_json_stream_end_array (out);
  ws_json_stream_end_object (out);
}

gboolean
ws_anomaly_export_json (FILE            *file,
                        WsAnomalyResult *result,
                        const char      *history,
                        gboolean         all)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  WsJsonStream *out = ws_json_stream_new (file);

  ws_json_stream_begin_object (out);
  ws_json_stream_field_int (out, "schema_version", WS_ANOMALY_SCHEMA_VERSION);
  ws_json_stream_field_string (out, "history", history);
  add_settings (out, ws_anomaly_result_get_settings (result));
  ws_json_stream_set_member_name (out, "traces");
  ws_json_stream_begin_array (out);
  for (guint t = 0; t < ws_anomaly_result_get_n_traces (result); t++)
    add_trace (out, b, result, t, all);
  ws_json_stream_end_array (out);
  ws_json_stream_set_member_name (out, "models");
  ws_json_stream_begin_array (out);
  for (guint m = 0; m < ws_anomaly_result_get_n_models (result); m++)
    {
      ws_anomaly_export_model_json (b, ws_anomaly_result_get_model (result, m));
      ws_json_stream_add_builder (out, b);
    }
  ws_json_stream_end_array (out);
  ws_json_stream_end_object (out);
  return ws_json_stream_finish (out);
}

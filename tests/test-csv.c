/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The one CSV field writer (pivot tables, `query --csv`).  Oracles: fields
 * worked out by hand from RFC 4180, and the law that a reader written here
 * from the RFC's grammar gives back every field of a row of random text
 * (commas, quotes, CR, LF, UTF-8) exactly as it went in.
 */
#include "config.h"

#include "ws-csv.h"

/* RFC 4180's grammar: field = escaped / non-escaped; escaped =
 * DQUOTE *(TEXTDATA / COMMA / CR / LF / 2DQUOTE) DQUOTE. */
static GPtrArray *
read_row (const char *row)
{
  GPtrArray *fields = g_ptr_array_new_with_free_func (g_free);
  const char *p = row;

  for (;;)
    {
      GString *f = g_string_new (NULL);

      if (*p == '"')
        {
          for (p++;; p++)
            {
              g_assert_true (*p != '\0');    /* an unclosed quote is not RFC 4180 */
              if (*p == '"' && p[1] == '"')
                {
                  g_string_append_c (f, '"');
                  p++;
                }
              else if (*p == '"')
                {
                  p++;
                  break;
                }
              else
                g_string_append_c (f, *p);
            }
          g_assert_true (*p == ',' || *p == '\0');
        }
      else
        for (; *p != ',' && *p != '\0'; p++)
          {
            g_assert_true (*p != '"' && *p != '\r' && *p != '\n');
            g_string_append_c (f, *p);
          }
      g_ptr_array_add (fields, g_string_free (f, FALSE));
      if (*p == '\0')
        return fields;
      p++;
    }
}

static void
test_examples (void)
{
  static const struct { const char *in, *out; } cases[] = {
    { "", "" },
    { "plain", "plain" },
    { "a b;c\tend", "a b;c\tend" },
    { "a,b", "\"a,b\"" },
    { "say \"hi\"", "\"say \"\"hi\"\"\"" },
    { "\"", "\"\"\"\"" },
    { "two\nlines", "\"two\nlines\"" },
    { "cr\r", "\"cr\r\"" },
    { "pthread_mutex_lock → futex", "pthread_mutex_lock → futex" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GString) out = g_string_new (NULL);

      ws_csv_append_field (out, cases[i].in);
      g_assert_cmpstr (out->str, ==, cases[i].out);
    }
}

static void
test_round_trip (void)
{
  static const char *pieces[] = { "a", "Z", " ", ",", "\"", "\r", "\n", "\t", ";", "é", "→", "''" };
  g_autoptr(GRand) rand = g_rand_new_with_seed (4180);

  for (guint round = 0; round < 2000; round++)
    {
      guint n = g_rand_int_range (rand, 1, 6);
      g_autoptr(GPtrArray) fields = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GString) row = g_string_new (NULL);
      g_autoptr(GPtrArray) back = NULL;

      for (guint i = 0; i < n; i++)
        {
          GString *f = g_string_new (NULL);
          guint len = g_rand_int_range (rand, 0, 8);

          for (guint k = 0; k < len; k++)
            g_string_append (f, pieces[g_rand_int_range (rand, 0, G_N_ELEMENTS (pieces))]);
          g_ptr_array_add (fields, g_string_free (f, FALSE));
          if (i > 0)
            g_string_append_c (row, ',');
          ws_csv_append_field (row, g_ptr_array_index (fields, i));
        }
      back = read_row (row->str);
      g_assert_cmpuint (back->len, ==, n);
      for (guint i = 0; i < n; i++)
        g_assert_cmpstr (g_ptr_array_index (back, i), ==, g_ptr_array_index (fields, i));
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/csv/examples", test_examples);
  g_test_add_func ("/csv/round-trip", test_round_trip);
  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The gzip ceiling (ws-inflate-limit.h): one check, used by the perf
 * reader (which drives zlib itself) and, through a GConverter wrapping
 * GZlibDecompressor, by the readers that inflate through GIO (JSON,
 * folded stacks).
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-error.h"
#include "ws-inflate-limit.h"

/**
 * ws_inflate_max_ratio:
 *
 * Returns: how many times its compressed size a gzip input may inflate
 *   to: WAITSCOPE_MAX_INFLATE_RATIO, %WS_INFLATE_DEFAULT_RATIO by default;
 *   0 for no limit
 */
guint64
ws_inflate_max_ratio (void)
{
  const char *env = g_getenv ("WAITSCOPE_MAX_INFLATE_RATIO");
  guint64 v;

  if (env != NULL && g_ascii_string_to_unsigned (env, 10, 0, G_MAXUINT32, &v, NULL))
    return v;
  return WS_INFLATE_DEFAULT_RATIO;
}

/**
 * ws_inflate_check:
 * @compressed_bytes: compressed bytes read so far
 * @inflated_bytes: text they inflated to
 *
 * Returns: %FALSE with a %WS_ERROR_TOO_LONG (no file name: the reader puts
 *   "FILE:LINE: " before it) once the ratio passes the ceiling
 */
gboolean
ws_inflate_check (guint64   compressed_bytes,
                  guint64   inflated_bytes,
                  GError  **error)
{
  guint64 ratio;
  g_autofree char *in_size = NULL, *out_size = NULL;

  if (inflated_bytes <= WS_INFLATE_FREE_BYTES)
    return TRUE;
  ratio = ws_inflate_max_ratio ();
  if (ratio == 0 || inflated_bytes / MAX (compressed_bytes, 1) < ratio)
    return TRUE;

  in_size = g_format_size (compressed_bytes);
  out_size = g_format_size (inflated_bytes);
  g_set_error (error, WS_ERROR, WS_ERROR_TOO_LONG,
               _("the gzip data inflates to more than %u times its size "
                 "(%s became %s), far more than real traces do: refused as a decompression bomb; "
                 "to read it anyway, set WAITSCOPE_MAX_INFLATE_RATIO to a larger ratio, or to 0 "
                 "for no limit"),
               (guint) ratio, in_size, out_size);
  return FALSE;
}

/* A GZlibDecompressor that counts both sides and stops at the ceiling. */
typedef struct {
  GObject     parent;
  GConverter *gunzip;
  guint64     in_bytes;
  guint64     out_bytes;
} WsInflateGuard;

typedef GObjectClass WsInflateGuardClass;

static void ws_inflate_guard_iface_init (GConverterIface *iface);

G_DEFINE_TYPE_WITH_CODE (WsInflateGuard, ws_inflate_guard, G_TYPE_OBJECT,
                         G_IMPLEMENT_INTERFACE (G_TYPE_CONVERTER, ws_inflate_guard_iface_init))

static GConverterResult
ws_inflate_guard_convert (GConverter      *converter,
                          const void      *inbuf,
                          gsize            inbuf_size,
                          void            *outbuf,
                          gsize            outbuf_size,
                          GConverterFlags  flags,
                          gsize           *bytes_read,
                          gsize           *bytes_written,
                          GError         **error)
{
  WsInflateGuard *self = (WsInflateGuard *) converter;
  GConverterResult result;

  result = g_converter_convert (self->gunzip, inbuf, inbuf_size, outbuf, outbuf_size, flags,
                                bytes_read, bytes_written, error);
  if (result == G_CONVERTER_ERROR)
    return result;
  self->in_bytes += *bytes_read;
  self->out_bytes += *bytes_written;
  if (!ws_inflate_check (self->in_bytes, self->out_bytes, error))
    return G_CONVERTER_ERROR;
  return result;
}

static void
ws_inflate_guard_reset (GConverter *converter)
{
  WsInflateGuard *self = (WsInflateGuard *) converter;

  g_converter_reset (self->gunzip);
  self->in_bytes = self->out_bytes = 0;
}

static void
ws_inflate_guard_iface_init (GConverterIface *iface)
{
  iface->convert = ws_inflate_guard_convert;
  iface->reset = ws_inflate_guard_reset;
}

static void
ws_inflate_guard_finalize (GObject *object)
{
  g_object_unref (((WsInflateGuard *) object)->gunzip);
  G_OBJECT_CLASS (ws_inflate_guard_parent_class)->finalize (object);
}

static void
ws_inflate_guard_class_init (WsInflateGuardClass *klass)
{
  klass->finalize = ws_inflate_guard_finalize;
}

static void
ws_inflate_guard_init (WsInflateGuard *self)
{
  self->gunzip = G_CONVERTER (g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP));
}

/**
 * ws_inflate_guard_new:
 *
 * Returns: (transfer full): a gzip decompressor whose convert() fails with
 *   ws_inflate_check()'s error once the input inflates past the ceiling
 */
GConverter *
ws_inflate_guard_new (void)
{
  return g_object_new (ws_inflate_guard_get_type (), NULL);
}

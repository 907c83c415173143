#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Every user-visible string goes through gettext: every source file that
# marks strings is listed in po/POTFILES.in, every listed file exists, and
# xgettext extracts the catalogue without a format-string warning (a GLib
# 64-bit format macro inside _() silently breaks the msgid).
set -u
src=${MESON_SOURCE_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$src" || exit 1
status=0

while read -r f; do
  [ -z "$f" ] || [ "${f#\#}" != "$f" ] || [ -f "$f" ] || { echo "listed but missing: $f"; status=1; }
done < po/POTFILES.in

for f in $(git ls-files 'src/*.c' 'src/*.ui' 'data/*.in' 2>/dev/null || find src data -name '*.c' -o -name '*.ui'); do
  if grep -qE '(^|[^A-Za-z_])(_|N_|C_|g_dngettext|ngettext)[ ]?\(|translatable="yes"' "$f"; then
    grep -qxF "$f" po/POTFILES.in || { echo "marks strings but is not in po/POTFILES.in: $f"; status=1; }
  fi
done

out=$(mktemp)
trap 'rm -f "$out"' EXIT
command -v xgettext >/dev/null || { echo "xgettext missing"; exit 77; }
# The keywords and format flags of meson's 'glib' gettext preset.
xgettext --from-code=UTF-8 --keyword=_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 \
  --keyword=g_dcgettext:2 --keyword=g_dngettext:2,3 --keyword=g_dpgettext2:2c,3 \
  --flag=N_:1:pass-c-format --flag=C_:2:pass-c-format --flag=NC_:2:pass-c-format \
  --flag=g_dngettext:2:pass-c-format --flag=g_strdup_printf:1:c-format \
  --flag=g_string_printf:2:c-format --flag=g_string_append_printf:2:c-format \
  --flag=g_error_new:3:c-format --flag=g_set_error:4:c-format --flag=g_prefix_error:2:c-format \
  --flag=g_markup_printf_escaped:1:c-format --flag=g_print:1:c-format --flag=g_printerr:1:c-format \
  --flag=printf:1:c-format --flag=fprintf:2:c-format --flag=g_printf:1:c-format --flag=g_fprintf:2:c-format \
  --add-comments=Translators --files-from=po/POTFILES.in \
  --directory="$src" -o /dev/null 2>"$out"
if grep -q 'warning' "$out"; then
  cat "$out"
  status=1
fi
exit $status

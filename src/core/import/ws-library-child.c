/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include "ws-library-child.h"

#ifdef WS_WITH_ASAN
# include <sanitizer/common_interface_defs.h>
#endif

/**
 * ws_library_child_enter:
 * @stderr_fd: where the library's complaints go, or -1 for /dev/null
 *
 * Called first in the child.  A crash there is expected and the parent
 * reports it, so it must kill the child and nothing else: the default
 * action for every crash signal, whatever handlers the process had (a
 * sanitizer's, a fuzzer's, a crash reporter's).  Under AddressSanitizer a
 * memory error the library makes is reported without any signal, then
 * the sanitizer's death callback runs: libFuzzer's writes a "crash-"
 * artefact for the input the parent is reading, though the parent
 * reports it cleanly (CI, 2026-11-29: libtracecmd read past a string in
 * a damaged file).  The child clears that callback; the report still
 * goes to @stderr_fd and the child still exits 1.
 */
void
ws_library_child_enter (int stderr_fd)
{
  int fd = stderr_fd >= 0 ? stderr_fd : open ("/dev/null", O_WRONLY);

  if (fd >= 0)
    dup2 (fd, STDERR_FILENO);
  signal (SIGSEGV, SIG_DFL);
  signal (SIGBUS, SIG_DFL);
  signal (SIGFPE, SIG_DFL);
  signal (SIGILL, SIG_DFL);
  signal (SIGABRT, SIG_DFL);
#ifdef WS_WITH_ASAN
  __sanitizer_set_death_callback (NULL);
#endif
}

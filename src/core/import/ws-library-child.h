/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A child process that reads a file through a library Waitscope cannot
 * trust with a damaged file (libtracecmd, libbabeltrace2): the parent
 * forks it, the child reads, and only a file it read without crashing is
 * read in the application.  See ws-tracecmd-reader.c and ws-ctf-graph.c.
 */
#pragma once

/* Address and leak sanitizers (the sanitize and fuzz builds): GCC says so
 * with __SANITIZE_ADDRESS__, clang with __has_feature. */
#if defined(__SANITIZE_ADDRESS__)
# define WS_WITH_ASAN 1
#elif defined(__has_feature)
# if __has_feature(address_sanitizer)
#  define WS_WITH_ASAN 1
# endif
#endif

void ws_library_child_enter (int stderr_fd);

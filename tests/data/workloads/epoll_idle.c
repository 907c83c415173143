/* epoll-idle workload: a server process (ep-srv, one thread, an epoll
 * loop) answers the requests of a client process (ep-cli) over TCP
 * loopback at once; the client computes between requests (prepare_request,
 * about 2 ms), so the server sits in epoll_wait most of the time.
 *
 * True cause of the server's delay: the client running (prepare_request),
 * not the server's epoll_wait — the server waits because nobody asked.
 *
 * build: cc -O1 -g -fno-omit-frame-pointer -pthread epoll_idle.c -o epoll-idle
 * usage: epoll-idle SECONDS */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void __attribute__ ((noinline))
prepare_request (char *req)
{
  unsigned long s = 0;
  for (long i = 0; i < 4000000; i++)
    s = s * 2862933555777941757UL + 3037000493UL;
  sink += s;
  memset (req, 'q', 64);
}

static void
serve (int listener)
{
  int ep = epoll_create1 (0);
  struct epoll_event ev = { .events = EPOLLIN }, got[8];
  prctl (PR_SET_NAME, "ep-srv");
  prctl (PR_SET_PDEATHSIG, SIGKILL);   /* stopped with the parent */
  ev.data.fd = listener;
  epoll_ctl (ep, EPOLL_CTL_ADD, listener, &ev);
  for (;;)
    {
      int n = epoll_wait (ep, got, 8, -1);
      for (int i = 0; i < n; i++)
        {
          char buf[64];
          int fd = got[i].data.fd;
          if (fd == listener)
            {
              int c = accept (listener, NULL, NULL), one = 1;
              setsockopt (c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
              ev.data.fd = c;
              epoll_ctl (ep, EPOLL_CTL_ADD, c, &ev);
            }
          else if (recv (fd, buf, sizeof buf, MSG_WAITALL) == sizeof buf)
            send (fd, buf, sizeof buf, 0);
          else
            _exit (0);
        }
    }
}

static void
client (int port, double deadline)
{
  struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons (port) };
  int fd = socket (AF_INET, SOCK_STREAM, 0), one = 1;
  char req[64];
  prctl (PR_SET_NAME, "ep-cli");
  prctl (PR_SET_PDEATHSIG, SIGKILL);
  a.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  if (connect (fd, (struct sockaddr *) &a, sizeof a) != 0)
    _exit (1);
  setsockopt (fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  while (now () < deadline)
    {
      prepare_request (req);
      if (send (fd, req, sizeof req, 0) != sizeof req ||
          recv (fd, req, sizeof req, MSG_WAITALL) != sizeof req)
        break;
    }
  _exit (0);
}

int
main (int argc, char **argv)
{
  struct sockaddr_in a = { .sin_family = AF_INET };
  socklen_t len = sizeof a;
  double deadline;
  int listener = socket (AF_INET, SOCK_STREAM, 0);
  if (argc < 2)
    return 2;
  deadline = now () + atof (argv[1]);
  a.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  if (bind (listener, (struct sockaddr *) &a, sizeof a) != 0 || listen (listener, 4) != 0 ||
      getsockname (listener, (struct sockaddr *) &a, &len) != 0)
    return 1;
  if (fork () == 0)
    serve (listener);
  if (fork () == 0)
    client (ntohs (a.sin_port), deadline);
  while (wait (NULL) > 0)
    ;
  return 0;
}

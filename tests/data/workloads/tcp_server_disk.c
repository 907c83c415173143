/* tcp-server-disk workload: a client process (tcp-cli, two threads) sends
 * requests over TCP loopback to a server process (tcp-srv, one thread per
 * connection); the server logs each request with write + fsync under
 * one mutex (log_request) before it replies.
 *
 * True cause of the client's delay: the server's fsync waiting for the
 * disk (uninterruptible) — in another process, behind a socket and a lock.
 *
 * build: cc -O1 -g -fno-omit-frame-pointer -pthread tcp_server_disk.c -o tcp-server-disk
 * usage: tcp-server-disk SECONDS LOGFILE */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define N_CLIENTS 2

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static int log_fd, port;
static double deadline;
static volatile unsigned long sink;

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void __attribute__ ((noinline))
log_request (const char *req)
{
  char rec[4096];
  memset (rec, ' ', sizeof rec);
  memcpy (rec, req, 64);
  pthread_mutex_lock (&log_lock);
  if (write (log_fd, rec, sizeof rec) != sizeof rec || fsync (log_fd) != 0)
    perror ("log");
  pthread_mutex_unlock (&log_lock);
}

static void *
serve (void *arg)
{
  int fd = (int) (long) arg;
  char req[64];
  pthread_setname_np (pthread_self (), "tcp-srv-conn");
  while (recv (fd, req, sizeof req, MSG_WAITALL) == sizeof req)
    {
      log_request (req);
      if (send (fd, req, sizeof req, 0) != sizeof req)
        break;
    }
  close (fd);
  return NULL;
}

static void
run_server (int listener)
{
  pthread_t t[N_CLIENTS];
  prctl (PR_SET_NAME, "tcp-srv");
  for (long i = 0; i < N_CLIENTS; i++)
    {
      int fd = accept (listener, NULL, NULL);
      int one = 1;
      setsockopt (fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      pthread_create (&t[i], NULL, serve, (void *) (long) fd);
    }
  for (int i = 0; i < N_CLIENTS; i++)
    pthread_join (t[i], NULL);
}

static void __attribute__ ((noinline))
prepare_request (char *req, int n)
{
  for (int i = 0; i < 3000; i++)
    sink += (unsigned long) i * n;
  snprintf (req, 64, "request %d", n);
}

static void *
client (void *arg)
{
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons (port) };
  char name[16], req[64];
  int fd = socket (AF_INET, SOCK_STREAM, 0), one = 1;
  snprintf (name, sizeof name, "tcp-cli-%d", (int) (long) arg);
  pthread_setname_np (pthread_self (), name);
  addr.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  if (connect (fd, (struct sockaddr *) &addr, sizeof addr) != 0)
    return NULL;
  setsockopt (fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  for (int n = 0; now () < deadline; n++)
    {
      prepare_request (req, n);
      if (send (fd, req, sizeof req, 0) != sizeof req ||
          recv (fd, req, sizeof req, MSG_WAITALL) != sizeof req)
        break;
    }
  close (fd);
  return NULL;
}

int
main (int argc, char **argv)
{
  struct sockaddr_in addr = { .sin_family = AF_INET };
  socklen_t len = sizeof addr;
  pthread_t t[N_CLIENTS];
  int listener;
  pid_t child;

  if (argc < 3)
    return 2;
  deadline = now () + atof (argv[1]);
  log_fd = open (argv[2], O_WRONLY | O_CREAT | O_APPEND, 0644);
  listener = socket (AF_INET, SOCK_STREAM, 0);
  addr.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  if (log_fd < 0 || bind (listener, (struct sockaddr *) &addr, sizeof addr) != 0 ||
      listen (listener, N_CLIENTS) != 0 || getsockname (listener, (struct sockaddr *) &addr, &len) != 0)
    return 1;
  port = ntohs (addr.sin_port);
  child = fork ();
  if (child == 0)
    {
      run_server (listener);
      return 0;
    }
  close (listener);
  prctl (PR_SET_NAME, "tcp-cli");
  for (long i = 0; i < N_CLIENTS; i++)
    pthread_create (&t[i], NULL, client, (void *) i);
  for (int i = 0; i < N_CLIENTS; i++)
    pthread_join (t[i], NULL);
  waitpid (child, NULL, 0);
  return 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A small request service for the fleet recordings (record.sh beside it):
 * a client thread paces requests (a 2 ms sleep between them) into a pipe;
 * two workers read them (pipe reads: the idle wait every run has), look
 * the request up in a cache under one mutex, and answer into a second pipe
 * that a collector thread reads.  With SLOW_RATE > 0 about one request in
 * SLOW_RATE takes the rare slow path: it rebuilds the cache's index while
 * holding the mutex, writing it out in four flushed chunks (fdatasync), and the other worker
 * queues on the mutex meanwhile.
 *
 * Each request carries its send time; on exit (after SECONDS, or on
 * SIGTERM) the service prints its slowest request's latency in ms, the
 * "latency" column of the fleet's classes file.
 *
 * usage: fleet-service SECONDS SLOW_RATE INDEX_FILE
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int requests[2], answers[2];
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned cache[4096];
static int slow_rate;
static int index_fd;
static volatile sig_atomic_t stop;
static int64_t worst_ns;

static int64_t
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void __attribute__((noinline))
pace (void)
{
  struct timespec ts = { 0, 2000000 };
  nanosleep (&ts, NULL);
}

static void __attribute__((noinline))
client_send (void)
{
  int64_t sent = now_ns ();

  if (write (requests[1], &sent, sizeof sent) != sizeof sent)
    stop = 1;
}

static void *
client (void *arg)
{
  (void) arg;
  while (!stop)
    {
      pace ();
      client_send ();
    }
  return NULL;
}

/* The rare slow path: the cache's index written out in four 512 KB
 * chunks, each flushed to the disk, while the caller holds cache_lock. */
static void __attribute__((noinline))
rebuild_index (void)
{
  static char page[512 * 1024];

  for (int chunk = 0; chunk < 4; chunk++)
    {
      for (unsigned i = 0; i < sizeof page; i++)
        page[i] = (char) (cache[i % 4096] + i + chunk);
      if (pwrite (index_fd, page, sizeof page, (off_t) chunk * sizeof page) < 0 || fdatasync (index_fd) < 0)
        perror ("index");
    }
}

static unsigned __attribute__((noinline))
lookup_cache (unsigned key, unsigned *seed)
{
  unsigned v = 0;

  pthread_mutex_lock (&cache_lock);
  for (unsigned i = 0; i < 2000; i++)
    v += cache[(key * 31 + i) % 4096]++;
  if (slow_rate > 0 && rand_r (seed) % slow_rate == 0)
    rebuild_index ();
  pthread_mutex_unlock (&cache_lock);
  return v;
}

static int __attribute__((noinline))
read_request (int64_t *sent)
{
  return read (requests[0], sent, sizeof *sent) == sizeof *sent;
}

static void __attribute__((noinline))
handle_request (int64_t sent, unsigned *seed)
{
  lookup_cache ((unsigned) sent, seed);
  if (write (answers[1], &sent, sizeof sent) != sizeof sent)
    stop = 1;
}

static void *
worker (void *arg)
{
  unsigned seed = (unsigned) (size_t) arg * 7919u + (unsigned) time (NULL);
  int64_t sent;

  while (!stop && read_request (&sent))
    handle_request (sent, &seed);
  return NULL;
}

static int __attribute__((noinline))
read_answer (int64_t *sent)
{
  return read (answers[0], sent, sizeof *sent) == sizeof *sent;
}

static void *
collector (void *arg)
{
  int64_t sent;

  (void) arg;
  while (!stop && read_answer (&sent))
    if (now_ns () - sent > worst_ns)
      worst_ns = now_ns () - sent;
  return NULL;
}

static void
on_term (int sig)
{
  (void) sig;
  stop = 1;
}

int
main (int argc, char **argv)
{
  pthread_t c, w1, w2, k;
  double seconds;
  struct timespec ts;

  if (argc != 4)
    {
      fprintf (stderr, "usage: %s SECONDS SLOW_RATE INDEX_FILE\n", argv[0]);
      return 2;
    }
  seconds = atof (argv[1]);
  slow_rate = atoi (argv[2]);
  index_fd = open (argv[3], O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (index_fd < 0 || pipe (requests) < 0 || pipe (answers) < 0)
    {
      perror (argv[0]);
      return 1;
    }
  signal (SIGTERM, on_term);
  pthread_create (&k, NULL, collector, NULL);
  pthread_create (&w1, NULL, worker, (void *) 1);
  pthread_create (&w2, NULL, worker, (void *) 2);
  pthread_create (&c, NULL, client, NULL);
  ts.tv_sec = (time_t) seconds;
  ts.tv_nsec = (long) ((seconds - (double) ts.tv_sec) * 1e9);
  nanosleep (&ts, NULL);
  stop = 1;
  printf ("slowest request: %.3f ms\n", worst_ns / 1e6);
  return 0;
}

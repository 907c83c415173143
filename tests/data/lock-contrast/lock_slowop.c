/* lock-slowop workload: a small request service whose slow requests wait
 * on a lock held across a slow operation.
 *
 * 4 worker threads serve requests in a loop.  A request (request_begin ..
 * request_end, the scenario markers, probed with uprobes) does a little
 * work, then updates a shared cache under one pthread mutex.  With
 * SLOW_EVERY = n > 0, every n-th update of a worker is a "refresh": still
 * holding the cache lock, the worker asks a loader thread for fresh data
 * over a pipe and blocks until the loader answers; the loader computes for
 * about 3 ms (load_entries) before it does.  Requests of the other workers
 * that reach the lock meanwhile queue on it.  With SLOW_EVERY = 0 there is
 * no refresh: the fast run.
 *
 * True cause of the slow requests: the loader's computation (load_entries),
 * reached through the lock holder's pipe read (refresh_under_lock), behind
 * the cache lock (update_cache).
 *
 * build: cc -O1 -g -fno-omit-frame-pointer -pthread lock_slowop.c -o lock-slowop
 * usage: lock-slowop SECONDS SLOW_EVERY */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile unsigned long sink;
static double deadline;
static int slow_every;
static int to_loader[2], from_loader[2];

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void __attribute__ ((noinline))
small_work (int n)
{
  for (int i = 0; i < n; i++)
    sink += (unsigned long) i * i;
}

static void __attribute__ ((noinline))
load_entries (void)
{
  double until = now () + 0.003;

  while (now () < until)
    for (int i = 0; i < 1000; i++)
      sink += (unsigned long) i * 7;
}

static void *
loader (void *arg)
{
  char c;

  (void) arg;
  pthread_setname_np (pthread_self (), "lso-loader");
  while (read (to_loader[0], &c, 1) == 1)
    {
      load_entries ();
      if (write (from_loader[1], &c, 1) != 1)
        break;
    }
  return NULL;
}

/* The calls into libc go through one-line wrappers: libc has no frame
 * pointers, so perf's frame-pointer unwinding loses the caller of a libc
 * function; the wrapper is what it loses, its caller stays named. */
static void __attribute__ ((noinline))
ask_loader (void)
{
  char c = 'r';

  if (write (to_loader[1], &c, 1) == 1)
    (void) !read (from_loader[0], &c, 1);
}

static void __attribute__ ((noinline))
refresh_under_lock (void)
{
  ask_loader ();
  __asm__ volatile ("" ::: "memory");
}

static void __attribute__ ((noinline))
lock_cache (void)
{
  pthread_mutex_lock (&cache_lock);
}

static void __attribute__ ((noinline))
unlock_cache (void)
{
  pthread_mutex_unlock (&cache_lock);
}

static void __attribute__ ((noinline))
update_cache (unsigned n)
{
  lock_cache ();
  small_work (3000);
  if (slow_every > 0 && n % slow_every == 0)
    refresh_under_lock ();
  unlock_cache ();
  __asm__ volatile ("" ::: "memory");
}

/* The scenario markers: uprobes on these two. */
void __attribute__ ((noinline))
request_begin (unsigned n)
{
  __asm__ volatile ("" : : "r" (n) : "memory");
}

void __attribute__ ((noinline))
request_end (unsigned n)
{
  __asm__ volatile ("" : : "r" (n) : "memory");
}

static void *
worker (void *arg)
{
  char name[16];
  unsigned n = 0;

  snprintf (name, sizeof name, "lso-w%d", (int) (long) arg);
  pthread_setname_np (pthread_self (), name);
  while (now () < deadline)
    {
      struct timespec pause = { 0, 300000 };

      request_begin (n);
      small_work (20000);
      update_cache (n + (unsigned) (long) arg);
      small_work (20000);
      request_end (n);
      n++;
      nanosleep (&pause, NULL);   /* the next request arrives */
    }
  return NULL;
}

int
main (int argc, char **argv)
{
  pthread_t w[4], l;

  deadline = now () + (argc > 1 ? atof (argv[1]) : 5);
  slow_every = argc > 2 ? atoi (argv[2]) : 10;
  if (pipe (to_loader) != 0 || pipe (from_loader) != 0)
    return 1;
  pthread_create (&l, NULL, loader, NULL);
  for (long i = 0; i < 4; i++)
    pthread_create (&w[i], NULL, worker, (void *) i);
  for (int i = 0; i < 4; i++)
    pthread_join (w[i], NULL);
  return 0;
}

/* timed-lock workload: a "tl-waiter" thread wants a mutex that a
 * "tl-holder" thread keeps for ~6 ms at a time while it computes
 * (build_report), then lets go for ~1 ms.  The waiter does not block
 * outright: it calls pthread_mutex_timedlock with a 1 ms deadline and, each
 * time the deadline passes, counts the miss and tries again (a timed lock
 * in a loop, as programs that must stay responsive do).  Once it has the
 * lock it reads the report and sleeps 2 ms.  A third thread, "tl-poller",
 * polls a flag every 1 ms with nanosleep and no lock at all.
 *
 * True cause of the waiter's delay: the holder computing build_report
 * under the lock; the 1 ms timer wake-ups in between are the program's own
 * timeouts (false runs), not the cause.  The poller's timer wake-ups are
 * the true ends of its sleeps.
 *
 * build: cc -O1 -g -fno-omit-frame-pointer -pthread timed_lock.c -o timed-lock
 * usage: timed-lock SECONDS */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static double deadline;
static volatile double report;
static volatile long misses, polls;

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Each its own loop, so that the samples name them. */
static void __attribute__ ((noinline))
build_report (void)
{
  double x = report;
  for (long i = 0; i < 2400000; i++)
    x = x * 1.0000001 + 1e-9;
  report = x;
}

static void __attribute__ ((noinline))
tidy_up (void)
{
  volatile double x = 0;
  for (long i = 0; i < 400000; i++)
    x = x * 1.0000001 + 1e-9;
}

static void *
holder (void *arg)
{
  (void) arg;
  pthread_setname_np (pthread_self (), "tl-holder");
  while (now () < deadline)
    {
      pthread_mutex_lock (&lock);
      build_report ();
      pthread_mutex_unlock (&lock);
      tidy_up ();
    }
  return NULL;
}

/* One timed try after another until the lock is ours. */
static void __attribute__ ((noinline))
take_report_lock (void)
{
  for (;;)
    {
      struct timespec until;
      clock_gettime (CLOCK_REALTIME, &until);
      until.tv_nsec += 1000000;
      if (until.tv_nsec >= 1000000000)
        {
          until.tv_sec++;
          until.tv_nsec -= 1000000000;
        }
      if (pthread_mutex_timedlock (&lock, &until) != ETIMEDOUT)
        return;
      misses++;
    }
}

static void *
poller (void *arg)
{
  (void) arg;
  pthread_setname_np (pthread_self (), "tl-poller");
  while (now () < deadline)
    {
      struct timespec ms = { 0, 1000000 };
      nanosleep (&ms, NULL);
      polls++;
    }
  return NULL;
}

int
main (int argc, char **argv)
{
  pthread_t h, p;

  deadline = now () + (argc > 1 ? atof (argv[1]) : 5.0);
  pthread_setname_np (pthread_self (), "tl-waiter");
  pthread_create (&h, NULL, holder, NULL);
  pthread_create (&p, NULL, poller, NULL);
  while (now () < deadline)
    {
      take_report_lock ();
      volatile double v = report;
      (void) v;
      pthread_mutex_unlock (&lock);
      usleep (2000);
    }
  pthread_join (h, NULL);
  pthread_join (p, NULL);
  printf ("%ld misses, %ld polls\n", misses, polls);
  return 0;
}

/* starved-lock workload: a "ui" thread takes a mutex every 2 ms to read
 * a value; a "holder" thread computes ~1 ms (refresh_model) while holding
 * that mutex, then ~0.2 ms outside it, without sleeping.  Normal
 * scheduling class, on a machine kept busy by unrelated CPU hogs
 * (record.sh starts spinning processes and a JVM beside it): the holder is
 * preempted inside its critical section most of the time, so the ui
 * thread waits for a lock whose holder waits for a CPU.
 *
 * True cause of the ui thread's delay: the lock holder runnable, waiting
 * for a CPU (behind it: the hogs and the JVM that had the CPUs).
 *
 * build: cc -O1 -g -fno-omit-frame-pointer -pthread starved_lock.c -o starved-lock
 * usage: starved-lock SECONDS */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static double deadline;
static volatile double model;

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double __attribute__ ((noinline))
spin (long n)
{
  double x = model;
  for (long i = 0; i < n; i++)
    x = x * 1.0000001 + 1e-9;
  return x;
}

static void __attribute__ ((noinline))
refresh_model (void)
{
  model = spin (400000);
}

static void __attribute__ ((noinline))
prepare_next (void)
{
  volatile double v = spin (80000);
  (void) v;
}

static void *
holder (void *arg)
{
  (void) arg;
  pthread_setname_np (pthread_self (), "sl-holder");
  while (now () < deadline)
    {
      pthread_mutex_lock (&lock);
      refresh_model ();
      pthread_mutex_unlock (&lock);
      prepare_next ();
    }
  return NULL;
}

static void __attribute__ ((noinline))
draw_frame (void)
{
  pthread_mutex_lock (&lock);
  volatile double v = model;
  (void) v;
  pthread_mutex_unlock (&lock);
}

int
main (int argc, char **argv)
{
  pthread_t h;

  deadline = now () + (argc > 1 ? atof (argv[1]) : 5.0);
  pthread_setname_np (pthread_self (), "sl-ui");
  pthread_create (&h, NULL, holder, NULL);
  while (now () < deadline)
    {
      draw_frame ();
      usleep (2000);
    }
  pthread_join (h, NULL);
  return 0;
}

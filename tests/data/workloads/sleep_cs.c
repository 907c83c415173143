/* sleep-cs workload: 4 threads share one pthread mutex; the holder sleeps
 * 2 ms inside the critical section (a "sleep while holding a lock" bug),
 * then does a little work outside it.
 *
 * True cause of the waiters' delay: the holder sleeping in nanosleep under
 * the lock (hold_and_sleep).
 *
 * build: cc -O1 -g -fno-omit-frame-pointer -pthread sleep_cs.c -o sleep-cs
 * usage: sleep-cs [SECONDS] */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static volatile unsigned long sink;
static double deadline;

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
hold_and_sleep (void)
{
  struct timespec ts = { 0, 2000000 };
  pthread_mutex_lock (&lock);
  small_work (2000);
  nanosleep (&ts, NULL);
  pthread_mutex_unlock (&lock);
}

static void *
worker (void *arg)
{
  char name[16];
  snprintf (name, sizeof name, "slcs-w%d", (int) (long) arg);
  pthread_setname_np (pthread_self (), name);
  while (now () < deadline)
    {
      hold_and_sleep ();
      small_work (20000);
    }
  return NULL;
}

int
main (int argc, char **argv)
{
  pthread_t t[4];
  deadline = now () + (argc > 1 ? atof (argv[1]) : 5.0);
  for (long i = 0; i < 4; i++)
    pthread_create (&t[i], NULL, worker, (void *) i);
  for (int i = 0; i < 4; i++)
    pthread_join (t[i], NULL);
  return 0;
}

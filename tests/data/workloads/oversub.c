/* oversub workload: 8 threads on a 2-CPU machine, each looping over ~4 ms
 * of computation and a 1 ms sleep (a request loop): far more runnable
 * threads than CPUs, no lock between them.
 *
 * True cause of the threads' delay: waiting for a CPU (runnable, not run).
 *
 * build: cc -O1 -g -fno-omit-frame-pointer -pthread oversub.c -o oversub
 * usage: oversub [SECONDS] */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

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
compute (void)
{
  double end = now () + 0.004;
  while (now () < end)
    for (int i = 0; i < 1000; i++)
      sink += (unsigned long) i * i;
}

static void *
worker (void *arg)
{
  char name[16];
  struct timespec ts = { 0, 1000000 };
  snprintf (name, sizeof name, "ovs-w%d", (int) (long) arg);
  pthread_setname_np (pthread_self (), name);
  while (now () < deadline)
    {
      compute ();
      nanosleep (&ts, NULL);
    }
  return NULL;
}

int
main (int argc, char **argv)
{
  pthread_t t[8];
  deadline = now () + (argc > 1 ? atof (argv[1]) : 5.0);
  for (long i = 0; i < 8; i++)
    pthread_create (&t[i], NULL, worker, (void *) i);
  for (int i = 0; i < 8; i++)
    pthread_join (t[i], NULL);
  return 0;
}

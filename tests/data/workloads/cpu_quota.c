/* cpu-quota workload: two threads (cq-w0, cq-w1) compute without pause
 * (crunch) in a cgroup whose CPU quota is a fifth of one CPU (record.sh
 * puts the process there: cpu.cfs_quota_us 20000 of 100000).  Runs in the
 * normal scheduling class, since the quota applies to it only.
 *
 * True cause of the threads' delay: the quota — the threads are runnable
 * but throttled, waiting for a CPU the cgroup may not use.
 *
 * build: cc -O1 -g -fno-omit-frame-pointer -pthread cpu_quota.c -o cpu-quota
 * usage: cpu-quota SECONDS */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

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
crunch (void)
{
  unsigned long s = 0;
  for (long i = 0; i < 1000000; i++)
    s = s * 2862933555777941757UL + 3037000493UL;
  sink += s;
}

static void *
worker (void *arg)
{
  char name[16];
  snprintf (name, sizeof name, "cq-w%d", (int) (long) arg);
  pthread_setname_np (pthread_self (), name);
  while (now () < deadline)
    crunch ();
  return NULL;
}

int
main (int argc, char **argv)
{
  pthread_t t[2];
  if (argc < 2)
    return 2;
  deadline = now () + atof (argv[1]);
  for (long i = 0; i < 2; i++)
    pthread_create (&t[i], NULL, worker, (void *) i);
  for (int i = 0; i < 2; i++)
    pthread_join (t[i], NULL);
  return 0;
}

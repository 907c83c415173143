/* pool-straggler workload: a main thread (pool-main) runs rounds of a
 * parallel job: each round it starts three workers (pool-w0..2), each
 * computes its share (crunch_share) and the main thread joins them all.
 * The shares are unequal: one worker — a different one each round — gets
 * ten times the work of the others, so every join waits for that one
 * straggler while the others have long finished.
 *
 * True cause of the main thread's delay: the straggler running
 * (crunch_share).
 *
 * build: cc -O1 -g -fno-omit-frame-pointer -pthread pool_straggler.c -o pool-straggler
 * usage: pool-straggler SECONDS */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N_WORKERS 3

static volatile unsigned long sink;

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void __attribute__ ((noinline))
crunch_share (long units)
{
  unsigned long s = 0;
  for (long i = 0; i < units * 1000000; i++)
    s = s * 2862933555777941757UL + 3037000493UL;
  sink += s;
}

typedef struct { int index; long units; } Share;

static void *
worker (void *arg)
{
  Share *share = arg;
  char name[16];
  snprintf (name, sizeof name, "pool-w%d", share->index);
  pthread_setname_np (pthread_self (), name);
  crunch_share (share->units);
  return NULL;
}

int
main (int argc, char **argv)
{
  double deadline;
  pthread_t t[N_WORKERS];
  Share shares[N_WORKERS];
  if (argc < 2)
    return 2;
  deadline = now () + atof (argv[1]);
  pthread_setname_np (pthread_self (), "pool-main");
  for (unsigned round = 0; now () < deadline; round++)
    {
      for (int i = 0; i < N_WORKERS; i++)
        {
          shares[i].index = i;
          shares[i].units = i == (int) (round % N_WORKERS) ? 10 : 1;
          pthread_create (&t[i], NULL, worker, &shares[i]);
        }
      for (int i = 0; i < N_WORKERS; i++)
        pthread_join (t[i], NULL);
    }
  return 0;
}

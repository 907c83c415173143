/* condvar-queue workload: one producer thread (cvq-prod) computes items for
 * about 1.5 ms each (make_item) and hands each to three consumer threads
 * (cvq-c0..2) through a mutex-protected queue and a condition variable
 * (pthread_cond_signal); consumers wait in pthread_cond_wait and do a
 * little work per item.  The signaller is the slow part.
 *
 * True cause of the consumers' delay: the producer running (in make_item).
 *
 * build: cc -O1 -g -fno-omit-frame-pointer -pthread condvar_queue.c -o condvar-queue
 * usage: condvar-queue [SECONDS] */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready = PTHREAD_COND_INITIALIZER;
static unsigned long queue[64];
static int n_queued, done;
static volatile unsigned long sink;
static double deadline;

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static unsigned long __attribute__ ((noinline))
make_item (unsigned long seed)
{
  double end = now () + 0.0015;
  while (now () < end)
    for (int i = 0; i < 1000; i++)
      seed = seed * 2862933555777941757UL + 3037000493UL;
  return seed;
}

static void __attribute__ ((noinline))
use_item (unsigned long item)
{
  for (int i = 0; i < 10000; i++)
    sink += item ^ (unsigned long) i;
}

static void *
producer (void *arg)
{
  unsigned long item = 1;
  (void) arg;
  pthread_setname_np (pthread_self (), "cvq-prod");
  while (now () < deadline)
    {
      item = make_item (item);
      pthread_mutex_lock (&lock);
      if (n_queued < 64)
        queue[n_queued++] = item;
      pthread_cond_signal (&ready);
      pthread_mutex_unlock (&lock);
    }
  pthread_mutex_lock (&lock);
  done = 1;
  pthread_cond_broadcast (&ready);
  pthread_mutex_unlock (&lock);
  return NULL;
}

static void *
consumer (void *arg)
{
  char name[16];
  snprintf (name, sizeof name, "cvq-c%d", (int) (long) arg);
  pthread_setname_np (pthread_self (), name);
  for (;;)
    {
      unsigned long item;
      pthread_mutex_lock (&lock);
      while (n_queued == 0 && !done)
        pthread_cond_wait (&ready, &lock);
      if (n_queued == 0)
        {
          pthread_mutex_unlock (&lock);
          return NULL;
        }
      item = queue[--n_queued];
      pthread_mutex_unlock (&lock);
      use_item (item);
    }
}

int
main (int argc, char **argv)
{
  pthread_t p, c[3];
  deadline = now () + (argc > 1 ? atof (argv[1]) : 5.0);
  for (long i = 0; i < 3; i++)
    pthread_create (&c[i], NULL, consumer, (void *) i);
  pthread_create (&p, NULL, producer, NULL);
  pthread_join (p, NULL);
  for (int i = 0; i < 3; i++)
    pthread_join (c[i], NULL);
  return 0;
}

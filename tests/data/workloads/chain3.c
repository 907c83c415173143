/* chain3 workload: a transitive wait.  Thread ch-a sends a request to
 * thread ch-b and waits for the answer (condition variable); to answer,
 * ch-b needs a mutex that thread ch-c holds while it computes for about
 * 2 ms (crunch), letting go only briefly between rounds.
 *
 * True cause of ch-a's (and ch-b's) delay: ch-c running (in crunch) — two
 * hand-offs away from the thread that waits.
 *
 * build: cc -O1 -g -fno-omit-frame-pointer -pthread chain3.c -o chain3
 * usage: chain3 [SECONDS] */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static pthread_mutex_t resource = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t mbox = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t asked = PTHREAD_COND_INITIALIZER;
static pthread_cond_t answered = PTHREAD_COND_INITIALIZER;
static int request, answer;
static volatile unsigned long sink;
static volatile int stop;
static double deadline;

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
  double end = now () + 0.002;
  while (now () < end)
    for (int i = 0; i < 1000; i++)
      sink += (unsigned long) i * i;
}

static void __attribute__ ((noinline))
small_work (int n)
{
  for (int i = 0; i < n; i++)
    sink += (unsigned long) i;
}

/* ch-c: holds the resource while it computes. */
static void *
holder (void *arg)
{
  (void) arg;
  pthread_setname_np (pthread_self (), "ch-c");
  while (!stop)
    {
      pthread_mutex_lock (&resource);
      crunch ();
      pthread_mutex_unlock (&resource);
      small_work (2000);
      sched_yield ();
    }
  return NULL;
}

/* ch-b: answers each request once it gets the resource. */
static void *
server (void *arg)
{
  (void) arg;
  pthread_setname_np (pthread_self (), "ch-b");
  pthread_mutex_lock (&mbox);
  while (!stop)
    {
      while (request == answer && !stop)
        pthread_cond_wait (&asked, &mbox);
      pthread_mutex_unlock (&mbox);
      pthread_mutex_lock (&resource);
      small_work (5000);
      pthread_mutex_unlock (&resource);
      pthread_mutex_lock (&mbox);
      answer = request;
      pthread_cond_signal (&answered);
    }
  pthread_mutex_unlock (&mbox);
  return NULL;
}

int
main (int argc, char **argv)
{
  pthread_t b, c;
  deadline = now () + (argc > 1 ? atof (argv[1]) : 5.0);
  pthread_setname_np (pthread_self (), "ch-a");
  pthread_create (&c, NULL, holder, NULL);
  pthread_create (&b, NULL, server, NULL);
  while (now () < deadline)
    {
      pthread_mutex_lock (&mbox);
      request++;
      pthread_cond_signal (&asked);
      while (answer != request)
        pthread_cond_wait (&answered, &mbox);
      pthread_mutex_unlock (&mbox);
      small_work (10000);
    }
  stop = 1;
  pthread_mutex_lock (&mbox);
  pthread_cond_broadcast (&asked);
  pthread_mutex_unlock (&mbox);
  pthread_join (b, NULL);
  pthread_join (c, NULL);
  return 0;
}

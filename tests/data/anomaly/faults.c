/* faults workload: ground truth for the anomaly learning curve
 * (docs/anomaly-detection.md, "Measured learning").
 *
 * Three kinds of wait, each with the natural spread of real work (work and
 * the pauses between items last log-normal times) and, now and then, an
 * injected fault that makes the party the waiter depends on take 5–12
 * times longer:
 *
 * - lock:   two threads (flt-lock0, flt-lock1) take turns at one mutex; a
 *           fault holds it longer (fault_critical_section);
 * - queue:  a producer (flt-prod) hands items to a consumer (flt-cons)
 *           through a condition variable; a fault makes one item slowly
 *           (fault_produce);
 * - pipe:   a writer (flt-send) sends records down a pipe to a reader
 *           (flt-recv); a fault computes one record slowly (fault_send).
 *
 * Every fault is written, as it ends, to the episode log (argv[2]) as
 * "TID START_NS END_NS KIND NORMAL_NS" on CLOCK_MONOTONIC, the clock perf
 * records with -k CLOCK_MONOTONIC; NORMAL_NS is how long the work would
 * have lasted without the fault.  A wait is the fault's when its readier
 * was inside an episode at the wake-up and the wait spent longer inside
 * the episode than the work would have lasted: the fault, not the work,
 * kept it waiting.  That is known from the program, not from the
 * distribution of any kind of wait.
 *
 * build: cc -O1 -g -fno-omit-frame-pointer -pthread faults.c -o faults -lm
 * usage: faults SECONDS EPISODE_LOG */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* The share of work items with a fault, and how many times slower a fault
 * makes them, from the environment (FAULTS_RATE, FAULTS_MIN, FAULTS_MAX):
 * faults.perf.txt.gz was recorded with the defaults, faults-mild with
 * rarer, milder faults (record.sh says how). */
static double fault_rate = 0.05, fault_min = 5, fault_max = 12;

static double
env_or (const char *name,
        double      fallback)
{
  const char *v = getenv (name);
  return v != NULL && *v != '\0' ? atof (v) : fallback;
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t queue_ready = PTHREAD_COND_INITIALIZER;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static int n_queued;
static int pipe_fds[2];
static FILE *episodes;
static double deadline;
static volatile unsigned long sink;

static long long
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* A log-normal duration in µs around @median_us (σ = 0.4 in log). */
static double
natural_us (unsigned int *seed,
            double        median_us)
{
  double u1 = (rand_r (seed) + 1.0) / (RAND_MAX + 2.0), u2 = (rand_r (seed) + 1.0) / (RAND_MAX + 2.0);
  return median_us * exp (0.4 * sqrt (-2 * log (u1)) * cos (2 * M_PI * u2));
}

static int
is_fault (unsigned int *seed)
{
  return rand_r (seed) < fault_rate * RAND_MAX;
}

static double
fault_factor (unsigned int *seed)
{
  return fault_min + (fault_max - fault_min) * rand_r (seed) / RAND_MAX;
}

static void __attribute__ ((noinline))
compute_us (double us)
{
  long long end = now_ns () + (long long) (us * 1000);
  unsigned long x = 1;

  while (now_ns () < end)
    for (int i = 0; i < 200; i++)
      x = x * 2862933555777941757UL + 3037000493UL;
  sink += x;
}

/* Waiting for input between work items (a timer wait: no fault ever). */
static void
rest_us (double us)
{
  struct timespec ts = { 0, (long) (us * 1000) };
  nanosleep (&ts, NULL);
}

/* @normal_us: how long the work would have lasted without the fault. */
static void
log_episode (long long   start,
             const char *kind,
             double      normal_us)
{
  long long end = now_ns ();

  pthread_mutex_lock (&log_lock);
  fprintf (episodes, "%ld %lld %lld %s %lld\n", (long) syscall (SYS_gettid), start, end, kind,
           (long long) (normal_us * 1000));
  fflush (episodes);
  pthread_mutex_unlock (&log_lock);
}

static void
name_thread (const char *name)
{
  prctl (PR_SET_NAME, name);
}

/* lock */

/* Two calls deep, so that both paths to a
 * wait show the same two frames above libc: with frame-pointer unwinding
 * the frame of the function that calls into libc is lost, and the
 * signature would otherwise name the faulty caller. */
static void __attribute__ ((noinline))
acquire (void)
{
  pthread_mutex_lock (&lock);
}

static void __attribute__ ((noinline))
take_lock (void)
{
  acquire ();
}

static void __attribute__ ((noinline))
critical_section (double us)
{
  take_lock ();
  compute_us (us);
  pthread_mutex_unlock (&lock);
}

static void __attribute__ ((noinline))
fault_critical_section (double us,
                        double factor)
{
  long long start;

  take_lock ();
  start = now_ns ();
  compute_us (us * factor);
  pthread_mutex_unlock (&lock);
  log_episode (start, "lock", us);
}

static void *
lock_thread (void *arg)
{
  unsigned int seed = 100 + (unsigned int) (long) arg;
  char name[16];

  snprintf (name, sizeof name, "flt-lock%ld", (long) arg);
  name_thread (name);
  for (;;)
    {
      double hold = natural_us (&seed, 200);

      rest_us (natural_us (&seed, 400));
      if (is_fault (&seed))
        fault_critical_section (hold, fault_factor (&seed));
      else
        critical_section (hold);
    }
  return NULL;
}

/* queue */

static void __attribute__ ((noinline))
push_item (void)
{
  pthread_mutex_lock (&queue_lock);
  n_queued++;
  pthread_cond_signal (&queue_ready);
  pthread_mutex_unlock (&queue_lock);
}

static void __attribute__ ((noinline))
produce (double us)
{
  compute_us (us);
  push_item ();
}

static void __attribute__ ((noinline))
fault_produce (double us,
               double factor)
{
  long long start = now_ns ();

  compute_us (us * factor);
  push_item ();
  log_episode (start, "queue", us);
}

static void *
producer_thread (void *arg)
{
  unsigned int seed = 200;

  name_thread ("flt-prod");
  for (;;)
    {
      double us = natural_us (&seed, 200);

      rest_us (natural_us (&seed, 400));
      if (is_fault (&seed))
        fault_produce (us, fault_factor (&seed));
      else
        produce (us);
    }
  return arg;
}

static void __attribute__ ((noinline))
pop_item (void)
{
  pthread_mutex_lock (&queue_lock);
  while (n_queued == 0)
    pthread_cond_wait (&queue_ready, &queue_lock);
  n_queued--;
  pthread_mutex_unlock (&queue_lock);
}

static void *
consumer_thread (void *arg)
{
  unsigned int seed = 300;

  name_thread ("flt-cons");
  for (;;)
    {
      pop_item ();
      compute_us (natural_us (&seed, 100));
    }
  return arg;
}

/* pipe */

static void __attribute__ ((noinline))
send_record (double us)
{
  char record[64] = "record";

  compute_us (us);
  if (write (pipe_fds[1], record, sizeof record) != sizeof record)
    abort ();
}

static void __attribute__ ((noinline))
fault_send (double us,
            double factor)
{
  long long start = now_ns ();

  send_record (us * factor);
  log_episode (start, "pipe", us);
}

static void *
sender_thread (void *arg)
{
  unsigned int seed = 400;

  name_thread ("flt-send");
  for (;;)
    {
      double us = natural_us (&seed, 200);

      rest_us (natural_us (&seed, 400));
      if (is_fault (&seed))
        fault_send (us, fault_factor (&seed));
      else
        send_record (us);
    }
  return arg;
}

static void __attribute__ ((noinline))
receive_record (void)
{
  char record[64];

  if (read (pipe_fds[0], record, sizeof record) != sizeof record)
    abort ();
}

static void *
receiver_thread (void *arg)
{
  unsigned int seed = 500;

  name_thread ("flt-recv");
  for (;;)
    {
      receive_record ();
      compute_us (natural_us (&seed, 50));
    }
  return arg;
}

int
main (int argc,
      char **argv)
{
  pthread_t t;

  if (argc < 3)
    {
      fprintf (stderr, "usage: faults SECONDS EPISODE_LOG\n");
      return 2;
    }
  deadline = atof (argv[1]);
  fault_rate = env_or ("FAULTS_RATE", fault_rate);
  fault_min = env_or ("FAULTS_MIN", fault_min);
  fault_max = env_or ("FAULTS_MAX", fault_max);
  episodes = fopen (argv[2], "w");
  if (episodes == NULL || pipe (pipe_fds) != 0)
    return 1;
  for (long i = 0; i < 2; i++)
    pthread_create (&t, NULL, lock_thread, (void *) i);
  pthread_create (&t, NULL, producer_thread, NULL);
  pthread_create (&t, NULL, consumer_thread, NULL);
  pthread_create (&t, NULL, sender_thread, NULL);
  pthread_create (&t, NULL, receiver_thread, NULL);
  sleep ((unsigned int) deadline);
  return 0;
}

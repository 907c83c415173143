/* relay workload: a second, different program with injected faults, for
 * the anomaly learning curve (docs/anomaly-detection.md, "Measured
 * learning"; faults.c is the first).
 *
 * Three kinds of wait, on other primitives than faults.c's, each with the
 * natural spread of real work (log-normal work and pauses) and, now and
 * then, an injected fault that makes the party the waiter depends on take
 * 4–10 times longer:
 *
 * - slots:  a dispatcher (rly-disp) hands jobs to a worker (rly-work)
 *           through a POSIX semaphore; a fault prepares one job slowly
 *           (fault_prepare);
 * - table:  a writer (rly-write) updates a table under the write side of
 *           a rwlock that a reader (rly-read) takes to read now and then; a fault holds
 *           the write lock longer (fault_update);
 * - socket: a server (rly-serve) answers a client (rly-ask) over a
 *           socketpair, the client waiting in poll(); a fault computes one
 *           answer slowly (fault_answer).
 *
 * Every fault is written, as it ends, to the episode log (argv[2]) as
 * "TID START_NS END_NS KIND NORMAL_NS" on CLOCK_MONOTONIC, as faults.c
 * does: NORMAL_NS is how long the work would have lasted without the
 * fault.
 *
 * build: cc -O1 -g -fno-omit-frame-pointer -pthread relay.c -o relay -lm
 * usage: relay SECONDS EPISODE_LOG   (FAULTS_RATE, FAULTS_MIN, FAULTS_MAX:
 *        default 0.05, 4, 10) */
#define _GNU_SOURCE
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double fault_rate = 0.05, fault_min = 4, fault_max = 10;
static sem_t jobs, room;
static pthread_rwlock_t table = PTHREAD_RWLOCK_INITIALIZER;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static int sock[2];
static FILE *episodes;
static double deadline;
static volatile unsigned long sink;
static volatile long cells[64];

static double
env_or (const char *name,
        double      fallback)
{
  const char *v = getenv (name);
  return v != NULL && *v != '\0' ? atof (v) : fallback;
}

static long long
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static double
uniform (unsigned int *seed)
{
  return (rand_r (seed) + 1.0) / ((double) RAND_MAX + 2.0);
}

/* A log-normal duration in microseconds around @median. */
static long
lognormal_us (unsigned int *seed,
              double        median,
              double        sigma)
{
  double z = sqrt (-2 * log (uniform (seed))) * cos (2 * M_PI * uniform (seed));
  return (long) (median * exp (sigma * z));
}

/* Work on the CPU for @us microseconds (busy, so the waiter's wait is
 * this thread's work, not a timer). */
static void
spin_us (long us)
{
  long long end = now_ns () + us * 1000LL;
  while (now_ns () < end)
    sink++;
}

static void
log_episode (long long   start,
             const char *kind,
             long        normal_us)
{
  long long end = now_ns ();

  pthread_mutex_lock (&log_lock);
  fprintf (episodes, "%ld %lld %lld %s %lld\n", (long) syscall (SYS_gettid), start, end, kind,
           normal_us * 1000LL);
  fflush (episodes);
  pthread_mutex_unlock (&log_lock);
}

static long
fault_factor_us (unsigned int *seed,
                 long          us)
{
  return (long) (us * (fault_min + (fault_max - fault_min) * uniform (seed)));
}

/* Each fault ends with the hand-off that wakes the waiter, and is logged
 * after it, so that the wake-up lies inside the episode (as in faults.c). */
static void __attribute__ ((noinline))
fault_prepare (unsigned int *seed,
               long          us)
{
  long long start = now_ns ();
  spin_us (fault_factor_us (seed, us));
  sem_post (&jobs);
  log_episode (start, "slots", us);
}

static void __attribute__ ((noinline))
fault_update (unsigned int *seed,
              long          us)
{
  long long start = now_ns ();
  spin_us (fault_factor_us (seed, us));
  pthread_rwlock_unlock (&table);
  log_episode (start, "table", us);
}

static int __attribute__ ((noinline))
fault_answer (unsigned int *seed,
              long          us,
              char          c)
{
  long long start = now_ns ();
  int ok;

  spin_us (fault_factor_us (seed, us));
  ok = write (sock[1], &c, 1) == 1;
  log_episode (start, "socket", us);
  return ok;
}

static int
running (void)
{
  return now_ns () / 1e9 < deadline;
}

static void *
dispatcher (void *data)
{
  unsigned int seed = 11;

  prctl (PR_SET_NAME, "rly-disp");
  while (running ())
    {
      long us = lognormal_us (&seed, 200, 0.3);

      sem_wait (&room);
      if (uniform (&seed) < fault_rate)
        fault_prepare (&seed, us);
      else
        {
          spin_us (us);
          sem_post (&jobs);
        }
      usleep (lognormal_us (&seed, 400, 0.4));
    }
  sem_post (&jobs);
  return data;
}

static void __attribute__ ((noinline))
take_job (void)
{
  sem_wait (&jobs);
}

static void *
worker (void *data)
{
  unsigned int seed = 12;

  prctl (PR_SET_NAME, "rly-work");
  while (running ())
    {
      take_job ();
      sem_post (&room);
      spin_us (lognormal_us (&seed, 80, 0.3));
    }
  return data;
}

static void *
writer (void *data)
{
  unsigned int seed = 13;

  prctl (PR_SET_NAME, "rly-write");
  while (running ())
    {
      long us = lognormal_us (&seed, 250, 0.3);

      pthread_rwlock_wrlock (&table);
      cells[seed % 64]++;
      if (uniform (&seed) < fault_rate)
        fault_update (&seed, us);
      else
        {
          spin_us (us);
          pthread_rwlock_unlock (&table);
        }
      usleep (lognormal_us (&seed, 500, 0.4));
    }
  return data;
}

static void __attribute__ ((noinline))
read_table (unsigned int *seed)
{
  long sum = 0;

  pthread_rwlock_rdlock (&table);
  for (int i = 0; i < 64; i++)
    sum += cells[i];
  sink += sum;
  pthread_rwlock_unlock (&table);
  spin_us (lognormal_us (seed, 20, 0.3));
  usleep (lognormal_us (seed, 150, 0.4));
}

static void *
reader (void *data)
{
  unsigned int seed = 14;

  prctl (PR_SET_NAME, "rly-read");
  while (running ())
    read_table (&seed);
  return data;
}

static void *
server (void *data)
{
  unsigned int seed = 15;
  char c;

  prctl (PR_SET_NAME, "rly-serve");
  while (read (sock[1], &c, 1) == 1)
    {
      long us = lognormal_us (&seed, 200, 0.3);

      if (uniform (&seed) < fault_rate)
        {
          if (!fault_answer (&seed, us, c))
            break;
        }
      else
        {
          spin_us (us);
          if (write (sock[1], &c, 1) != 1)
            break;
        }
    }
  return data;
}

static void __attribute__ ((noinline))
await_answer (void)
{
  struct pollfd p = { sock[0], POLLIN, 0 };
  char c;

  poll (&p, 1, -1);
  if (read (sock[0], &c, 1) != 1)
    abort ();
}

static void *
client (void *data)
{
  unsigned int seed = 16;
  char c = 'q';

  prctl (PR_SET_NAME, "rly-ask");
  while (running ())
    {
      if (write (sock[0], &c, 1) != 1)
        break;
      await_answer ();
      usleep (lognormal_us (&seed, 400, 0.4));
    }
  shutdown (sock[0], SHUT_RDWR);
  return data;
}

int
main (int    argc,
      char **argv)
{
  void *(*bodies[]) (void *) = { dispatcher, worker, writer, reader, server, client };
  pthread_t threads[6];

  if (argc != 3)
    {
      fprintf (stderr, "usage: relay SECONDS EPISODE_LOG\n");
      return 2;
    }
  fault_rate = env_or ("FAULTS_RATE", fault_rate);
  fault_min = env_or ("FAULTS_MIN", fault_min);
  fault_max = env_or ("FAULTS_MAX", fault_max);
  episodes = fopen (argv[2], "w");
  if (episodes == NULL || socketpair (AF_UNIX, SOCK_STREAM, 0, sock) != 0)
    return 1;
  sem_init (&jobs, 0, 0);
  sem_init (&room, 0, 1);
  deadline = now_ns () / 1e9 + atof (argv[1]);
  for (unsigned i = 0; i < sizeof bodies / sizeof bodies[0]; i++)
    pthread_create (&threads[i], NULL, bodies[i], NULL);
  for (unsigned i = 0; i < sizeof bodies / sizeof bodies[0]; i++)
    if (bodies[i] != server)
      pthread_join (threads[i], NULL);
  return 0;
}

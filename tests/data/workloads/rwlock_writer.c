/* rwlock-writer workload: two reader threads (rw-r0, rw-r1) hold a
 * pthread rwlock for reading while they scan (scan_table, about 3 ms),
 * a writer thread (rw-w) takes it for writing every millisecond to update
 * one entry.  The lock prefers writers, so the writer waits for the
 * readers in the lock to finish and new readers wait behind it.
 *
 * True cause of the writer's (and readers') delay: the readers running
 * under the lock (scan_table).
 *
 * build: cc -O1 -g -fno-omit-frame-pointer -pthread rwlock_writer.c -o rwlock-writer
 * usage: rwlock-writer SECONDS */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static pthread_rwlock_t lock;
static double deadline;
static volatile unsigned long table[1024];
static volatile unsigned long sink;

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void __attribute__ ((noinline))
scan_table (void)
{
  unsigned long s = 0;
  for (long i = 0; i < 6000000; i++)
    s = s * 31 + table[i & 1023];
  sink += s;
}

static void *
reader (void *arg)
{
  char name[16];
  snprintf (name, sizeof name, "rw-r%d", (int) (long) arg);
  pthread_setname_np (pthread_self (), name);
  while (now () < deadline)
    {
      pthread_rwlock_rdlock (&lock);
      scan_table ();
      pthread_rwlock_unlock (&lock);
    }
  return NULL;
}

static void *
writer (void *arg)
{
  struct timespec pause = { 0, 1000000 };
  (void) arg;
  pthread_setname_np (pthread_self (), "rw-w");
  for (unsigned long i = 0; now () < deadline; i++)
    {
      pthread_rwlock_wrlock (&lock);
      table[i & 1023] = i;
      pthread_rwlock_unlock (&lock);
      nanosleep (&pause, NULL);
    }
  return NULL;
}

int
main (int argc, char **argv)
{
  pthread_t t[3];
  pthread_rwlockattr_t attr;
  if (argc < 2)
    return 2;
  deadline = now () + atof (argv[1]);
  pthread_rwlockattr_init (&attr);
  pthread_rwlockattr_setkind_np (&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
  pthread_rwlock_init (&lock, &attr);
  pthread_create (&t[0], NULL, reader, (void *) 0L);
  pthread_create (&t[1], NULL, reader, (void *) 1L);
  pthread_create (&t[2], NULL, writer, NULL);
  for (int i = 0; i < 3; i++)
    pthread_join (t[i], NULL);
  return 0;
}

/* flock-hold workload: three processes of one program (flock-hold) take
 * an exclusive flock on one lock file in turn; each computes under the
 * lock (update_under_lock, about 2 ms) and a little outside it (compute).  The
 * kernel wakes the next waiter when the holder unlocks.
 *
 * True cause of each process's delay: the lock holder — another process —
 * running (update_under_lock).
 *
 * build: cc -O1 -g -fno-omit-frame-pointer -pthread flock_hold.c -o flock-hold
 * usage: flock-hold SECONDS LOCKFILE */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define N_PROCS 3

static volatile unsigned long sink;

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void __attribute__ ((noinline))
compute (long n)
{
  unsigned long s = 0;
  for (long i = 0; i < n; i++)
    s = s * 2862933555777941757UL + 3037000493UL;
  sink += s;
}

static void __attribute__ ((noinline))
update_under_lock (void)
{
  unsigned long s = 0;
  for (long i = 0; i < 4000000; i++)
    s = s * 6364136223846793005UL + 1442695040888963407UL;
  sink += s;
}

static void
run (const char *path, double deadline)
{
  int fd = open (path, O_RDWR | O_CREAT, 0600);
  prctl (PR_SET_PDEATHSIG, SIGKILL);   /* stopped with the parent */
  if (fd < 0)
    _exit (1);
  while (now () < deadline)
    {
      flock (fd, LOCK_EX);
      update_under_lock ();
      flock (fd, LOCK_UN);
      compute (200000);
    }
  _exit (0);
}

int
main (int argc, char **argv)
{
  double deadline;
  if (argc < 3)
    return 2;
  deadline = now () + atof (argv[1]);
  for (int i = 0; i < N_PROCS; i++)
    if (fork () == 0)
      run (argv[2], deadline);
  while (wait (NULL) > 0)
    ;
  return 0;
}

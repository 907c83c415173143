/* pipe-producer workload: two processes joined by a pipe.  The producer
 * process (pipe-prod) computes each 64-byte record for about 2 ms
 * (produce_record), then writes it; the consumer process (pipe-cons) reads
 * the records and does a little work on each.
 *
 * True cause of the consumer's delay: the producer running (computing in
 * produce_record) — another program's CPU work, not a lock.
 *
 * build: cc -O1 -g -fno-omit-frame-pointer pipe_producer.c -o pipe-producer
 * usage: pipe-producer [SECONDS] */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void __attribute__ ((noinline))
produce_record (unsigned long *rec)
{
  double end = now () + 0.002;
  unsigned long h = rec[0] + 1;
  while (now () < end)
    for (int i = 0; i < 1000; i++)
      h = h * 6364136223846793005UL + 1442695040888963407UL;
  for (int i = 0; i < 8; i++)
    rec[i] = h + i;
}

static void __attribute__ ((noinline))
consume_record (const unsigned long *rec)
{
  for (int i = 0; i < 20000; i++)
    sink += rec[i & 7] ^ (unsigned long) i;
}

int
main (int argc, char **argv)
{
  double deadline = now () + (argc > 1 ? atof (argv[1]) : 5.0);
  unsigned long rec[8] = { 0 };
  int fds[2];
  pid_t child;

  if (pipe (fds) != 0)
    return 1;
  child = fork ();
  if (child == 0)
    {
      prctl (PR_SET_NAME, "pipe-prod");
      close (fds[0]);
      while (now () < deadline)
        {
          produce_record (rec);
          if (write (fds[1], rec, sizeof rec) != sizeof rec)
            break;
        }
      return 0;
    }
  prctl (PR_SET_NAME, "pipe-cons");
  close (fds[1]);
  while (read (fds[0], rec, sizeof rec) == sizeof rec)
    consume_record (rec);
  waitpid (child, NULL, 0);
  return 0;
}

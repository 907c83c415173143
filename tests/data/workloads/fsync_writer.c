/* fsync-writer workload: 3 threads append 4 KiB records to one log file
 * under a pthread mutex and fsync() it before releasing the mutex (a
 * serialised commit log).
 *
 * True cause of the threads' delay: the holder's fsync waiting for the disk
 * (uninterruptible, in fsync ← append_record).
 *
 * build: cc -O1 -g -fno-omit-frame-pointer -pthread fsync_writer.c -o fsync-writer
 * usage: fsync-writer SECONDS FILE */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static double deadline;
static int fd;

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void __attribute__ ((noinline))
append_record (const char *rec)
{
  pthread_mutex_lock (&lock);
  if (write (fd, rec, 4096) != 4096 || fsync (fd) != 0)
    perror ("append");
  pthread_mutex_unlock (&lock);
}

static void *
worker (void *arg)
{
  char name[16], rec[4096];
  snprintf (name, sizeof name, "fsw-w%d", (int) (long) arg);
  pthread_setname_np (pthread_self (), name);
  memset (rec, 'a' + (int) (long) arg, sizeof rec);
  while (now () < deadline)
    append_record (rec);
  return NULL;
}

int
main (int argc, char **argv)
{
  pthread_t t[3];
  if (argc < 3)
    return 2;
  deadline = now () + atof (argv[1]);
  fd = open (argv[2], O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd < 0)
    return 1;
  for (long i = 0; i < 3; i++)
    pthread_create (&t[i], NULL, worker, (void *) i);
  for (int i = 0; i < 3; i++)
    pthread_join (t[i], NULL);
  close (fd);
  return 0;
}

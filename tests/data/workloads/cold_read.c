/* cold-read workload: one thread (cold-r0) reads 4 KiB blocks
 * at random offsets of a large file whose pages are not in the page cache
 * (record.sh evicts its pages first; POSIX_FADV_RANDOM turns read-ahead
 * off) and does a little work on each block (checksum).
 *
 * True cause of the reader's delay: the disk — uninterruptible waits in
 * pread (the page-cache miss), woken by the I/O completion.
 *
 * build: cc -O1 -g -fno-omit-frame-pointer -pthread cold_read.c -o cold-read
 * usage: cold-read SECONDS FILE */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define BLOCK 4096

static double deadline;
static int fd;
static off_t n_blocks;
static volatile unsigned long sink;

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void __attribute__ ((noinline))
checksum (const unsigned char *buf, size_t n)
{
  unsigned long s = 0;
  for (size_t i = 0; i < n; i += 64)   /* one byte per cache line: cheap */
    s = s * 31 + buf[i];
  sink += s;
}

static void __attribute__ ((noinline))
read_block (unsigned char *buf, unsigned int *seed)
{
  off_t block = (off_t) (rand_r (seed) % n_blocks);
  if (pread (fd, buf, BLOCK, block * BLOCK) != BLOCK)
    perror ("pread");
}

static void *
reader (void *arg)
{
  unsigned char buf[BLOCK];
  unsigned int seed = 12345 + (unsigned int) (long) arg;
  char name[16];
  snprintf (name, sizeof name, "cold-r%d", (int) (long) arg);
  pthread_setname_np (pthread_self (), name);
  while (now () < deadline)
    {
      read_block (buf, &seed);
      checksum (buf, sizeof buf);
    }
  return NULL;
}

int
main (int argc, char **argv)
{
  pthread_t t[1];
  struct stat st;
  if (argc < 3)
    return 2;
  deadline = now () + atof (argv[1]);
  fd = open (argv[2], O_RDONLY);
  if (fd < 0 || fstat (fd, &st) != 0 || st.st_size < BLOCK)
    return 1;
  n_blocks = st.st_size / BLOCK;
  posix_fadvise (fd, 0, 0, POSIX_FADV_RANDOM);
  for (long i = 0; i < 1; i++)
    pthread_create (&t[i], NULL, reader, (void *) i);
  for (int i = 0; i < 1; i++)
    pthread_join (t[i], NULL);
  return 0;
}

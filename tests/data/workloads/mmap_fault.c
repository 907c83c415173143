/* mmap-fault workload: one thread (mmf-r0) maps a large file that is not
 * in the page cache (record.sh evicts its pages first; MADV_RANDOM turns
 * fault-around read-ahead off) and reads one byte of a random page after
 * another (touch_page): every first touch is a major page fault.
 *
 * True cause of the reader's delay: the disk — uninterruptible waits in
 * the page fault (filemap_fault), woken by the I/O completion; there is
 * no system call on the stack, only the instruction that touched the page.
 *
 * build: cc -O1 -g -fno-omit-frame-pointer -pthread mmap_fault.c -o mmap-fault
 * usage: mmap-fault SECONDS FILE */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096

static double deadline;
static const unsigned char *map;
static size_t n_pages;
static volatile unsigned long sink;

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void __attribute__ ((noinline))
touch_page (unsigned int *seed)
{
  size_t page = (size_t) rand_r (seed) % n_pages;
  sink += map[page * PAGE + (page % 64) * 64];
}

static void *
reader (void *arg)
{
  unsigned int seed = 4321 + (unsigned int) (long) arg;
  char name[16];
  snprintf (name, sizeof name, "mmf-r%d", (int) (long) arg);
  pthread_setname_np (pthread_self (), name);
  while (now () < deadline)
    touch_page (&seed);
  return NULL;
}

int
main (int argc, char **argv)
{
  pthread_t t;
  struct stat st;
  int fd;
  if (argc < 3)
    return 2;
  deadline = now () + atof (argv[1]);
  fd = open (argv[2], O_RDONLY);
  if (fd < 0 || fstat (fd, &st) != 0 || st.st_size < PAGE)
    return 1;
  n_pages = (size_t) st.st_size / PAGE;
  map = mmap (NULL, (size_t) st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (map == MAP_FAILED)
    return 1;
  madvise ((void *) map, (size_t) st.st_size, MADV_RANDOM);
  pthread_create (&t, NULL, reader, (void *) 0L);
  pthread_join (t, NULL);
  return 0;
}

/* hog: an unrelated CPU-bound process (spin_forever) that never waits,
 * run beside the known-cause workloads to keep the machine busy.
 * build: cc -O1 -g -fno-omit-frame-pointer hog.c -o hog */
#include <stdlib.h>

static volatile unsigned long sink;

static void __attribute__ ((noinline))
spin_forever (void)
{
  for (unsigned long i = 0;; i++)
    sink += i * i;
}

int
main (void)
{
  spin_forever ();
  return 0;
}

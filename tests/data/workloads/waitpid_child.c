/* The parent forks a child per item and waits for it; each child computes
 * ~4 ms (child_crunch) and exits.  Known cause of the parent's waits: the
 * child running child_crunch.  usage: waitpid-child COUNT (ignored: stopped
 * by record.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
static volatile double sink;
__attribute__((noinline)) static void child_crunch (void)
{
  double x = 0;
  for (long i = 0; i < 4000000; i++) x += (double) i * 1e-9;
  sink = x;
}
int main (void)
{
  prctl (PR_SET_NAME, "wp-parent");
  for (;;) {
    pid_t p = fork ();
    if (p == 0) { prctl (PR_SET_NAME, "wp-child"); child_crunch (); _exit (0); }
    int st; waitpid (p, &st, 0);
  }
}

/* Two processes share a semaphore pair in shared memory.  sem-post writes
 * 4 KiB and fdatasyncs it, then posts; sem-wait waits for each record and
 * acknowledges.  usage: sem-fsync COUNT FILE (COUNT ignored: stopped by
 * record.sh).  Known cause of sem-wait's waits: sem-post's fdatasync (D). */
#include <fcntl.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>
int main (int argc, char **argv)
{
  sem_t *s = mmap (NULL, 2 * sizeof (sem_t), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  sem_init (&s[0], 1, 0); sem_init (&s[1], 1, 1);
  if (fork () == 0) {
    prctl (PR_SET_NAME, "sem-wait");
    for (;;) { sem_wait (&s[0]); sem_post (&s[1]); }
  }
  prctl (PR_SET_NAME, "sem-post");
  int fd = open (argc > 2 ? argv[2] : "/var/tmp/sem-fsync.dat", O_WRONLY | O_CREAT | O_TRUNC, 0600);
  char buf[4096]; memset (buf, 'x', sizeof buf);
  for (;;) { sem_wait (&s[1]); write (fd, buf, sizeof buf); fdatasync (fd); sem_post (&s[0]); }
}

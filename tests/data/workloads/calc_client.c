/* calc-client: connects to calc-server, sends 20 requests one after
 * another and waits for each reply (wait_reply), then exits; the sh-client
 * workload's shell loop starts it again at once.
 *
 * build: cc -O1 -g -fno-omit-frame-pointer calc_client.c -o calc-client
 * usage: calc-client SOCKET */
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static int __attribute__ ((noinline))
wait_reply (int s, char *buf)
{
  return read (s, buf, 64) == 64;
}

int
main (int argc, char **argv)
{
  struct sockaddr_un a = { .sun_family = AF_UNIX };
  int s = socket (AF_UNIX, SOCK_STREAM, 0);
  char buf[64];

  if (argc < 2)
    return 2;
  snprintf (a.sun_path, sizeof a.sun_path, "%s", argv[1]);
  if (connect (s, (struct sockaddr *) &a, sizeof a) != 0)
    {
      perror ("calc-client");
      return 1;
    }
  for (int i = 0; i < 20; i++)
    {
      memset (buf, i, sizeof buf);
      if (write (s, buf, sizeof buf) != sizeof buf || !wait_reply (s, buf))
        return 1;
    }
  return 0;
}

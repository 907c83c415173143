/* calc-server: answers each 64-byte request on a UNIX stream socket after
 * computing ~2 ms (compute_reply), one client at a time.  Used by the
 * sh-client workload (record.sh): a shell loop starts calc-client again
 * and again, each run sends 20 requests and waits for every reply.
 *
 * True cause of the clients' delay: the server running compute_reply.
 *
 * build: cc -O1 -g -fno-omit-frame-pointer calc_server.c -o calc-server
 * usage: calc-server SOCKET */
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static volatile double sink;

static void __attribute__ ((noinline))
compute_reply (char *buf)
{
  double x = buf[0];
  for (long i = 0; i < 800000; i++)
    x = x * 1.0000001 + 1e-9;
  sink = x;
  buf[1] = (char) x;
}

int
main (int argc, char **argv)
{
  struct sockaddr_un a = { .sun_family = AF_UNIX };
  int s = socket (AF_UNIX, SOCK_STREAM, 0);

  if (argc < 2)
    return 2;
  snprintf (a.sun_path, sizeof a.sun_path, "%s", argv[1]);
  unlink (argv[1]);
  if (bind (s, (struct sockaddr *) &a, sizeof a) != 0 || listen (s, 8) != 0)
    {
      perror ("calc-server");
      return 1;
    }
  for (;;)
    {
      char buf[64];
      int c = accept (s, NULL, NULL);
      while (c >= 0 && read (c, buf, sizeof buf) == sizeof buf)
        {
          compute_reply (buf);
          if (write (c, buf, sizeof buf) != sizeof buf)
            break;
        }
      close (c);
    }
}

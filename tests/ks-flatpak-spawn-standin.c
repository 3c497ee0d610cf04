/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-flatpak-spawn-standin.c: a stand-in `flatpak-spawn` for
 * test-toolchain-flatpak.c, which links it into a folder first on PATH as
 * flatpak-spawn.
 *
 * It behaves as flatpak-spawn --host and Flatpak's session helper do
 * together (flatpak-xdg-utils' src/flatpak-spawn.c, flatpak's
 * session-helper/flatpak-session-helper.c), so that the toolchain cannot
 * pass by relying on what the real one would not do:
 * - options are the leading arguments that start with '-', and the first
 *   that does not is the command; --host, --watch-bus, --clear-env,
 *   --directory=DIR and --env=VAR=VALUE are known, anything else is an
 *   error; without --host it refuses (only --host is emulated);
 * - the "host" program gets the host's environment, not ours: PATH from
 *   KS_STANDIN_HOST_PATH, HOME and nothing else, then the --env values;
 * - it runs in DIR (by default our current folder), in a session and
 *   process group of its own (setsid), so a signal to our process group
 *   does not reach it;
 * - SIGINT, SIGCONT and SIGTSTP are forwarded to its process group, SIGHUP,
 *   SIGQUIT, SIGTERM, SIGUSR1 and SIGUSR2 to it alone; SIGKILL cannot be;
 * - the exit status is the program's, or 128 + the signal that ended it; a
 *   program that cannot start gives "Portal call failed: ..." and status 1.
 * What it does not emulate: the bus, so --watch-bus changes nothing.
 *
 * Each call is appended to the file KS_STANDIN_SPAWN_LOG as one line, the
 * arguments (from argv[1]) separated by tabs.  KS_STANDIN_SPAWN_DENY=1
 * makes it fail as it does without the permission to talk to
 * org.freedesktop.Flatpak. */

#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile pid_t child;

static void
forward (int sig)
{
  if (child <= 0)
    return;
  if (sig == SIGINT || sig == SIGCONT || sig == SIGTSTP)
    kill (-child, sig == SIGTSTP ? SIGSTOP : sig);
  else
    kill (child, sig);
}

static void
log_call (int    argc,
          char **argv)
{
  const char *path = getenv ("KS_STANDIN_SPAWN_LOG");
  FILE *f;

  if (path == NULL || (f = fopen (path, "a")) == NULL)
    return;
  for (int i = 1; i < argc; i++)
    fprintf (f, "%s%s", i > 1 ? "\t" : "", argv[i]);
  fputc ('\n', f);
  fclose (f);
}

int
main (int    argc,
      char **argv)
{
  static const int forwarded[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGCONT, SIGTSTP, SIGUSR1,
                                   SIGUSR2 };
  const char *directory = NULL, *deny = getenv ("KS_STANDIN_SPAWN_DENY");
  const char *host_path = getenv ("KS_STANDIN_HOST_PATH");
  const char *home = getenv ("HOME");
  char *envs[64];
  int n_envs = 0, host = 0, i, report[2], status, err = 0;

  log_call (argc, argv);
  for (i = 1; i < argc && argv[i][0] == '-'; i++)
    {
      if (strcmp (argv[i], "--host") == 0)
        host = 1;
      else if (strcmp (argv[i], "--watch-bus") == 0 || strcmp (argv[i], "--clear-env") == 0)
        continue;
      else if (strncmp (argv[i], "--directory=", 12) == 0)
        directory = argv[i] + 12;
      else if (strncmp (argv[i], "--env=", 6) == 0 && argv[i][6] != '\0' && argv[i][6] != '='
               && strchr (argv[i] + 6, '=') != NULL && n_envs < 64)
        envs[n_envs++] = argv[i] + 6;
      else
        {
          fprintf (stderr, "flatpak-spawn: Unknown option %s\n", argv[i]);
          return 1;
        }
    }
  if (i == argc)
    {
      fprintf (stderr, "flatpak-spawn: No command specified\n");
      return 1;
    }
  if (!host)
    {
      fprintf (stderr, "flatpak-spawn stand-in: only --host is emulated\n");
      return 1;
    }
  if (deny != NULL && strcmp (deny, "1") == 0)
    {
      fprintf (stderr, "Portal call failed: org.freedesktop.DBus.Error.ServiceUnknown: The name "
                       "org.freedesktop.Flatpak was not provided by any .service files\n");
      return 1;
    }

  /* Before the program starts, so that no signal it could be sent finds
   * the default action here (the child puts the defaults back) */
  for (size_t s = 0; s < sizeof forwarded / sizeof forwarded[0]; s++)
    signal (forwarded[s], forward);
  /* The child tells, through a pipe closed on exec, why it could not start */
  if (pipe2 (report, O_CLOEXEC) != 0)
    return 1;
  child = fork ();
  if (child < 0)
    return 1;
  if (child == 0)
    {
      sigset_t none;

      sigemptyset (&none);
      sigprocmask (SIG_SETMASK, &none, NULL);
      for (int s = 1; s < NSIG; s++)
        if (s != SIGKILL && s != SIGSTOP)
          signal (s, SIG_DFL);
      setsid ();
      clearenv ();
      setenv ("PATH", host_path != NULL ? host_path : "/usr/bin:/bin", 1);
      if (home != NULL)
        setenv ("HOME", home, 1);
      for (int e = 0; e < n_envs; e++)
        {
          char *eq = strchr (envs[e], '=');

          *eq = '\0';
          setenv (envs[e], eq + 1, 1);
        }
      if (directory != NULL && chdir (directory) != 0)
        err = errno;
      else
        {
          execvp (argv[i], argv + i);
          err = errno;
        }
      if (write (report[1], &err, sizeof err) != (ssize_t) sizeof err)
        _exit (126);
      _exit (127);
    }
  close (report[1]);
  if (read (report[0], &err, sizeof err) == (ssize_t) sizeof err)
    {
      waitpid (child, NULL, 0);
      fprintf (stderr, "Portal call failed: Failed to start command: %s “%s”: %s\n",
               directory != NULL && err == ENOENT ? "Failed to change to directory or execute"
               : "Failed to execute child process", argv[i], strerror (err));
      return 1;
    }
  close (report[0]);

  while (waitpid (child, &status, 0) < 0)
    if (errno != EINTR)
      return 1;
  if (WIFEXITED (status))
    return WEXITSTATUS (status);
  return 128 + WTERMSIG (status);
}

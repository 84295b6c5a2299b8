/* env.h: a variable of pmuprof's environment. */
#ifndef PMUPROF_ENV_H
#define PMUPROF_ENV_H

/* getenv(name): the value of the first NAME=value of environ, NULL when there is none.
 * Its own scan (issue 16): getenv is one more libc function for the dynamic loader to look up
 * on a run's first call (some 800 instructions in the arm64 guest); environ is bound anyway,
 * for the command's exec. */
const char *env_get(const char *name);

#endif

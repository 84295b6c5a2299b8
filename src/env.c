/* env.c: a variable of pmuprof's environment, read from environ. */
#include <stddef.h>

#include "env.h"

extern char **environ;

const char *env_get(const char *name)
{
	for (char **e = environ; e && *e; e++) {
		const char *v = *e, *n = name;

		while (*n && *v == *n)
			v++, n++;
		if (!*n && *v == '=')
			return v + 1;
	}
	return NULL;
}

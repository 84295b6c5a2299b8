/* msg.c: the one place messages to the user are printed, in git's style:
 * "pmuprof: cannot X 'subject': cause (the way out)". */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "jsonlib.h"

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "pmuprof: %s", prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void msg_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

void msg_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

const char *msg_clip(const char *s, char *buf, size_t len)
{
	if (strlen(s) < len)
		return s;
	snprintf(buf, len, "%.*s...", (int)(len - 4), s);
	return buf;
}

int msg_json_ready(void)
{
	char why[256];

	if (jsonlib_load(why, sizeof(why)) == PP_OK)
		return 0;
	msg_error("cannot read or write JSON: %s (install libcjson1)", why);
	return -1;
}

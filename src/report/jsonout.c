/* SPDX-License-Identifier: Apache-2.0 */
/* jsonout.c: prints a JSON document once from its cJSON tree and frees the tree. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "jsonout.h"

/* cJSON_PrintBuffered's first buffer; it grows as needed */
#define COMPACT_PREBUFFER (64 * 1024)

int jsonout_emit(cJSON *root, FILE *out, enum jsonout_style style)
{
	char *text = NULL;
	int rc = -1;

	if (root)
		text = style == JSONOUT_COMPACT ? cJSON_PrintBuffered(root, COMPACT_PREBUFFER, 0)
						: cJSON_Print(root);
	cJSON_Delete(root);
	if (text) {
		fputs(text, out);
		fputc('\n', out);
		rc = ferror(out) ? -1 : 0;
	}
	free(text);
	return rc;
}

cJSON *jsonout_hex(uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	return cJSON_CreateString(buf);
}

cJSON *jsonout_str_or_null(const char *s)
{
	return s && *s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

cJSON *jsonout_num(double v)
{
	return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

cJSON *jsonout_exclude(int user, int kernel, int hv, int host, int guest)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddBoolToObject(o, "user", user);
	cJSON_AddBoolToObject(o, "kernel", kernel);
	cJSON_AddBoolToObject(o, "hv", hv);
	cJSON_AddBoolToObject(o, "host", host);
	cJSON_AddBoolToObject(o, "guest", guest);
	return o;
}

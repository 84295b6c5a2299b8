/* jsonout.c: prints a JSON document once from its cJSON tree and frees the tree. */
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

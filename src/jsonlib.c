/* jsonlib.c: owns libcjson: dlopen("libcjson.so.1") on first use, and the cJSON functions
 * pmuprof calls, each forwarding to the library's (include/jsonlib.h says why). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "jsonlib.h"

/* libcjson's soname: cJSON keeps its ABI within major version 1 */
#define CJSON_SONAME "libcjson.so.1"

/* Every cJSON function pmuprof calls: X(return type, name, parameters, arguments). */
#define CJSON_FUNCS(X) \
	X(cJSON *, cJSON_AddArrayToObject, (cJSON *const o, const char *const n), (o, n)) \
	X(cJSON *, cJSON_AddBoolToObject, (cJSON *const o, const char *const n, const cJSON_bool b), \
	  (o, n, b)) \
	X(cJSON_bool, cJSON_AddItemToArray, (cJSON *a, cJSON *i), (a, i)) \
	X(cJSON_bool, cJSON_AddItemToObject, (cJSON *o, const char *n, cJSON *i), (o, n, i)) \
	X(cJSON *, cJSON_AddNullToObject, (cJSON *const o, const char *const n), (o, n)) \
	X(cJSON *, cJSON_AddNumberToObject, (cJSON *const o, const char *const n, const double v), \
	  (o, n, v)) \
	X(cJSON *, cJSON_AddObjectToObject, (cJSON *const o, const char *const n), (o, n)) \
	X(cJSON *, cJSON_AddStringToObject, \
	  (cJSON *const o, const char *const n, const char *const s), (o, n, s)) \
	X(cJSON *, cJSON_CreateArray, (void), ()) \
	X(cJSON *, cJSON_CreateBool, (cJSON_bool b), (b)) \
	X(cJSON *, cJSON_CreateNull, (void), ()) \
	X(cJSON *, cJSON_CreateNumber, (double v), (v)) \
	X(cJSON *, cJSON_CreateObject, (void), ()) \
	X(cJSON *, cJSON_CreateString, (const char *s), (s)) \
	X(cJSON *, cJSON_CreateStringReference, (const char *s), (s)) \
	X(cJSON *, cJSON_GetArrayItem, (const cJSON *a, int i), (a, i)) \
	X(int, cJSON_GetArraySize, (const cJSON *a), (a)) \
	X(const char *, cJSON_GetErrorPtr, (void), ()) \
	X(cJSON *, cJSON_GetObjectItemCaseSensitive, (const cJSON *const o, const char *const n), (o, n)) \
	X(cJSON_bool, cJSON_IsArray, (const cJSON *const i), (i)) \
	X(cJSON_bool, cJSON_IsNumber, (const cJSON *const i), (i)) \
	X(cJSON_bool, cJSON_IsObject, (const cJSON *const i), (i)) \
	X(cJSON_bool, cJSON_IsString, (const cJSON *const i), (i)) \
	X(cJSON_bool, cJSON_IsTrue, (const cJSON *const i), (i)) \
	X(cJSON *, cJSON_Parse, (const char *t), (t)) \
	X(cJSON *, cJSON_ParseWithLengthOpts, \
	  (const char *t, size_t l, const char **e, cJSON_bool z), (t, l, e, z)) \
	X(char *, cJSON_Print, (const cJSON *i), (i)) \
	X(char *, cJSON_PrintBuffered, (const cJSON *i, int p, cJSON_bool f), (i, p, f))

/* cJSON_Delete returns nothing, so it is forwarded by hand */
#define TYPEDEF(ret, name, params, args) typedef ret (*name##_fn) params;
CJSON_FUNCS(TYPEDEF)
typedef void (*cJSON_Delete_fn)(cJSON *);

#define MEMBER(ret, name, params, args) name##_fn name;
static struct {
	int tried;
	void *handle;
	CJSON_FUNCS(MEMBER)
	cJSON_Delete_fn cJSON_Delete;
} lib;

#define RESOLVE(ret, name, params, args) \
	if (!(lib.name = (name##_fn)dlsym(lib.handle, #name))) missing = #name;

pp_status jsonlib_load(char *why, size_t len)
{
	const char *missing = NULL;

	if (!lib.tried) {
		lib.tried = 1;
		if (!(lib.handle = dlopen(CJSON_SONAME, RTLD_NOW | RTLD_LOCAL))) {
			if (why && len)
				snprintf(why, len, "%s", dlerror());
			return PP_ENOENT;
		}
		CJSON_FUNCS(RESOLVE)
		if (!(lib.cJSON_Delete = (cJSON_Delete_fn)dlsym(lib.handle, "cJSON_Delete")))
			missing = "cJSON_Delete";
		if (missing) {
			if (why && len)
				snprintf(why, len, "%s has no %s", CJSON_SONAME, missing);
			dlclose(lib.handle);
			lib.handle = NULL;
			return PP_ENOENT;
		}
	}
	if (!lib.handle) {
		if (why && len)
			snprintf(why, len, "%s could not be loaded", CJSON_SONAME);
		return PP_ENOENT;
	}
	return PP_OK;
}

void jsonlib_unload(void)
{
	if (lib.handle)
		dlclose(lib.handle);
	memset(&lib, 0, sizeof(lib));
}

/* The library, loaded if need be; a command that did not check jsonlib_load is a bug. */
static void need(void)
{
	if (!lib.handle && jsonlib_load(NULL, 0) != PP_OK)
		abort();
}

#define FORWARD(ret, name, params, args) \
	ret name params \
	{ \
		need(); \
		return lib.name args; \
	}
CJSON_FUNCS(FORWARD)

void cJSON_Delete(cJSON *item)
{
	need();
	lib.cJSON_Delete(item);
}

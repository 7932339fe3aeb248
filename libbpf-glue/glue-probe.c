// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * glue-probe: which BPF trampoline attach kinds work on the running
 * kernel, as glue_probe_attach() finds by attaching for real.
 *
 *   glue-probe [--json] [--kind KIND]... [--function FN [--module MOD]]
 *
 * Without --kind, every kind; without --function, each kind's default
 * target.  One line per kind (text), or one JSON object.  Exits 0 when
 * every kind probed works, 1 when one does not, 2 on a usage error.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "glue.h"

static void usage(FILE *f)
{
	int k;

	fprintf(f, "usage: glue-probe [--json] [--kind KIND]... "
		"[--function FN [--module MOD]]\nkinds:");
	for (k = 0; k < GLUE_NR_ATTACH_KINDS; k++)
		fprintf(f, " %s", glue_attach_kind_name(k));
	fprintf(f, "\n");
}

/* @s as a JSON string: quotes, backslashes and control characters. */
static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static const char *error_name(int err)
{
	/* ENOTSUPP (524) is kernel-internal: libc has no text for it */
	return err == -524 ? "ENOTSUPP" : strerror(-err);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "kind", required_argument, NULL, 'k' },
		{ "function", required_argument, NULL, 'f' },
		{ "module", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	const char *function = NULL, *module = NULL;
	unsigned int want = 0, failed = 0;
	struct glue_attach_result res;
	struct utsname u;
	int json = 0, opt, k, first = 1;

	while ((opt = getopt_long(argc, argv, "jk:f:m:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = 1;
			break;
		case 'k':
			k = glue_attach_kind_by_name(optarg);
			if (k < 0) {
				fprintf(stderr, "glue-probe: no kind %s\n", optarg);
				usage(stderr);
				return 2;
			}
			want |= GLUE_KIND_BIT(k);
			break;
		case 'f':
			function = optarg;
			break;
		case 'm':
			module = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc || (module && !function)) {
		usage(stderr);
		return 2;
	}
	if (!want)
		want = GLUE_KIND_BIT(GLUE_NR_ATTACH_KINDS) - 1;
	if (uname(&u))
		memset(&u, 0, sizeof(u));
	if (json) {
		printf("{\"glue_version\": \"%d.%d\", \"kernel\": ",
		       GLUE_VERSION_MAJOR, GLUE_VERSION_MINOR);
		json_string(u.release);
		printf(", \"machine\": ");
		json_string(u.machine);
		printf(", \"probes\": [");
	}
	for (k = 0; k < GLUE_NR_ATTACH_KINDS; k++) {
		if (!(want & GLUE_KIND_BIT(k)))
			continue;
		glue_probe_attach(k, function, module, &res);
		failed += res.err != 0;
		if (!json) {
			printf("%-9s %s%s%s: ", glue_attach_kind_name(k),
			       res.target, res.module[0] ? " [" : "",
			       res.module[0] ? res.module : "");
			if (res.module[0])
				printf("]");
			if (!res.err)
				printf("works\n");
			else
				printf("fails at %s: %d (%s)\n",
				       glue_stage_name(res.stage), res.err,
				       error_name(res.err));
			if (res.detail[0])
				printf("          %s\n", res.detail);
			continue;
		}
		printf("%s\n  {\"kind\": ", first ? "" : ",");
		first = 0;
		json_string(glue_attach_kind_name(k));
		printf(", \"target\": ");
		json_string(res.target);
		printf(", \"module\": ");
		json_string(res.module);
		printf(", \"works\": %s, \"errno\": %d, \"error\": ",
		       res.err ? "false" : "true", -res.err);
		json_string(res.err ? error_name(res.err) : "");
		printf(", \"stage\": ");
		json_string(glue_stage_name(res.stage));
		printf(", \"detail\": ");
		json_string(res.detail);
		printf("}");
	}
	if (json)
		printf("\n]}\n");
	return failed ? 1 : 0;
}

// SPDX-License-Identifier: GPL-2.0
/* Benchmark programs on the getpgid syscall entry: each counts its calls,
 * so the benchmark can check that the program really ran on every call.
 * selftests/bench.c loads copies of them for the attach latency figures.
 */
#include "common.h"

char _license[] SEC("license") = "GPL";

long hits;

#define BENCH_PROG(sec, name)			\
SEC(sec)					\
int name(void *ctx)				\
{						\
	__sync_fetch_and_add(&hits, 1);		\
	return 0;				\
}

BENCH_PROG("fentry", bench_fentry)
BENCH_PROG("fentry.s", bench_fentry_s)
BENCH_PROG("fexit", bench_fexit)
BENCH_PROG("fexit.s", bench_fexit_s)
BENCH_PROG("fmod_ret", bench_fmod_ret)
BENCH_PROG("fmod_ret.s", bench_fmod_ret_s)
BENCH_PROG("kprobe", bench_kprobe)

// SPDX-License-Identifier: GPL-2.0
/* Benchmark programs on the getpgid syscall entry: each counts its calls,
 * so the benchmark can check that the program really ran on every call.
 */
#include "common.h"

char _license[] SEC("license") = "GPL";

long hits;

SEC("fentry")
int bench_fentry(void *ctx)
{
	__sync_fetch_and_add(&hits, 1);
	return 0;
}

SEC("fentry.s")
int bench_fentry_s(void *ctx)
{
	__sync_fetch_and_add(&hits, 1);
	return 0;
}

SEC("fexit")
int bench_fexit(void *ctx)
{
	__sync_fetch_and_add(&hits, 1);
	return 0;
}

SEC("fmod_ret")
int bench_fmod_ret(void *ctx)
{
	__sync_fetch_and_add(&hits, 1);
	return 0;
}

SEC("kprobe")
int bench_kprobe(void *ctx)
{
	__sync_fetch_and_add(&hits, 1);
	return 0;
}

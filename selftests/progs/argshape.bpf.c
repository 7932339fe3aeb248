// SPDX-License-Identifier: GPL-2.0
/*
 * Argument shapes on the test module's functions: fentry records every
 * argument with its type, fexit the result, fmod_ret replaces it when
 * override is not 0.  The test loads the programs of one function.
 */
#include "common.h"

char _license[] SEC("license") = "GPL";

/* What fentry saw (a8[] for args8, a6[] for args6, as[] for struct). */
__s64 a8[8], a6[6], as[4];
__s64 ret8, ret6, rets;
__u32 entry_runs, exit_runs, modret_runs;
int override;

SEC("fentry/sleeptest_mod_args8")
int BPF_PROG(args8_entry, __s8 a, __s16 b, int c, __u64 d, __u8 e, __u16 f,
	     __s32 g, __u64 h)
{
	a8[0] = a; a8[1] = b; a8[2] = c; a8[3] = d;
	a8[4] = e; a8[5] = f; a8[6] = g; a8[7] = h;
	entry_runs++;
	return 0;
}

SEC("fexit/sleeptest_mod_args8")
int BPF_PROG(args8_exit, __s8 a, __s16 b, int c, __u64 d, __u8 e, __u16 f,
	     __s32 g, __u64 h, __s64 ret)
{
	ret8 = ret;
	exit_runs++;
	return 0;
}

SEC("fmod_ret/sleeptest_mod_args8")
int BPF_PROG(args8_modret, __s8 a, __s16 b, int c, __u64 d, __u8 e, __u16 f,
	     __s32 g, __u64 h, __s64 ret)
{
	modret_runs++;
	return override;
}

SEC("fentry/sleeptest_mod_args6")
int BPF_PROG(args6_entry, __s8 a, __s16 b, int c, __u64 d, __u8 e, __s32 g)
{
	a6[0] = a; a6[1] = b; a6[2] = c; a6[3] = d; a6[4] = e; a6[5] = g;
	entry_runs++;
	return 0;
}

SEC("fexit/sleeptest_mod_args6")
int BPF_PROG(args6_exit, __s8 a, __s16 b, int c, __u64 d, __u8 e, __s32 g,
	     __s64 ret)
{
	ret6 = ret;
	exit_runs++;
	return 0;
}

SEC("fmod_ret/sleeptest_mod_args6")
int BPF_PROG(args6_modret, __s8 a, __s16 b, int c, __u64 d, __u8 e, __s32 g,
	     __s64 ret)
{
	modret_runs++;
	return override;
}

/* struct sleeptest_pair by value: two context slots, lo then hi. */
SEC("fentry/sleeptest_mod_struct")
int struct_entry(unsigned long long *ctx)
{
	as[0] = (int)ctx[0];
	as[1] = ctx[1];
	as[2] = ctx[2];
	as[3] = (long)ctx[3];
	entry_runs++;
	return 0;
}

SEC("fexit/sleeptest_mod_struct")
int struct_exit(unsigned long long *ctx)
{
	rets = ctx[4];
	exit_runs++;
	return 0;
}

SEC("fmod_ret/sleeptest_mod_struct")
int struct_modret(unsigned long long *ctx)
{
	modret_runs++;
	return override;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * An extension (freplace) of subprog_ret.bpf.c's global sub_wide(): the
 * XDP caller then gets x << 32 | 9 where the original gives x << 32 | 1.
 */
#include "common.h"

char _license[] SEC("license") = "GPL";

__u32 ext_runs;

SEC("freplace/sub_wide")
__u64 new_sub_wide(__u64 x)
{
	ext_runs++;
	return x << 32 | 9;
}

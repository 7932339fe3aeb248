/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of the in-guest test program share: the runner's state
 * and checks (sleeptest.c), the helpers more than one area uses, and the
 * cases of each area, which sleeptest.c's table of cases lists.
 */
#ifndef SLEEPTEST_H
#define SLEEPTEST_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

/* The function tracer's filter; see set_ftrace_filter() in sleeptest.c. */
#define FTRACE_FILTER "/sys/kernel/tracing/set_ftrace_filter"

/* Set by CHECK() and CHECK_ERR(); the runner clears it before each case. */
extern int case_failed;

void diag(const char *fmt, ...);

#define CHECK(cond, fmt, ...) ({					\
	int __ok = !!(cond);						\
	if (!__ok) {							\
		diag("%s:%d: check '%s' failed: " fmt, __func__,	\
		     __LINE__, #cond, ##__VA_ARGS__);			\
		case_failed = 1;					\
	}								\
	__ok;								\
})

/* A negative libbpf/kernel error, printed so known-failure lists can match. */
#define CHECK_ERR(err, what) ({						\
	int __e = (err);						\
	if (__e) {							\
		diag("%s: %s failed: %d (%s)", __func__, what, __e,	\
		     strerror(-__e));					\
		case_failed = 1;					\
	}								\
	!__e;								\
})

struct attach;

/* selftests/module: sleeptest_mod_target(N) runs on a write of N bytes. */
#define TEST_MODULE "sleeptest_mod"
#define TEST_MODULE_TRIGGER "/sys/kernel/debug/sleeptest_mod/trigger"

/* Helpers in sleeptest.c. */
char *sys_fn(const char *name);
int attach_prog(struct bpf_program *prog, struct bpf_link **link);
int kernel_func_btf(const char *fn, __u32 *obj_id, __u32 *type_id,
		    char *mod, size_t mod_len);
/* A program of two instructions that returns 0 (selftests/bpftarget.c). */
extern const struct bpf_insn ret0[2];
/* ftrace's count of users of BTF function btf_fn, from enabled_functions;
 * -ENOENT (and, if report, what the file has) when it is not there. */
int ftrace_refcount(const char *btf_fn, long *refs, int report);
/* Prints and returns "direct", "veneer", "out-of-range" or "shared". */
const char *report_call_path(const char *fn);
int run_bench(long iters, int runs);
void sleep_ms(long ms);
int counter_moves(volatile long *counter, long start);
struct attach *attach_open_load(void);
void dump_enabled_functions(void);
int write_file(const char *path, const char *text);
int set_filter_file(const char *path, const char *fn);
int set_ftrace_filter(const char *fn);
double mono_seconds(void);
long env_rounds(const char *var, long def);
int test_run_packet(int fd, __u32 *retval);
int count_trampoline_images(void);
/*
 * BPF objects of one kind (get_next_id: programs, links or maps) with an
 * ID above @above: how many, or -errno; the highest ID in use goes to
 * *max if it is higher; each is reported in a diag naming @report.
 */
int count_bpf_ids_above(int (*get_next_id)(__u32, __u32 *), __u32 above,
			__u32 *max, const char *report);
#define IMAGE_SET_MAX 256
struct image_set {
	int n;
	unsigned long long addr[IMAGE_SET_MAX];
};
int trampoline_image_set(struct image_set *set);
int new_trampoline_images(const struct image_set *before);
int load_test_module(void);
int unload_test_module(void);

/* In refusals.c, also used by seeds.c. */
void load_one_reject(const char *name, const char *target,
		     __u32 extra_flags, const char *want_msg);
void load_one_reject_on(const char *name, int target_fd, const char *target,
			__u32 extra_flags, const char *want_msg);
void show_log_tail(const char *log);

/* seeds.c */
void test_lsm_s_exec_maps(void);
void test_fentry_s_copy_from_user(void);
void test_fexit_s_args_ret(void);
void test_fmod_ret_s_override(void);
void test_sleepable_and_normal_order(void);
void test_sleepable_copy_nonresident(void);
void test_sleepable_allowed_maps_load(void);
void test_section_names_sleepable(void);

/* refusals.c */
void test_reject_lsm_s_task_free(void);
void test_reject_fentry_s_not_injectable(void);
void test_reject_sleepable_socket_filter(void);
void test_reject_copy_from_user_nonsleepable(void);
void test_reject_sleepable_lpm_trie(void);
void test_reject_sleepable_on_denylisted(void);
void test_reject_sleepable_exit_modret_not_injectable(void);
void test_reject_fentry_s_on_bpf_prog(void);
void test_reject_sleepable_other_types(void);
void test_reject_spin_lock_sleepable(void);
void test_reject_sleeping_helpers_nonsleepable(void);
void test_sleepable_map_types(void);
void test_sleepable_tp_btf(void);
void test_reject_sleepable_kprobe_attach(void);
void test_reject_link_update_tracing(void);
void test_reject_fentry_and_freplace(void);

/* attach.c */
void test_attach_detach_while_running(void);
void test_function_tracer_and_trampoline(void);
void test_kprobe_and_trampoline(void);
void test_module_function(void);
void test_recursion_guard_direct(void);
void test_trampoline_on_bpf_prog(void);
void test_veneer_reclaim(void);
void test_argument_shapes(void);
void test_direct_call_keeps_arguments(void);

/* bpftarget.c */
void test_subprog_returns_traced(void);
void test_reject_fmod_ret_on_bpf_prog(void);
void test_tail_call_limit_traced(void);
void test_freplace_far_target(void);
void test_bpf_entry_attach_race(void);

/* churn.c */
void test_trampoline_churn(void);
void test_trampoline_churn_function_tracer(void);

/* lifetime.c */
void test_detach_while_sleeping(void);
void test_replace_while_sleeping(void);
void test_fexit_s_sleeping_detached(void);
void test_fmod_ret_s_sleeping_detached(void);
void test_signal_while_sleeping(void);
void test_sigkill_while_sleeping(void);
void test_module_caller_sleeping(void);
void test_lsm_s_exec_sleeping(void);
void test_detached_prog_freed_while_sleeping(void);

/* concurrency.c */
void test_recursion_while_sleeping(void);
void test_migration_while_sleeping(void);
void test_cookie_across_sleep(void);
void test_limit_38_programs(void);
void test_attach_detach_stress(void);

/* oom.c */
void test_alloc_failure_attach_detach(void);

/* kinds.c */
void test_kfunc_calls(void);
void test_lsm_s_key_kfuncs(void);
void test_stack_traces_trampoline(void);
void test_stack_traces_tracepoint(void);
void test_struct_ops_dummy(void);
void test_struct_ops_tcp_ca(void);
void test_lsm_cgroup_two_cgroups(void);
void test_function_graph_and_fexit(void);

/* vdso.c */
void test_vdso_self_contained(void);

/* glue.c */
void test_glue_syscall_names(void);
void test_glue_syscall_args_fentry(void);
void test_glue_syscall_args_kprobe(void);
void test_glue_probe_matches_attach(void);
void test_glue_probe_leaves_nothing(void);
void test_glue_fallback_kprobe(void);
void test_glue_probe_targets(void);
void test_glue_probe_command(void);

#endif /* SLEEPTEST_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * A module function for trampolines to attach to: writing N bytes to
 * /sys/kernel/debug/sleeptest_mod/trigger calls sleeptest_mod_target(N).
 * It is error-injectable, so sleepable programs may attach to it too.
 */
#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/error-injection.h>
#include <linux/fs.h>
#include <linux/module.h>

static struct dentry *sleeptest_dir;

noinline int sleeptest_mod_target(int len)
{
	/* Keep the call: without a side effect gcc may fold it. */
	asm volatile("" : "+r"(len));
	return len * 2 + 1;
}
ALLOW_ERROR_INJECTION(sleeptest_mod_target, ERRNO);

/*
 * Argument shapes: narrow, signed and 64-bit values in eight argument
 * registers, six, and a 16-byte struct passed by value.  Writing "8", "6"
 * or "s" to .../args calls one with the values below; its result is then
 * in .../result.  fmod_ret may replace any of them (error-injectable).
 */
struct sleeptest_pair {
	u64 lo;
	u64 hi;
};

static u64 sleeptest_result;

noinline s64 sleeptest_mod_args8(s8 a, s16 b, int c, u64 d, u8 e, u16 f,
				 s32 g, u64 h)
{
	asm volatile("" : "+r"(a), "+r"(h));
	return a + b + c + (s64)(d >> 4) + e + f + g + (s64)(h >> 8);
}
ALLOW_ERROR_INJECTION(sleeptest_mod_args8, ERRNO);

noinline s64 sleeptest_mod_args6(s8 a, s16 b, int c, u64 d, u8 e, s32 g)
{
	asm volatile("" : "+r"(a), "+r"(g));
	return a + b + c + (s64)(d >> 4) + e + g;
}
ALLOW_ERROR_INJECTION(sleeptest_mod_args6, ERRNO);

noinline s64 sleeptest_mod_struct(int a, struct sleeptest_pair p, long c)
{
	asm volatile("" : "+r"(a), "+r"(c));
	return a + (s64)(p.lo >> 4) + (s64)(p.hi >> 8) + c;
}
ALLOW_ERROR_INJECTION(sleeptest_mod_struct, ERRNO);

#define ARGS_D	0x8000000000000001ULL
#define ARGS_H	0x1122334455667788ULL

/*
 * Call shape @which ("8", "6" or "s") with the values the tests expect:
 * *r is what it returned, *want what it returns untraced.
 */
static int call_shape(char which, s64 *r, s64 *want)
{
	struct sleeptest_pair p = { ARGS_D, ARGS_H };
	s64 d4 = (s64)(ARGS_D >> 4), h8 = (s64)(ARGS_H >> 8);

	switch (which) {
	case '8':
		*r = sleeptest_mod_args8(-5, -300, -100, ARGS_D, 0xf0, 0xfff0,
					 -2, ARGS_H);
		*want = -5 - 300 - 100 + d4 + 0xf0 + 0xfff0 - 2 + h8;
		return 0;
	case '6':
		*r = sleeptest_mod_args6(-5, -300, -100, ARGS_D, 0xf0, -2);
		*want = -5 - 300 - 100 + d4 + 0xf0 - 2;
		return 0;
	case 's':
		*r = sleeptest_mod_struct(-100, p, -7);
		*want = -100 + d4 + h8 - 7;
		return 0;
	}
	return -EINVAL;
}

static ssize_t args_write(struct file *file, const char __user *buf,
			  size_t len, loff_t *pos)
{
	char which;
	s64 r, want;
	int err;

	if (!len || get_user(which, buf))
		return -EFAULT;
	err = call_shape(which, &r, &want);
	if (err)
		return err;
	sleeptest_result = r;
	return len;
}

/*
 * Writing a shape to .../args_check calls it as .../args does and fails
 * with -EIO unless its result is the untraced one: a tracer that changes
 * an argument register is caught at once.
 */
static ssize_t args_check_write(struct file *file, const char __user *buf,
				size_t len, loff_t *pos)
{
	char which;
	s64 r, want;
	int err;

	if (!len || get_user(which, buf))
		return -EFAULT;
	err = call_shape(which, &r, &want);
	if (err)
		return err;
	return r == want ? len : -EIO;
}

static const struct file_operations args_check_fops = {
	.owner = THIS_MODULE,
	.write = args_check_write,
};

static const struct file_operations args_fops = {
	.owner = THIS_MODULE,
	.write = args_write,
};

/*
 * kfuncs.  sleeptest_kfunc_widen() uses its int as the calling convention
 * promises it: on riscv64 widening it to 64 bits is no instruction, so a
 * caller that leaves it zero-extended gets 2^32 too much back.
 * sleeptest_kfunc_sleep() sleeps, so only sleepable programs may call it
 * (KF_SLEEPABLE); a call in atomic context is a might_sleep() report.
 */
noinline s64 sleeptest_kfunc_widen(int c, u32 u, s64 bias)
{
	return (s64)c + u + bias;
}

noinline int sleeptest_kfunc_sleep(int ms)
{
	msleep(ms);
	return ms + 1;
}

BTF_SET8_START(sleeptest_kfunc_ids)
BTF_ID_FLAGS(func, sleeptest_kfunc_widen)
BTF_ID_FLAGS(func, sleeptest_kfunc_sleep, KF_SLEEPABLE)
BTF_SET8_END(sleeptest_kfunc_ids)

static const struct btf_kfunc_id_set sleeptest_kfunc_set = {
	.owner = THIS_MODULE,
	.set = &sleeptest_kfunc_ids,
};

static ssize_t trigger_write(struct file *file, const char __user *buf,
			     size_t len, loff_t *pos)
{
	int ret = sleeptest_mod_target(len);

	return ret == len * 2 + 1 ? len : -EIO;
}

static const struct file_operations trigger_fops = {
	.owner = THIS_MODULE,
	.write = trigger_write,
};

static int __init sleeptest_mod_init(void)
{
	int err;

	/* tc programs run through test_run; LSM and tracing programs */
	err = register_btf_kfunc_id_set(BPF_PROG_TYPE_SCHED_CLS,
					&sleeptest_kfunc_set) ?:
	      register_btf_kfunc_id_set(BPF_PROG_TYPE_TRACING,
					&sleeptest_kfunc_set);
	if (err)
		return err;
	sleeptest_dir = debugfs_create_dir("sleeptest_mod", NULL);
	debugfs_create_file("trigger", 0200, sleeptest_dir, NULL,
			    &trigger_fops);
	debugfs_create_file("args", 0200, sleeptest_dir, NULL, &args_fops);
	debugfs_create_file("args_check", 0200, sleeptest_dir, NULL,
			    &args_check_fops);
	debugfs_create_x64("result", 0400, sleeptest_dir, &sleeptest_result);
	return 0;
}

static void __exit sleeptest_mod_exit(void)
{
	debugfs_remove_recursive(sleeptest_dir);
}

module_init(sleeptest_mod_init);
module_exit(sleeptest_mod_exit);
MODULE_DESCRIPTION("Attach target for the sleepable trampoline tests");
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * A module function for trampolines to attach to: writing N bytes to
 * /sys/kernel/debug/sleeptest_mod/trigger calls sleeptest_mod_target(N).
 * It is error-injectable, so sleepable programs may attach to it too.
 */
#include <linux/debugfs.h>
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

static ssize_t args_write(struct file *file, const char __user *buf,
			  size_t len, loff_t *pos)
{
	struct sleeptest_pair p = { 0x8000000000000001ULL,
				    0x1122334455667788ULL };
	char which;

	if (!len || get_user(which, buf))
		return -EFAULT;
	switch (which) {
	case '8':
		sleeptest_result = sleeptest_mod_args8(-5, -300, -100,
						       0x8000000000000001ULL,
						       0xf0, 0xfff0, -2,
						       0x1122334455667788ULL);
		break;
	case '6':
		sleeptest_result = sleeptest_mod_args6(-5, -300, -100,
						       0x8000000000000001ULL,
						       0xf0, -2);
		break;
	case 's':
		sleeptest_result = sleeptest_mod_struct(-100, p, -7);
		break;
	default:
		return -EINVAL;
	}
	return len;
}

/*
 * Writing "8" or "6" to .../args_check calls that function with the
 * values above and fails with -EIO unless its result is theirs: a
 * tracer that changes an argument register is caught at once.
 */
static ssize_t args_check_write(struct file *file, const char __user *buf,
				size_t len, loff_t *pos)
{
	s64 d4 = (s64)(0x8000000000000001ULL >> 4);
	s64 h8 = (s64)(0x1122334455667788ULL >> 8);
	char which;
	s64 r;

	if (!len || get_user(which, buf))
		return -EFAULT;
	if (which == '8') {
		r = sleeptest_mod_args8(-5, -300, -100, 0x8000000000000001ULL,
					0xf0, 0xfff0, -2,
					0x1122334455667788ULL);
		return r == -5 - 300 - 100 + d4 + 0xf0 + 0xfff0 - 2 + h8 ?
		       len : -EIO;
	}
	if (which == '6') {
		r = sleeptest_mod_args6(-5, -300, -100, 0x8000000000000001ULL,
					0xf0, -2);
		return r == -5 - 300 - 100 + d4 + 0xf0 - 2 ? len : -EIO;
	}
	return -EINVAL;
}

static const struct file_operations args_check_fops = {
	.owner = THIS_MODULE,
	.write = args_check_write,
};

static const struct file_operations args_fops = {
	.owner = THIS_MODULE,
	.write = args_write,
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

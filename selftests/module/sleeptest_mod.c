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

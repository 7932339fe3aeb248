// SPDX-License-Identifier: GPL-2.0
/*
 * A standalone rm for the guest.  test_local_storage copies /bin/rm and
 * runs the copy, expecting it to be refused by an LSM program; a busybox
 * applet link copied under another name would only say "applet not found".
 */
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int i, rc = 0;

	for (i = 1; i < argc; i++) {
		if (argv[i][0] == '-')
			continue;
		if (unlink(argv[i])) {
			perror(argv[i]);
			rc = 1;
		}
	}
	return rc;
}

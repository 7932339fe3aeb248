// SPDX-License-Identifier: GPL-2.0
/*
 * The vDSO the kernel maps into every process must be self-contained: a
 * dynamic relocation in it is a reference to kernel data the vDSO cannot
 * reach, read as 0 at run time (6.1 riscv64's cpu_relax() read a static
 * key that way, and clock_gettime() crashed when it met a time update).
 */
#include "sleeptest.h"
#include <elf.h>
#include <link.h>
#include <sys/auxv.h>

void test_vdso_self_contained(void)
{
	const ElfW(Ehdr) *eh = (const void *)getauxval(AT_SYSINFO_EHDR);
	const ElfW(Phdr) *ph;
	const ElfW(Dyn) *dyn = NULL;
	unsigned long load = 0, rela = 0, relasz = 0, relsz = 0;
	int i, have_load = 0;

	if (!CHECK(eh, "no vDSO in the auxiliary vector"))
		return;
	ph = (const void *)((const char *)eh + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && !have_load) {
			load = ph[i].p_vaddr;
			have_load = 1;
		}
		if (ph[i].p_type == PT_DYNAMIC)
			dyn = (const void *)((const char *)eh + ph[i].p_offset);
	}
	if (!CHECK(have_load && dyn, "the vDSO has no PT_LOAD or PT_DYNAMIC"))
		return;
	for (; dyn->d_tag != DT_NULL; dyn++) {
		switch (dyn->d_tag) {
		case DT_RELA:
			rela = dyn->d_un.d_ptr;
			break;
		case DT_RELASZ:
			relasz = dyn->d_un.d_val;
			break;
		case DT_RELSZ:
			relsz = dyn->d_un.d_val;
			break;
		}
	}
	diag("vdso: %lu bytes of RELA and %lu of REL relocations", relasz,
	     relsz);
	if (relasz) {
		const ElfW(Rela) *r = (const void *)((const char *)eh +
						     rela - load);

		diag("vdso: first relocation at %#lx, type %lu, symbol %lu",
		     (unsigned long)r->r_offset,
		     (unsigned long)ELF64_R_TYPE(r->r_info),
		     (unsigned long)ELF64_R_SYM(r->r_info));
	}
	CHECK(!relasz && !relsz, "the vDSO has dynamic relocations (%lu + "
	      "%lu bytes): references to kernel data it cannot reach",
	      relasz, relsz);
}

/* samples_dsrc.c — which memory level served an access, from the data
 * source the sampler recorded.
 *
 * Intel PEBS load-latency records (MemAxes' `dataSource`, `data_source`):
 * bits 3:0 are the data source, Intel 64 and IA-32 Architectures Software
 * Developer's Manual vol. 3B, table "Data Source Encoding for Load Latency
 * Record" (18-22 in the 2011 edition, 18-24 later); bit 4 is an STLB miss
 * and bit 5 a locked access, which do not change the level:
 *
 *   0 unknown L3 miss     1 L1 hit              2 pending core cache hit (LFB)
 *   3 L2 hit              4 L3 hit, no snoop    5 L3 hit, snoop clean
 *   6 L3 hit, snoop HITM  7 LLC snoop HitM (06_2A, 06_2E; reserved elsewhere)
 *   8 L3 miss, served by a cross-package snoop   9 reserved
 *   A/C local DRAM        B/D remote DRAM        E I/O    F uncacheable
 *
 * Linux perf (Mitos' `data_src`): union perf_mem_data_src of
 * <linux/perf_event.h>: mem_op in bits 0-4, mem_lvl in bits 5-18
 * (PERF_MEM_LVL_NA 0x01, HIT 0x02, MISS 0x04, L1 0x08, LFB 0x10, L2 0x20,
 * L3 0x40, LOC_RAM 0x80, REM_RAM1 0x100, REM_RAM2 0x200, REM_CCE1 0x400,
 * REM_CCE2 0x800, IO 0x1000, UNC 0x2000), and since Linux 4.14
 * mem_lvl_num in bits 33-36 (L1 1, L2 2, L3 3, L4 4, ANY_CACHE 0xb,
 * LFB 0xc, RAM 0xd, NA 0xf) with mem_remote in bit 37. A level counts
 * only when mem_lvl says HIT, or when mem_lvl is empty or NA and
 * mem_lvl_num names it.
 *
 * MemAxes itself (LLNL/MemAxes src/parseUtil.cpp, dseDepth) maps the PEBS
 * codes to a depth of 1 (L1, LFB), 2 (L2), 3 (L3, snoops) and 4 (8 and
 * A-D), and leaves 0, 7, 9, E and F undrawn; doc/samples.md lists where
 * skein differs and why.
 */
#include "samples.h"

#include <stddef.h>

static enum samples_level
pebs(uint64_t raw)
{
	static const enum samples_level by_code[16] = {
		SL_L3_MISS, SL_L1, SL_LFB, SL_L2, SL_L3, SL_L3_SNOOP, SL_L3_SNOOP, SL_L3_SNOOP,
		SL_REMOTE_CACHE, SL_UNKNOWN, SL_LOCAL_RAM, SL_REMOTE_RAM, SL_LOCAL_RAM, SL_REMOTE_RAM,
		SL_IO, SL_UNCACHED,
	};
	return by_code[raw & 0xf];
}

static enum samples_level
perf(uint64_t raw)
{
	uint32_t lvl = (uint32_t)(raw >> 5) & 0x3fff;
	uint32_t num = (uint32_t)(raw >> 33) & 0xf;
	int remote = (int)(raw >> 37) & 1;
	if (lvl & 0x02) {           /* HIT: the level bit says where */
		static const struct { uint32_t bit; enum samples_level l; } bits[] = {
			{ 0x08, SL_L1 }, { 0x10, SL_LFB }, { 0x20, SL_L2 }, { 0x40, SL_L3 },
			{ 0x80, SL_LOCAL_RAM }, { 0x100, SL_REMOTE_RAM }, { 0x200, SL_REMOTE_RAM },
			{ 0x400, SL_REMOTE_CACHE }, { 0x800, SL_REMOTE_CACHE }, { 0x1000, SL_IO },
			{ 0x2000, SL_UNCACHED },
		};
		for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++)
			if (lvl & bits[i].bit)
				return bits[i].l;
		return SL_UNKNOWN;
	}
	if (lvl != 0 && lvl != 0x01)  /* a miss, or a level without HIT */
		return SL_UNKNOWN;
	switch (num) {
	case 0x1: return remote ? SL_REMOTE_CACHE : SL_L1;
	case 0x2: return remote ? SL_REMOTE_CACHE : SL_L2;
	case 0x3: return remote ? SL_REMOTE_CACHE : SL_L3;
	case 0xc: return SL_LFB;
	case 0xd: return remote ? SL_REMOTE_RAM : SL_LOCAL_RAM;
	default: return SL_UNKNOWN;
	}
}

enum samples_level
samples_decode(enum samples_encoding enc, uint64_t raw)
{
	return enc == SAMPLES_PERF ? perf(raw) : pebs(raw);
}

const char *
samples_level_name(enum samples_level l)
{
	static const char *const names[SL_COUNT] = {
		"unknown", "L1", "LFB", "L2", "L3", "L3 snoop", "L3 miss", "remote cache",
		"local RAM", "remote RAM", "I/O", "uncached",
	};
	return (unsigned)l < SL_COUNT ? names[l] : "?";
}

enum topo_type
samples_level_server(enum samples_level l)
{
	switch (l) {
	case SL_L1: case SL_LFB: return TOPO_L1;
	case SL_L2: return TOPO_L2;
	case SL_L3: case SL_L3_SNOOP: return TOPO_L3;
	case SL_LOCAL_RAM: return TOPO_NUMA;
	case SL_REMOTE_CACHE: case SL_REMOTE_RAM: return TOPO_MACHINE;
	default: return TOPO_TYPE_COUNT;
	}
}

const char *
samples_encoding_name(enum samples_encoding enc)
{
	static const char *const names[SAMPLES_ENCODING_COUNT] = {
		"dataSource (Intel PEBS, hexadecimal)", "data_source (Intel PEBS, decimal)",
		"data_src (Linux perf_mem_data_src)",
	};
	return (unsigned)enc < SAMPLES_ENCODING_COUNT ? names[enc] : "?";
}

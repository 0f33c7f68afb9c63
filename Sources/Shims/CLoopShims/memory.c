/* glibc's malloc tuning, whose header Swift's Glibc module does not include. */
#include "CLoopShims.h"
#include <malloc.h>

bool rp_limit_malloc_arenas(int count) { return mallopt(M_ARENA_MAX, count) == 1; }
void rp_malloc_trim(void) { (void)malloc_trim(0); }
bool rp_fix_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes) == 1; }

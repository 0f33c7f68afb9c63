/* glibc's malloc tuning, whose header Swift's Glibc module does not include. */
#include "CLoopShims.h"
#include <malloc.h>

bool rp_limit_malloc_arenas(int count) { return mallopt(M_ARENA_MAX, count) == 1; }
void rp_malloc_trim(void) { (void)malloc_trim(0); }

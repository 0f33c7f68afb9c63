/* libebur128 (Debian libebur128-1): EBU R128 loudness and true peak, opened when the first file is measured: the
   calls LoudnessKit makes, as rp_ebur128_*, forwarded through a table rp_ebur128_load() fills. A service that
   measures nothing maps none of it. Its types and modes are the library's own header's. */
#ifndef RP_EBUR128_H
#define RP_EBUR128_H

#include <ebur128.h>
#include <stdbool.h>

/* The library's functions, resolved by rp_ebur128_load(). */
struct rp_ebur128_functions {
    __typeof__(ebur128_init) *init;
    __typeof__(ebur128_destroy) *destroy;
    __typeof__(ebur128_add_frames_float) *add_frames_float;
    __typeof__(ebur128_loudness_global) *loudness_global;
    __typeof__(ebur128_true_peak) *true_peak;
};

extern struct rp_ebur128_functions rp_ebur128;

/* Opens the library and resolves every function, once (thread-safe); false when that failed: nothing below may
   then be called. */
bool rp_ebur128_load(void);

static inline ebur128_state *rp_ebur128_init(unsigned int channels, unsigned long rate, int mode) {
    return rp_ebur128.init(channels, rate, mode);
}
static inline void rp_ebur128_destroy(ebur128_state **state) { rp_ebur128.destroy(state); }
static inline int rp_ebur128_add_frames_float(ebur128_state *state, const float *frames, size_t count) {
    return rp_ebur128.add_frames_float(state, frames, count);
}
static inline int rp_ebur128_loudness_global(ebur128_state *state, double *out) { return rp_ebur128.loudness_global(state, out); }
static inline int rp_ebur128_true_peak(ebur128_state *state, unsigned int channel, double *out) {
    return rp_ebur128.true_peak(state, channel, out);
}

#endif

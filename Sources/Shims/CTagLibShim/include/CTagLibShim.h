#ifndef REPRISE_TAGLIB_SHIM_H
#define REPRISE_TAGLIB_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What TagLib read from one file's headers (nothing decoded). Owned by the caller: free it with rp_taglib_free.
typedef struct rp_taglib_file {
    /// The file's tags as TagLib's property map, every value in turn: a sequence of records, each
    /// [u32 key length][key bytes][u32 value length][value bytes] (UTF-8, lengths in native byte order).
    uint8_t *properties;
    size_t properties_size;
    /// Length in milliseconds from the headers; 0 when unknown.
    int64_t length_ms;
    int32_t sample_rate;
    int32_t channels;
    int32_t bitrate_kbps;
    /// The embedded front cover (or the first picture) and its media type; NULL when none or larger than the limit.
    uint8_t *picture;
    size_t picture_size;
    char picture_type[40];
} rp_taglib_file;

/// Reads `descriptor` (a regular file of `size` bytes opened for reading; neither moved nor closed here: read with
/// pread) as the format its name's `extension` (lower case, no dot) says. 0 on success; -1 when the extension is not one TagLib reads, -2 when the file is not
/// valid as that format (or TagLib failed). Values longer than `value_limit` bytes are cut there (the caller
/// marks them); at most `value_count_limit` values are kept.
int rp_taglib_read(int descriptor, long size, const char *extension, size_t picture_limit, size_t value_limit,
                   size_t value_count_limit, rp_taglib_file *out);

/// Whether TagLib has a reader for files with this extension (lower case, no dot).
int rp_taglib_reads_extension(const char *extension);

void rp_taglib_free(rp_taglib_file *file);

#ifdef __cplusplus
}
#endif

#endif

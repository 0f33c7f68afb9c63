#ifndef REPRISE_TAGLIB_SHIM_H
#define REPRISE_TAGLIB_SHIM_H

#include <stddef.h>
#include <stdint.h>

#include "CTagReaderClient.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Reads `descriptor` (a regular file of `size` bytes opened for reading; neither moved nor closed here: read with
/// pread) as the format its name's `extension` (lower case, no dot) says. 0 on success; -1 when the extension is not one TagLib reads, -2 when the file is not
/// valid as that format (or TagLib failed), -4 when memory ran out reading it (the reader's address space is bounded;
/// the reader process then ends after answering). Values longer than `value_limit` bytes are cut there (the caller
/// marks them); at most `value_count_limit` values are kept.
/// (A plain FLAC file never comes here: the service reads it itself, as TagLib would, with RepriseCore's PlainFLAC.)
/// `flags`: RP_TAG_READ_COMMENTS_AS_WRITTEN, or 0.
int rp_taglib_read(int descriptor, long size, const char *extension, size_t picture_limit, size_t value_limit,
                   size_t value_count_limit, uint32_t flags, rp_taglib_file *out);

#ifdef __cplusplus
}
#endif

#endif

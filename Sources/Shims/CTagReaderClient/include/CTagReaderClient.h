#ifndef REPRISE_TAG_READER_CLIENT_H
#define REPRISE_TAG_READER_CLIENT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/// How a file's audio is encoded, as its headers say (rp_taglib_file's `codec`).
enum {
    RP_CODEC_UNKNOWN = 0,
    RP_CODEC_VORBIS = 1,
    RP_CODEC_OPUS = 2,
    RP_CODEC_FLAC = 3,
    RP_CODEC_MPEG = 4,
    RP_CODEC_AAC = 5,
    RP_CODEC_ALAC = 6,
    RP_CODEC_PCM = 7,
    RP_CODEC_PCM_FLOAT = 8,
    RP_CODEC_WAVPACK = 9,
    RP_CODEC_WMA = 10,
    RP_CODEC_WMA_LOSSLESS = 11,
    RP_CODEC_SPEEX = 12,
    RP_CODEC_TTA = 13,
    RP_CODEC_MONKEYS_AUDIO = 14,
};

/// What a file's headers say of its audio, and in which order its tags' records come; 0 where unknown.
typedef struct rp_tag_headers {
    /// Length in milliseconds.
    int64_t length_ms;
    int32_t sample_rate;
    int32_t channels;
    int32_t bitrate_kbps;
    /// One of RP_CODEC_*; the bits of each sample where the headers say (lossless codecs), else 0.
    int32_t codec;
    int32_t bits_per_sample;
    /// 1 when the records are in the order the file has its tags (Vorbis comments: each key at its first value's
    /// place, an MP3's ID3v2 tag in mpd's order), 0 when in the property map's order (by key).
    int32_t properties_in_file_order;
} rp_tag_headers;

/// What TagLib read from one file's headers (nothing decoded). Owned by the caller: free it with rp_taglib_free.
typedef struct rp_taglib_file {
    /// The file's tags as TagLib's property map, every value in turn: a sequence of records, each
    /// [u32 key length][key bytes][u32 value length][value bytes] (UTF-8, lengths in native byte order).
    uint8_t *properties;
    size_t properties_size;
    rp_tag_headers headers;
    /// The embedded front cover (or the first picture) and its media type; NULL when none or larger than the limit.
    uint8_t *picture;
    size_t picture_size;
    char picture_type[40];
} rp_taglib_file;

/// Whether TagLib has a reader for files with this extension (lower case, no dot).
int rp_taglib_reads_extension(const char *extension);

void rp_taglib_free(rp_taglib_file *file);

// The tag reader process (reprise-tag-reader): TagLib runs there, never in the service. It reads requests on a
// Unix stream socket at its standard input (and answers on it): each request carries the file's descriptor
// (SCM_RIGHTS with the request's first byte), the reply is a header then the properties' and the picture's bytes.

enum { RP_TAG_REQUEST_MAGIC = 0x52505434 /* "RPT4": a reader of another build refuses it */, RP_TAG_EXTENSION_SIZE = 16 };

/// A request's flags. RP_TAG_READ_COMMENTS_AS_WRITTEN: instead of the property map, the file's comments as MPD's
/// `readcomments` lists them — a Vorbis comment's fields as the file writes them (FLAC, Ogg Vorbis, Opus), the
/// metadata FFmpeg gives a file mpd reads with FFmpeg (MP4, ASF, Monkey's Audio, TTA, Speex), then an APE tag's text
/// items or else an ID3v2 tag's TXXX frames — each key in its own case, in the file's order.
enum { RP_TAG_READ_COMMENTS_AS_WRITTEN = 1 };

/// One request: read the descriptor sent with it as `extension` and `flags` say.
typedef struct rp_tag_request {
    uint32_t magic;
    uint32_t flags;
    int64_t size;
    uint64_t picture_limit;
    uint64_t value_limit;
    uint64_t value_count_limit;
    /// The most bytes of records the answer may carry (0: as the value limits allow); a file with more is answered
    /// RP_TAG_TOO_LARGE, with nothing of them.
    uint64_t properties_limit;
    char extension[RP_TAG_EXTENSION_SIZE];
} rp_tag_request;

/// The status of a file whose records would be more than the request's `properties_limit` bytes.
enum { RP_TAG_TOO_LARGE = -5 };

/// One reply: `status` as rp_taglib_read's; then `properties_size` bytes of records and `picture_size` of picture.
typedef struct rp_tag_reply {
    int32_t status;
    int32_t reserved;
    rp_tag_headers headers;
    uint64_t properties_size;
    uint64_t picture_size;
    char picture_type[40];
} rp_tag_reply;

/// Starts the tag reader at `path` with one end of a new socket pair as its standard input; the other
/// end (close-on-exec) in `*connection`. 0, or an errno value.
int rp_tag_reader_start(const char *path, int *connection, pid_t *pid);

/// Asks the tag reader on `connection` to read `descriptor` (a regular file of `size` bytes) as `extension`: 0 when
/// sent (its answer comes in order with the others sent), -1 when TagLib has no reader for the extension, -2 for a
/// negative size (nothing sent either way), -3 when the reader is gone. `properties_limit`: the most bytes of records
/// the answer may carry (0: as the value limits allow).
int rp_tag_reader_send(int connection, int descriptor, int64_t size, const char *extension, size_t picture_limit,
                       size_t value_limit, size_t value_count_limit, size_t properties_limit, uint32_t flags);

/// The answer to the oldest request sent and not yet answered, waiting at most `timeout_ms` for all of it. 0 with
/// `*out` filled (free it with rp_taglib_free); -1 or -2 as the reader found the file (-2: not valid as that format);
/// RP_TAG_TOO_LARGE when its records are more than `properties_limit` bytes (as sent with the request); -3 when the
/// reader failed (gone, too slow, or an answer that breaks the limits asked): the caller ends it.
int rp_tag_reader_receive(int connection, size_t picture_limit, size_t value_limit, size_t value_count_limit,
                          size_t properties_limit, int timeout_ms, rp_taglib_file *out);

/// The reader's side: answers requests on `connection` until it is closed. 0 at a clean end.
int rp_tag_reader_serve(int connection,
                        int (*read)(int descriptor, long size, const char *extension, size_t picture_limit,
                                    size_t value_limit, size_t value_count_limit, uint32_t flags, rp_taglib_file *out));

#ifdef __cplusplus
}
#endif

#endif

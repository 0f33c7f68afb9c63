/* libavformat (Debian libavformat59, with libavutil57), opened in the tag reader process when the first file mpd reads
   with FFmpeg comes (an MP4, a WMA, a Monkey's Audio file…): the metadata FFmpeg gives such a file, read as mpd's
   FFmpeg decoder plugin reads it, so that Reprise lists its tags and comments as mpd does. Nothing else of FFmpeg is
   used; a reader that meets no such file maps none of it. */
#ifndef RP_AVFORMAT_H
#define RP_AVFORMAT_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The address space libavformat and the libraries it needs take (they map about 190 MiB): a process whose address
   space is bounded has its bound raised by this much, up to its hard limit, when libavformat is opened. */
#define RP_AV_ADDRESS_SPACE ((unsigned long)256 << 20)

/* One metadata entry: `in_stream` 0 for the container's, 1 for the first audio stream's. */
typedef void (*rp_av_metadata_visitor)(void *context, int in_stream, const char *key, const char *value);

/* Reads the regular file open at `descriptor` (`size` bytes; read with pread, neither moved nor closed) as mpd's
   FFmpeg plugin scans one: opened by libavformat (`name` the file's name, for probing), and the container's metadata
   then the first audio stream's (as its headers give them) handed to `visit` entry by entry, in FFmpeg's order. No other
   file or protocol is opened (a format that refers to others reads none). 0 when read; -1 when libavformat cannot be
   opened; -2 when the file is not one it reads or has no audio stream (mpd then has no tags for it). */
int rp_av_read_metadata(int descriptor, long size, const char *name, rp_av_metadata_visitor visit, void *context);

#ifdef __cplusplus
}
#endif

#endif

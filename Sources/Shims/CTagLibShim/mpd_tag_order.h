// The order mpd 0.23 lists a file's tags in, and what its `readcomments` lists, for each format Reprise reads with
// TagLib: mpd's reader for the format (its ID3 scanner, its FFmpeg plugin, its APE loader, libsndfile) decides both,
// so each is followed here. The tag reader's shim (`taglib_shim.cpp`) orders TagLib's property map by these.
#ifndef REPRISE_MPD_TAG_ORDER_H
#define REPRISE_MPD_TAG_ORDER_H

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <id3v2tag.h>
#include <tfile.h>
#include <tpropertymap.h>

namespace reprise {

/// An ID3v2 tag's keys in the order mpd's scanner lists them (its table of text frames, then the TXXX frames as the
/// file has them, then a MusicBrainz UFID); TIT1's and TPE4's values moved in `map` to the keys mpd reads them as
/// (Grouping, Performer).
std::vector<std::string> id3KeyOrder(const TagLib::ID3v2::Tag &tag, TagLib::PropertyMap &map);

/// An MP4 tag's keys in the order mpd's FFmpeg plugin lists them, when FFmpeg's own reading is not to be had; and
/// mpd's table of tags, where TagLib's tags that mpd's reader does not report are placed.
std::vector<std::string> mp4KeyOrder();

/// A WAV file's INFO list's keys in the order mpd's libsndfile plugin lists them.
std::vector<std::string> sndfileKeyOrder();

/// Whether mpd reads the file with its FFmpeg plugin (by its suffix `extension`, or an Ogg file of Speex).
bool mpdReadsWithFFmpeg(const std::string &extension, TagLib::File *file);

/// The metadata FFmpeg gives a file, as mpd's FFmpeg plugin reads it: the container's entries, then the first audio
/// stream's, each in FFmpeg's order; at most `limit` entries in all.
struct FFmpegMetadata {
    std::vector<std::pair<std::string, std::string>> entries[2];
    size_t limit = 0;
    size_t count = 0;
};

/// Reads `metadata` with libavformat (`CAVFormat`); false when it cannot (no library, not its file, no audio).
bool readFFmpegMetadata(int descriptor, long size, const std::string &extension, FFmpegMetadata &metadata);

/// The tags mpd lists of a file it reads with FFmpeg, from `metadata`, under TagLib's keys, their keys in mpd's
/// order in `order`; then `map`'s tags FFmpeg gave none of.
TagLib::PropertyMap ffmpegTags(const FFmpegMetadata &metadata, const TagLib::PropertyMap &map, std::vector<std::string> &order);

/// The keys of a file whose tags mpd reads from its APE tag (`items`, as `apeTextItems` reads them) in mpd's order.
std::vector<std::string> apeKeyOrder(const std::vector<std::pair<std::string, std::string>> &items);

/// What mpd's generic scan adds to a file's `readcomments`: its APE tag's text items, or else `tag`'s TXXX frames.
std::vector<std::pair<std::string, std::string>> genericComments(const TagLib::ID3v2::Tag *tag, int descriptor, long size,
                                                                size_t countLimit);

} // namespace reprise

#endif

// What TagLib's objects do not give of a FLAC file or an Ogg stream's Vorbis comment: its values' order and
// its fields as written (MPD's tag order and `readcomments`).
#ifndef REPRISE_FLAC_HEADERS_H
#define REPRISE_FLAC_HEADERS_H

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace reprise {

/// The key of each value of a Vorbis comment (`comment`: vendor string, count, fields; as TagLib keeps them: upper
/// case, fields with a value, pictures left out) in the file's order, at most `countLimit`; as far as the comment is
/// well formed.
std::vector<std::string> vorbisCommentValueKeys(const char *comment, size_t size, size_t countLimit);

/// A Vorbis comment's fields as the file writes them: each key in its own case (of those TagLib keeps: ASCII
/// 0x20–0x7D before "="), its value's bytes, every field in the file's order, at most `countLimit`; as far as the
/// comment is well formed.
std::vector<std::pair<std::string, std::string>> vorbisCommentFieldsAsWritten(const char *comment, size_t size,
                                                                          size_t countLimit);

/// The bytes of a FLAC file's first Vorbis comment block in `block`, found as TagLib finds it (after an ID3v2 tag, if
/// there is one); false when there is none to be found so.
bool flacCommentBlock(int descriptor, long size, std::string &block);

} // namespace reprise

#endif

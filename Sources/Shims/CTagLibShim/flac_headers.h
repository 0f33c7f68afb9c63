// A reader of plain FLAC files' metadata blocks that gives what TagLib 1.13 gives for them, without TagLib's objects:
// a library pass reads thousands of such files, and TagLib's allocations were most of the tag reader's time.
#ifndef REPRISE_FLAC_HEADERS_H
#define REPRISE_FLAC_HEADERS_H

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace reprise {

/// What a plain FLAC file's headers say, as TagLib's FLAC::File would give it.
struct FLACHeaders {
    /// The Vorbis comment's fields, by upper-case key, values in the file's order (TagLib's property map).
    std::map<std::string, std::vector<std::string>> fields;
    /// The fields' keys in the order of each one's first value in the file.
    std::vector<std::string> keyOrder;
    int64_t lengthMilliseconds = 0;
    int sampleRate = 0;
    int channels = 0;
    int bitsPerSample = 0;
    int bitrateKilobits = 0;
    /// The front cover, else the first picture (empty: none, or larger than the limit asked).
    std::string picture;
    std::string pictureType;
};

/// Reads the file `descriptor` (`size` bytes; read with pread) when it is a plain FLAC file: "fLaC" at its start,
/// STREAMINFO first, every block whole, one Vorbis comment, no ID3 tag, pictures only in PICTURE blocks, text that is
/// valid UTF-8. False for anything else, which TagLib then reads as before (it has answers for the odd cases).
bool readPlainFLAC(int descriptor, long size, size_t pictureLimit, FLACHeaders &out);

/// The keys of a Vorbis comment (`comment`: vendor string, count, fields; as TagLib keeps them: upper case, fields
/// with a value, pictures left out) in the order of each one's first value; as far as the comment is well formed.
std::vector<std::string> vorbisCommentKeyOrder(const char *comment, size_t size);

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

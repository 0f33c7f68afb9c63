// What TagLib does not read of an AIFF file: its text chunks (NAME, AUTH, ANNO), which mpd lists as libsndfile reads
// them.
#ifndef REPRISE_AIFF_CHUNKS_H
#define REPRISE_AIFF_CHUNKS_H

#include <string>
#include <utility>
#include <vector>

namespace reprise {

/// The text chunks of the plain AIFF file open at `descriptor` (`size` bytes, read with pread) as libsndfile 1.2
/// reads them: NAME as TITLE, AUTH as ARTIST, ANNO as COMMENT, each up to its first NUL, a later chunk of a kind in
/// place of an earlier one, in mpd's order for libsndfile's strings. Chunks are walked from the FORM header to its
/// end (or the file's), at most 65,536 of them. Empty when there are none, when the file is not a plain AIFF file, or
/// when a text chunk is longer than libsndfile takes (it refuses such a file).
std::vector<std::pair<std::string, std::string>> aiffTextChunks(int descriptor, long size);

} // namespace reprise

#endif

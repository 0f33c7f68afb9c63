#include "aiff_chunks.h"
#include "read_fully.h"

#include <cstdint>
#include <cstring>

namespace reprise {

namespace {

uint32_t bigEndian32(const unsigned char *bytes) {
    return uint32_t(bytes[0]) << 24 | uint32_t(bytes[1]) << 16 | uint32_t(bytes[2]) << 8 | uint32_t(bytes[3]);
}

/// A text chunk libsndfile stores as a string: its key in mpd's table and the longest size libsndfile reads (its
/// 8 KiB buffer, less the room it keeps; a longer chunk fails the whole file there).
struct TextChunk {
    const char *id;
    const char *key;
    uint32_t sizeBelow;
};

constexpr TextChunk textChunks[] = {{"NAME", "TITLE", 8190}, {"AUTH", "ARTIST", 8191}, {"ANNO", "COMMENT", 8190}};

} // namespace

std::vector<std::pair<std::string, std::string>> aiffTextChunks(int descriptor, long size) {
    std::vector<std::pair<std::string, std::string>> found;
    unsigned char header[12];
    if (size < 12 || !readFully(descriptor, header, sizeof header, 0)) return found;
    if (std::memcmp(header, "FORM", 4) != 0 || std::memcmp(header + 8, "AIFF", 4) != 0) return found;
    // The FORM's end, as the file's when it says more (or is cut short).
    const uint64_t formEnd = uint64_t(bigEndian32(header + 4)) + 8;
    const uint64_t end = formEnd < uint64_t(size) ? formEnd : uint64_t(size);
    std::string values[3];
    bool have[3] = {false, false, false};
    uint64_t at = 12;
    for (int chunks = 0; chunks < 65536 && at + 8 <= end; chunks++) {
        unsigned char chunk[8];
        if (!readFully(descriptor, chunk, sizeof chunk, static_cast<long>(at))) break;
        if (bigEndian32(chunk) == 0) break; // libsndfile stops at a zero marker
        const uint32_t chunkSize = bigEndian32(chunk + 4);
        for (size_t kind = 0; kind < 3; kind++) {
            if (std::memcmp(chunk, textChunks[kind].id, 4) != 0 || chunkSize == 0) continue;
            if (chunkSize >= textChunks[kind].sizeBelow) return {};
            if (at + 8 + chunkSize > end) break;
            std::string text(chunkSize, '\0');
            if (!readFully(descriptor, reinterpret_cast<unsigned char *>(text.data()), chunkSize, static_cast<long>(at + 8))) break;
            text.resize(std::strlen(text.c_str()));
            values[kind] = std::move(text);
            have[kind] = true;
        }
        at += 8 + uint64_t(chunkSize) + (chunkSize & 1);
    }
    for (size_t kind = 0; kind < 3; kind++)
        if (have[kind] && !values[kind].empty()) found.emplace_back(textChunks[kind].key, values[kind]);
    return found;
}

} // namespace reprise

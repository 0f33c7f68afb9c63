// A Vorbis comment's keys in the file's order and its fields as written, read from the comment's bytes as
// Ogg::XiphComment::parse reads them, and a FLAC file's comment block found as FLAC::File::scan finds it. Every length
// read from the file is checked against the block it is in, in 64-bit arithmetic.
#include "flac_headers.h"

#include <climits>
#include <cstring>
#include <unistd.h>

namespace reprise {
namespace {

/// The file's bytes through pread, its first part read once and served from memory (where the blocks are).
class Bytes {
public:
    Bytes(int descriptor, long size) : descriptor(descriptor), size(size) {
        const long headLength = size < headSize ? size : headSize;
        head.resize(static_cast<size_t>(headLength > 0 ? headLength : 0));
        ssize_t got = head.empty() ? 0 : pread(descriptor, head.data(), head.size(), 0);
        head.resize(got > 0 ? static_cast<size_t>(got) : 0);
    }

    /// `length` bytes at `offset`, all of them, or false.
    bool read(int64_t offset, int64_t length, std::string &into) const {
        if (offset < 0 || length < 0 || offset > size || length > size - offset) return false;
        if (offset + length <= static_cast<int64_t>(head.size())) {
            into.assign(head, static_cast<size_t>(offset), static_cast<size_t>(length));
            return true;
        }
        into.resize(static_cast<size_t>(length));
        size_t done = 0;
        while (done < into.size()) {
            ssize_t got = pread(descriptor, &into[done], into.size() - done, static_cast<off_t>(offset) + static_cast<off_t>(done));
            if (got <= 0) return false;
            done += static_cast<size_t>(got);
        }
        return true;
    }

private:
    static constexpr long headSize = 16384;
    int descriptor;
    long size;
    std::string head;
};

uint32_t bigEndian(const std::string &bytes, size_t at, size_t count) {
    uint32_t value = 0;
    for (size_t i = 0; i < count; i++) value = value << 8 | static_cast<unsigned char>(bytes[at + i]);
    return value;
}

uint32_t littleEndian32(const char *bytes, size_t at) {
    uint32_t value = 0;
    for (size_t i = 4; i > 0; i--) value = value << 8 | static_cast<unsigned char>(bytes[at + i - 1]);
    return value;
}

/// Calls `field` with each field of a Vorbis comment (`block`: vendor string, count, fields) that
/// Ogg::XiphComment::parse keeps — one with "=" after a key of ASCII 0x20–0x7D, the key upper-cased unless
/// `asWritten` — in the file's order: field(key, value, valueLength) returns false to stop. False for a comment whose
/// lengths do not fit or a key with a NUL byte (TagLib cuts the key there, and may keep what comes before), or when
/// `field` stopped.
template <typename Field> bool forEachField(const char *block, size_t size, Field field, bool asWritten = false) {
    if (size < 8) return false;
    const uint64_t vendorLength = littleEndian32(block, 0);
    if (4 + vendorLength + 4 > size) return false;
    size_t position = 4 + static_cast<size_t>(vendorLength);
    const uint64_t count = littleEndian32(block, position);
    position += 4;
    if (count > (size - 8) / 4) return false;
    for (uint64_t n = 0; n < count; n++) {
        if (size - position < 4) return false;
        const uint64_t length = littleEndian32(block, position);
        position += 4;
        if (length > size - position) return false;
        const char *entry = block + position;
        position += static_cast<size_t>(length);
        const void *found = std::memchr(entry, '=', static_cast<size_t>(length));
        if (!found || found == entry) continue;
        const size_t separator = static_cast<size_t>(static_cast<const char *>(found) - entry);
        std::string key(entry, separator);
        bool validKey = true;
        for (char &c : key) {
            const unsigned char byte = static_cast<unsigned char>(c);
            if (byte == 0) return false;
            if (byte < 0x20 || byte > 0x7D) validKey = false; // TagLib drops it: whatever it decodes to is no key
            if (!asWritten && c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
        }
        if (!validKey) continue;
        if (!field(key, entry + separator + 1, static_cast<size_t>(length) - separator - 1)) return false;
    }
    return true;
}

} // namespace

std::vector<std::string> vorbisCommentValueKeys(const char *comment, size_t size, size_t countLimit) {
    std::vector<std::string> keys;
    forEachField(comment, size, [&](const std::string &key, const char *, size_t valueLength) {
        if (keys.size() >= countLimit) return false;
        if (valueLength > 0 && key != "METADATA_BLOCK_PICTURE" && key != "COVERART") keys.push_back(key);
        return true;
    });
    return keys;
}

std::vector<std::pair<std::string, std::string>> vorbisCommentFieldsAsWritten(const char *comment, size_t size,
                                                                          size_t countLimit) {
    std::vector<std::pair<std::string, std::string>> fields;
    forEachField(comment, size, [&](const std::string &key, const char *value, size_t valueLength) {
        if (fields.size() >= countLimit) return false;
        fields.emplace_back(key, std::string(value, valueLength));
        return true;
    }, true);
    return fields;
}

bool flacCommentBlock(int descriptor, long size, std::string &block) {
    const Bytes bytes(descriptor, size);
    int64_t next = 0;
    // An ID3v2 tag before the stream (TagLib skips it): ten bytes of header, a syncsafe size, a footer if flagged.
    if (bytes.read(0, 10, block) && block.compare(0, 3, "ID3") == 0) {
        int64_t tagSize = 0;
        for (size_t i = 6; i < 10; i++) tagSize = tagSize << 7 | (static_cast<unsigned char>(block[i]) & 0x7F);
        next = 10 + tagSize + ((static_cast<unsigned char>(block[5]) & 0x10) ? 10 : 0);
    }
    if (!bytes.read(next, 4, block) || block != "fLaC") return false;
    next += 4;
    for (int index = 0; index < 1024; index++) {
        std::string header;
        if (!bytes.read(next, 4, header)) return false;
        const unsigned char type = static_cast<unsigned char>(header[0]) & 0x7F;
        const int64_t length = bigEndian(header, 1, 3);
        next += 4;
        if (type == 4) return bytes.read(next, length, block);
        if (static_cast<unsigned char>(header[0]) & 0x80) return false;
        next += length;
    }
    return false;
}

} // namespace reprise

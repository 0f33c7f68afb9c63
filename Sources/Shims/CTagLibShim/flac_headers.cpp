// Plain FLAC files read as TagLib 1.13 reads them (FLAC::File::scan, FLAC::Properties::read, FLAC::Picture::parse,
// Ogg::XiphComment::parse), for the cases where that is simple; every other case is left to TagLib. Every length
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

/// Valid UTF-8 (no overlong forms, surrogates or code points past U+10FFFF, as TagLib's UTF-8 decoder requires) and
/// no NUL (TagLib cuts a string there).
bool isCleanUTF8(const char *text, size_t length) {
    const auto *bytes = reinterpret_cast<const unsigned char *>(text);
    size_t i = 0;
    while (i < length) {
        const unsigned char lead = bytes[i];
        if (lead == 0) return false;
        if (lead < 0x80) {
            i += 1;
            continue;
        }
        size_t count;
        unsigned char low = 0x80, high = 0xBF;
        if (lead >= 0xC2 && lead <= 0xDF) count = 1;
        else if (lead == 0xE0) count = 2, low = 0xA0;
        else if (lead == 0xED) count = 2, high = 0x9F;
        else if (lead >= 0xE1 && lead <= 0xEF) count = 2;
        else if (lead == 0xF0) count = 3, low = 0x90;
        else if (lead == 0xF4) count = 3, high = 0x8F;
        else if (lead >= 0xF1 && lead <= 0xF3) count = 3;
        else return false;
        if (length - i <= count) return false;
        if (bytes[i + 1] < low || bytes[i + 1] > high) return false;
        for (size_t k = 2; k <= count; k++)
            if (bytes[i + k] < 0x80 || bytes[i + k] > 0xBF) return false;
        i += count + 1;
    }
    return true;
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

/// Notes `key` in `order` unless it is there already.
void noteKey(std::vector<std::string> &order, const std::string &key) {
    for (const auto &known : order)
        if (known == key) return;
    order.push_back(key);
}

/// The Vorbis comment's fields, as Ogg::XiphComment::parse keeps them (empty values dropped), and the keys in the
/// order of their first value. False (TagLib reads the file) for a block whose lengths do not fit, a picture among
/// the fields, or text that is not clean UTF-8.
bool parseComment(const std::string &block, std::map<std::string, std::vector<std::string>> &fields,
                  std::vector<std::string> &keyOrder) {
    return forEachField(block.data(), block.size(), [&](const std::string &key, const char *value, size_t valueLength) {
        if (key == "METADATA_BLOCK_PICTURE" || key == "COVERART") return false;
        if (!isCleanUTF8(value, valueLength)) return false;
        if (valueLength > 0) {
            auto &values = fields[key];
            if (values.empty()) keyOrder.push_back(key); // its first value: one look-up, however many keys there are
            values.emplace_back(value, valueLength);
        }
        return true;
    });
}

/// A PICTURE block as FLAC::Picture::parse reads it: its type, media type and where its bytes are in the block.
struct PictureBlock {
    uint32_t type;
    std::string mediaType;
    size_t dataOffset;
    size_t dataLength;
};

bool parsePicture(const std::string &block, PictureBlock &out) {
    if (block.size() < 32) return false;
    out.type = bigEndian(block, 0, 4);
    const uint64_t mediaTypeLength = bigEndian(block, 4, 4);
    uint64_t position = 8;
    if (position + mediaTypeLength + 24 > block.size()) return false;
    out.mediaType.assign(block, static_cast<size_t>(position), static_cast<size_t>(mediaTypeLength));
    if (!isCleanUTF8(out.mediaType.data(), out.mediaType.size())) return false;
    position += mediaTypeLength;
    const uint64_t descriptionLength = bigEndian(block, static_cast<size_t>(position), 4);
    position += 4;
    if (position + descriptionLength + 20 > block.size()) return false;
    if (!isCleanUTF8(block.data() + position, static_cast<size_t>(descriptionLength))) return false;
    position += descriptionLength + 16; // the description, then width, height, colour depth, colours
    const uint64_t dataLength = bigEndian(block, static_cast<size_t>(position), 4);
    position += 4;
    if (position + dataLength > block.size()) return false;
    out.dataOffset = static_cast<size_t>(position);
    out.dataLength = static_cast<size_t>(dataLength);
    return true;
}

} // namespace

std::vector<std::string> vorbisCommentKeyOrder(const char *comment, size_t size) {
    std::vector<std::string> order;
    forEachField(comment, size, [&](const std::string &key, const char *, size_t valueLength) {
        if (valueLength > 0 && key != "METADATA_BLOCK_PICTURE" && key != "COVERART") noteKey(order, key);
        return order.size() < 256; // more keys than any tag has: the rest keep the property map's order
    });
    return order;
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

bool readPlainFLAC(int descriptor, long size, size_t pictureLimit, FLACHeaders &out) {
    if (size < 128) return false;
    const Bytes bytes(descriptor, size);
    std::string block;
    // An ID3v1 tag at the end would take part in TagLib's answer (and its length in the bitrate).
    if (!bytes.read(size - 128, 3, block) || block == "TAG") return false;
    if (!bytes.read(0, 4, block) || block != "fLaC") return false;

    // Real files have a handful of blocks; a crafted one with millions of empty ones is TagLib's (it has a budget).
    static constexpr int maximumBlocks = 1024;
    int64_t next = 4;
    bool sawComment = false, last = false;
    std::string streamInfo;
    std::string pictureBlock;
    PictureBlock best{};
    bool haveBest = false, bestFront = false;
    for (int index = 0; !last; index++) {
        if (index == maximumBlocks) return false;
        std::string header;
        if (!bytes.read(next, 4, header)) return false;
        const unsigned char type = static_cast<unsigned char>(header[0]) & 0x7F;
        last = (static_cast<unsigned char>(header[0]) & 0x80) != 0;
        const int64_t length = bigEndian(header, 1, 3);
        if (index == 0 && (type != 0 || length != 34)) return false;
        if (type == 127 || (length == 0 && type != 1 && type != 3)) return false;
        next += 4;
        if (type == 0 && index == 0) {
            if (!bytes.read(next, length, streamInfo)) return false;
        } else if (type == 4) {
            if (sawComment || !bytes.read(next, length, block) || !parseComment(block, out.fields, out.keyOrder)) return false;
            sawComment = true;
        } else if (type == 6) {
            if (!bytes.read(next, length, block)) return false;
            PictureBlock picture;
            if (!parsePicture(block, picture)) return false;
            const bool front = picture.type == 3;
            // As the TagLib reader chooses: the first picture, replaced only by a later front cover.
            if (picture.dataLength > 0 && (!haveBest || (!bestFront && front))) {
                best = picture;
                haveBest = true;
                bestFront = front;
                pictureBlock = block;
            }
        } else if (type == 0) {
            return false; // a second STREAMINFO
        } else if (length > size - next) {
            return false; // a block past the end
        }
        next += length;
    }
    if (!sawComment || out.fields.empty()) return false; // no tags here: TagLib looks for others

    const uint32_t flags = bigEndian(streamInfo, 10, 4);
    out.sampleRate = static_cast<int>(flags >> 12);
    out.channels = static_cast<int>(((flags >> 9) & 7) + 1);
    out.bitsPerSample = static_cast<int>(((flags >> 4) & 0x1F) + 1);
    const uint64_t frames = static_cast<uint64_t>(flags & 0xF) << 32 | bigEndian(streamInfo, 14, 4);
    if (frames > 0 && out.sampleRate > 0) {
        const double length = static_cast<double>(frames) * 1000.0 / out.sampleRate;
        const double bitrate = static_cast<double>(size - next) * 8.0 / length;
        if (length + 0.5 > INT_MAX || bitrate + 0.5 > INT_MAX || next > size) return false;
        out.lengthMilliseconds = static_cast<int>(length + 0.5);
        out.bitrateKilobits = static_cast<int>(bitrate + 0.5);
    }
    if (haveBest && best.dataLength <= pictureLimit) {
        out.picture.assign(pictureBlock, best.dataOffset, best.dataLength);
        out.pictureType = best.mediaType;
    }
    return true;
}

} // namespace reprise

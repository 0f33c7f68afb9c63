#include "ape_items.h"
#include "read_fully.h"

#include <cstdint>
#include <cstring>

namespace reprise {

namespace {

uint32_t littleEndian32(const unsigned char *bytes) {
    return uint32_t(bytes[0]) | uint32_t(bytes[1]) << 8 | uint32_t(bytes[2]) << 16 | uint32_t(bytes[3]) << 24;
}

} // namespace

std::vector<std::pair<std::string, std::string>> apeTextItems(int descriptor, long size, size_t countLimit) {
    std::vector<std::pair<std::string, std::string>> items;
    constexpr size_t footerSize = 32;
    unsigned char footer[footerSize];
    if (size < static_cast<long>(footerSize) || !readFully(descriptor, footer, footerSize, size - static_cast<long>(footerSize)))
        return items;
    if (std::memcmp(footer, "APETAGEX", 8) != 0 || littleEndian32(footer + 8) != 2000) return items;
    const size_t length = littleEndian32(footer + 12);
    if (length <= footerSize + 10 || length > 1024 * 1024 || static_cast<long>(length) > size) return items;
    size_t remaining = length - footerSize;
    std::vector<unsigned char> tag(remaining);
    if (!readFully(descriptor, tag.data(), remaining, size - static_cast<long>(length))) return items;
    uint32_t count = littleEndian32(footer + 16);
    const unsigned char *at = tag.data();
    while (count-- > 0 && remaining > 10) {
        const size_t valueSize = littleEndian32(at);
        const uint32_t flags = littleEndian32(at + 4);
        at += 8;
        remaining -= 8;
        const void *keyEnd = std::memchr(at, '\0', remaining);
        if (!keyEnd) break;
        const std::string key(reinterpret_cast<const char *>(at), static_cast<const unsigned char *>(keyEnd) - at);
        remaining -= key.size() + 1;
        at += key.size() + 1;
        if (remaining < valueSize) break;
        if ((flags & (0x3 << 1)) == 0) { // UTF-8 text, not binary or a link
            const char *value = reinterpret_cast<const char *>(at), *end = value + valueSize;
            for (;;) {
                const char *separator = static_cast<const char *>(std::memchr(value, '\0', static_cast<size_t>(end - value)));
                if (items.size() >= countLimit) return items;
                items.emplace_back(key, std::string(value, separator ? separator : end));
                if (!separator) break;
                value = separator + 1;
            }
        }
        at += valueSize;
        remaining -= valueSize;
    }
    return items;
}

} // namespace reprise

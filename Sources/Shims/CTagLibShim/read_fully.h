// Reading a file's bytes at an offset, for the shim's own small readers of what TagLib leaves out.
#ifndef REPRISE_READ_FULLY_H
#define REPRISE_READ_FULLY_H

#include <cstddef>
#include <unistd.h>

namespace reprise {

/// Reads `length` bytes at `offset` of the file open at `descriptor` into `into` (pread: the descriptor's position
/// does not move); false when the file ends before or a read fails.
inline bool readFully(int descriptor, unsigned char *into, size_t length, long offset) {
    while (length > 0) {
        const ssize_t got = pread(descriptor, into, length, offset);
        if (got <= 0) return false;
        into += got;
        length -= static_cast<size_t>(got);
        offset += got;
    }
    return true;
}

} // namespace reprise

#endif

// What TagLib's objects do not give of an APEv2 tag: its items in the tag's order, keys as written (MPD's tag order and
// `readcomments` for the files whose tags mpd reads from their APE tag: WavPack, Musepack, TTA, Monkey's Audio).
#ifndef REPRISE_APE_ITEMS_H
#define REPRISE_APE_ITEMS_H

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace reprise {

/// The text items of the APEv2 tag that ends the file open at `descriptor` (`size` bytes, read with pread), as mpd's
/// loader reads them: a tag of version 2000 whose footer is the file's last 32 bytes and that is at most 1 MiB; each
/// item's key as written and each of its values (a list's values are apart, split at NUL), in the tag's order, as
/// far as the tag is well formed; at most `countLimit`. Empty when there is no such tag.
std::vector<std::pair<std::string, std::string>> apeTextItems(int descriptor, long size, size_t countLimit);

} // namespace reprise

#endif

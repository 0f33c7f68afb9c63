#include "mpd_tag_order.h"

#include "ape_items.h"

#include <CAVFormat.h>
#include <cstring>
#include <map>
#include <strings.h>

#include <oggfile.h>
#include <speexfile.h>
#include <textidentificationframe.h>
#include <uniquefileidentifierframe.h>

namespace reprise {

using namespace TagLib;

namespace {

/// TagLib's names for ID3v2 frames, as its property map gives them (protected in TagLib 1.13: reached through a
/// subclass that is never made).
struct FrameKeys : ID3v2::Frame {
    using ID3v2::Frame::frameIDToKey;
    using ID3v2::Frame::txxxToKey;
};

/// A name mpd reads a tag by, and the key TagLib's property map gives that tag.
struct TagName {
    const char *name;
    const char *key;
};

/// mpd's own tag names (`tag_item_names`), in its table's order.
const TagName mpdTagNames[] = {
    {"Artist", "ARTIST"}, {"ArtistSort", "ARTISTSORT"}, {"Album", "ALBUM"}, {"AlbumSort", "ALBUMSORT"},
    {"AlbumArtist", "ALBUMARTIST"}, {"AlbumArtistSort", "ALBUMARTISTSORT"}, {"Title", "TITLE"},
    {"Track", "TRACKNUMBER"}, {"Genre", "GENRE"}, {"Date", "DATE"}, {"OriginalDate", "ORIGINALDATE"},
    {"Composer", "COMPOSER"}, {"ComposerSort", "COMPOSERSORT"}, {"Performer", "PERFORMER"},
    {"Conductor", "CONDUCTOR"}, {"Work", "WORK"}, {"Movement", "MOVEMENTNAME"}, {"MovementNumber", "MOVEMENTNUMBER"},
    {"Ensemble", "ENSEMBLE"}, {"Location", "LOCATION"}, {"Grouping", "GROUPING"}, {"Comment", "COMMENT"},
    {"Disc", "DISCNUMBER"}, {"Label", "LABEL"}, {"MUSICBRAINZ_ARTISTID", "MUSICBRAINZ_ARTISTID"},
    {"MUSICBRAINZ_ALBUMID", "MUSICBRAINZ_ALBUMID"}, {"MUSICBRAINZ_ALBUMARTISTID", "MUSICBRAINZ_ALBUMARTISTID"},
    {"MUSICBRAINZ_TRACKID", "MUSICBRAINZ_TRACKID"}, {"MUSICBRAINZ_RELEASETRACKID", "MUSICBRAINZ_RELEASETRACKID"},
    {"MUSICBRAINZ_WORKID", "MUSICBRAINZ_WORKID"},
};

/// FFmpeg's names mpd knows besides (`ffmpeg_tags`), then the MusicBrainz names of its ID3 table
/// (`musicbrainz_txxx_tags`), in the order its FFmpeg plugin looks them up after its own.
const TagName ffmpegTagNames[] = {
    {"album_artist", "ALBUMARTIST"}, {"album-sort", "ALBUMSORT"}, {"artist-sort", "ARTISTSORT"},
    {"sort_album_artist", "ALBUMARTISTSORT"}, {"sort_album", "ALBUMSORT"}, {"sort_artist", "ARTISTSORT"},
    {"ALBUMARTISTSORT", "ALBUMARTISTSORT"}, {"MusicBrainz Artist Id", "MUSICBRAINZ_ARTISTID"},
    {"MusicBrainz Album Id", "MUSICBRAINZ_ALBUMID"}, {"MusicBrainz Album Artist Id", "MUSICBRAINZ_ALBUMARTISTID"},
    {"MusicBrainz Track Id", "MUSICBRAINZ_TRACKID"}, {"MusicBrainz Release Track Id", "MUSICBRAINZ_RELEASETRACKID"},
    {"MusicBrainz Work Id", "MUSICBRAINZ_WORKID"},
};

/// Keys in order, each once: `note` adds one not there yet.
struct KeyOrder {
    std::vector<std::string> keys;
    void note(const std::string &key) {
        for (const auto &known : keys)
            if (known == key) return;
        if (keys.size() < 256) keys.push_back(key); // more keys than any tag has: the rest keep the map's order
    }
};

/// The key TagLib gives the tag mpd reads an APE item of key `key` as (`ape_tags`: "album artist", "year"; then its
/// own names, whatever the case); nullptr for one it does not read.
const char *apeItemTagKey(const std::string &key) {
    if (strcasecmp(key.c_str(), "album artist") == 0) return "ALBUMARTIST";
    if (strcasecmp(key.c_str(), "year") == 0) return "DATE";
    for (const auto &tag : mpdTagNames)
        if (strcasecmp(key.c_str(), tag.name) == 0) return tag.key;
    return nullptr;
}

} // namespace

/// An ID3v2 tag's keys in the order mpd's scanner lists them: its table of text frames (artist, album artist, the sort
/// names, title, album, track, date, original date, genre, composer, conductor, performer, grouping, comment, disc,
/// label), then the TXXX frames as the file has them, then the MusicBrainz track id of a UFID frame; each frame's key
/// as its own part of the property map says. mpd reads TIT1 as Grouping and TPE4 as Performer, where TagLib's
/// property map names them otherwise: their values move to those keys in `map`, as mpd lists them.
std::vector<std::string> id3KeyOrder(const ID3v2::Tag &tag, PropertyMap &map) {
    static const char *const frames[] = {"TPE1", "TPE2", "TSOP", "TSOA", "TSO2", "TIT2", "TALB", "TRCK", "TDRC",
                                         "TDOR", "TCON", "TCOM", "TPE3", "TPE4", "TIT1", "COMM", "TPOS", "TPUB"};
    static const struct { const char *frame; const char *key; } mpdNames[] = {{"TIT1", "GROUPING"}, {"TPE4", "PERFORMER"}};
    KeyOrder order;
    auto note = [&order](const std::string &key) { order.note(key); };
    const ID3v2::FrameListMap &byID = tag.frameListMap();
    for (const auto &renamed : mpdNames) {
        const auto found = byID.find(ByteVector(renamed.frame));
        if (found == byID.end()) continue;
        StringList moved;
        for (const auto *frame : found->second)
            if (const auto *text = dynamic_cast<const ID3v2::TextIdentificationFrame *>(frame)) moved.append(text->fieldList());
        const String taglibKey = FrameKeys::frameIDToKey(ByteVector(renamed.frame));
        if (moved.isEmpty() || taglibKey == renamed.key) continue;
        const auto entry = map.find(taglibKey);
        if (entry != map.end()) {
            // Each moved value taken out once, looked up in a map: a crafted tag's thousands of values stay linear.
            std::map<String, size_t> toTake;
            for (const auto &value : moved) ++toTake[value];
            StringList kept;
            for (const auto &value : entry->second) {
                const auto take = toTake.find(value);
                if (take != toTake.end() && take->second > 0) --take->second; else kept.append(value);
            }
            if (kept.isEmpty()) map.erase(taglibKey); else entry->second = kept;
        }
        map[String(renamed.key)].append(moved);
    }
    for (const char *id : frames) {
        const auto found = byID.find(ByteVector(id));
        if (found == byID.end() || found->second.isEmpty()) continue;
        const char *key = nullptr;
        for (const auto &renamed : mpdNames)
            if (std::strcmp(renamed.frame, id) == 0) key = renamed.key;
        note(key ? std::string(key) : FrameKeys::frameIDToKey(ByteVector(id)).to8Bit(true));
    }
    const auto txxx = byID.find("TXXX");
    if (txxx != byID.end())
        for (const auto *frame : txxx->second)
            if (const auto *user = dynamic_cast<const ID3v2::UserTextIdentificationFrame *>(frame))
                note(FrameKeys::txxxToKey(user->description()).to8Bit(true));
    const auto ufid = byID.find("UFID");
    if (ufid != byID.end())
        for (const auto *frame : ufid->second)
            if (const auto *id = dynamic_cast<const ID3v2::UniqueFileIdentifierFrame *>(frame))
                if (id->owner() == "http://musicbrainz.org") note("MUSICBRAINZ_TRACKID");
    return order.keys;
}

/// An MP4 tag's keys in the order mpd lists them. mpd reads an MP4 file with FFmpeg, whose names for its atoms
/// it looks up in three passes (`FfmpegScanDictionary`): its own tag names in its table's order (artist, album,
/// title, track, genre, date, original date, composer, conductor, grouping, comment, disc, label: FFmpeg's names
/// for these atoms, or a freeform atom's own name, are the same words), then FFmpeg's names it knows besides
/// (`album_artist`, then the sort names), then the MusicBrainz ids by their freeform names. A tag FFmpeg does not
/// name as mpd knows it (a composer's sort name, a work, a movement) is listed at its tag's place in the table.
std::vector<std::string> mp4KeyOrder() {
    return {"ARTIST", "ALBUM", "TITLE", "TRACKNUMBER", "GENRE", "DATE", "ORIGINALDATE", "COMPOSER", "COMPOSERSORT",
            "PERFORMER", "CONDUCTOR", "WORK", "MOVEMENTNAME", "MOVEMENTNUMBER", "GROUPING", "COMMENT", "DISCNUMBER",
            "LABEL", "ALBUMARTIST", "ALBUMARTISTSORT", "ALBUMSORT", "ARTISTSORT", "MUSICBRAINZ_ARTISTID",
            "MUSICBRAINZ_ALBUMID", "MUSICBRAINZ_ALBUMARTISTID", "MUSICBRAINZ_TRACKID", "MUSICBRAINZ_RELEASETRACKID",
            "MUSICBRAINZ_WORKID"};
}

/// Whether mpd 0.23 reads the file with FFmpeg: the first of its decoder plugins for the file's suffix that reads it is
/// its FFmpeg plugin (Debian's build: MP4, ASF, Monkey's Audio, TTA, AIFF-C; an Ogg file of Speex, which its Ogg
/// plugins leave to FFmpeg).
bool mpdReadsWithFFmpeg(const std::string &extension, File *file) {
    static const char *const extensions[] = {"m4a", "m4b", "mp4", "ape", "tta", "wma", "asf", "spx", "aifc"};
    for (const char *known : extensions)
        if (extension == known) return true;
    return dynamic_cast<Ogg::Speex::File *>(file) != nullptr;
}

bool readFFmpegMetadata(int descriptor, long size, const std::string &extension, FFmpegMetadata &metadata) {
    const std::string name = "file." + extension; // FFmpeg probes by content, and by a name's suffix too
    auto visit = [](void *context, int inStream, const char *key, const char *value) {
        auto &metadata = *static_cast<FFmpegMetadata *>(context);
        if (metadata.count >= metadata.limit) return;
        metadata.count += 1;
        metadata.entries[inStream ? 1 : 0].emplace_back(key, value);
    };
    return rp_av_read_metadata(descriptor, size, name.c_str(), visit, &metadata) == 0;
}

/// The tags mpd lists of a file it reads with FFmpeg, taken from FFmpeg's metadata as its FFmpeg plugin takes them
/// (`FfmpegScanDictionary`): for the container's metadata, then the audio stream's, it looks up its own tag names in
/// its table's order, then FFmpeg's names it knows besides (the album artist, the sort names), then the MusicBrainz
/// names of its ID3 table — each name whatever its case, each match a value (one matched by two names twice, as mpd
/// lists it). Each under the key TagLib's property map gives that tag, the keys in mpd's order in `order`. Then the
/// tags of `map` (TagLib's) that FFmpeg gave none of — a composer's sort name, a work, which FFmpeg names otherwise
/// than mpd looks up — at their place in mpd's table.
PropertyMap ffmpegTags(const FFmpegMetadata &metadata, const PropertyMap &map, std::vector<std::string> &order) {
    PropertyMap tags;
    KeyOrder keys;
    auto lookUp = [&](const std::vector<std::pair<std::string, std::string>> &entries, const TagName &tag) {
        for (const auto &entry : entries)
            if (strcasecmp(entry.first.c_str(), tag.name) == 0) {
                keys.note(tag.key);
                tags[String(tag.key, String::UTF8)].append(String(entry.second, String::UTF8));
            }
    };
    for (const auto &entries : metadata.entries) {
        for (const auto &tag : mpdTagNames) lookUp(entries, tag);
        for (const auto &tag : ffmpegTagNames) lookUp(entries, tag);
    }
    for (const auto &[key, values] : map)
        if (!tags.contains(key)) tags[key] = values;
    for (const auto &key : mp4KeyOrder()) keys.note(key);
    order = keys.keys;
    return tags;
}

/// The keys of a file whose tags mpd reads from its APE tag (its decoder plugin gives none: WavPack, Musepack) in the
/// order mpd lists them: its items' order; TagLib's further tags after, at their place in mpd's table.
std::vector<std::string> apeKeyOrder(const std::vector<std::pair<std::string, std::string>> &items) {
    KeyOrder order;
    for (const auto &item : items)
        if (const char *key = apeItemTagKey(item.first)) order.note(key);
    for (const auto &key : mp4KeyOrder()) order.note(key);
    return order.keys;
}

/// What mpd's generic scan adds to a file's `readcomments`: its APE tag's text items; when none of them is a tag mpd
/// reads, the TXXX frames of its ID3v2 tag `tag` (each description and first value), as the tag has them.
std::vector<std::pair<std::string, std::string>> genericComments(const ID3v2::Tag *tag, int descriptor, long size,
                                                                size_t countLimit) {
    auto items = apeTextItems(descriptor, size, countLimit);
    for (const auto &item : items)
        if (apeItemTagKey(item.first)) return items;
    if (!tag) return items;
    const auto txxx = tag->frameListMap().find("TXXX");
    if (txxx == tag->frameListMap().end()) return items;
    for (const auto *frame : txxx->second) {
        const auto *user = dynamic_cast<const ID3v2::UserTextIdentificationFrame *>(frame);
        if (!user || items.size() >= countLimit) continue;
        const StringList fields = user->fieldList();
        if (fields.size() >= 2) items.emplace_back(fields[0].to8Bit(true), fields[1].to8Bit(true));
    }
    return items;
}

std::vector<std::string> sndfileKeyOrder() { return {"TITLE", "ARTIST", "COMMENT", "DATE", "ALBUM", "TRACKNUMBER", "GENRE"}; }

} // namespace reprise

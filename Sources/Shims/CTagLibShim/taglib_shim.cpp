// The C interface over TagLib that the tag reader process (reprise-tag-reader) serves: one call reads a file's property
// map, its audio properties and its front cover from the headers — nothing is decoded. No C++ type or exception
// crosses it. The service never links it (TagLibKit asks the process, through CTagReaderClient).
#include "CTagLibShim.h"
#include "aiff_chunks.h"
#include "ape_items.h"
#include "flac_headers.h"
#include "mpd_tag_order.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>
#include <sys/stat.h>
#include <unistd.h>

#include <aifffile.h>
#include <apefile.h>
#include <asffile.h>
#include <attachedpictureframe.h>
#include <flacfile.h>
#include <id3v2tag.h>
#include <mp4atom.h>
#include <mp4file.h>
#include <mpcfile.h>
#include <mpegfile.h>
#include <oggflacfile.h>
#include <opusfile.h>
#include <speexfile.h>
#include <synchronizedlyricsframe.h>
#include <tdebuglistener.h>
#include <tiostream.h>
#include <tpropertymap.h>
#include <trueaudiofile.h>
#include <vorbisfile.h>
#include <wavfile.h>
#include <wavpackfile.h>
#include <xiphcomment.h>

namespace {

using namespace TagLib;

/// TagLib reports what it finds odd in a file on standard error; a hostile file must not fill the journal.
class SilentListener : public DebugListener {
public:
    void printMessage(const String &) override {}
};

SilentListener silent;

const AudioProperties::ReadStyle style = AudioProperties::Average;

/// A read-only stream over a descriptor with `pread`: no stdio, no seeks of the descriptor (a seek only moves the
/// position), and the file's first 16 KiB read in one call and served from memory — where the formats keep their
/// headers and (pictures aside) their tags — so reading a typical file's tags costs two or three system calls
/// instead of about thirty.
class DescriptorStream : public IOStream {
public:
    static constexpr long headSize = 16384;

    DescriptorStream(int descriptor, long size) : descriptor(descriptor), size(size) {
        const long headLength = size < headSize ? size : headSize;
        head.resize(static_cast<unsigned int>(headLength));
        ssize_t got = headLength > 0 ? pread(descriptor, head.data(), static_cast<size_t>(headLength), 0) : 0;
        head.resize(got > 0 ? static_cast<unsigned int>(got) : 0);
    }

    FileName name() const override { return FileName(""); }

    ByteVector readBlock(unsigned long length) override {
        if (position >= size || length == 0) return ByteVector();
        // A crafted file can also send TagLib round the same few bytes (atoms, chunks) millions of times, each
        // read allocating: past this many reads the stream ends too. Real files need a few hundred.
        if (reads == maximumReads) {
            exhausted = true;
            return ByteVector();
        }
        reads += 1;
        const unsigned long available = static_cast<unsigned long>(size - position);
        if (length > available) length = available;
        if (length > maximumBlock) length = maximumBlock; // only a crafted size asks for more: a short read
        // TagLib searches some formats byte by byte for a marker (FLAC's "fLaC", MPEG's first frame): over a huge
        // file with none (8 GiB of zeros named .flac) that is millions of reads. Past the budget the stream ends and
        // the file counts as not read: GStreamer's discoverer has it instead (nothing legitimate is cut).
        if (budget < length) {
            exhausted = true;
            return ByteVector();
        }
        budget -= length;
        if (position + static_cast<long>(length) <= static_cast<long>(head.size())) {
            ByteVector block = head.mid(static_cast<unsigned int>(position), static_cast<unsigned int>(length));
            position += static_cast<long>(length);
            return block;
        }
        ByteVector block(static_cast<unsigned int>(length), 0);
        ssize_t got = pread(descriptor, block.data(), length, position);
        if (got <= 0) return ByteVector();
        block.resize(static_cast<unsigned int>(got));
        position += got;
        return block;
    }

    void writeBlock(const ByteVector &) override {}
    void insert(const ByteVector &, unsigned long, unsigned long) override {}
    void removeBlock(unsigned long, unsigned long) override {}
    bool readOnly() const override { return true; }
    bool isOpen() const override { return true; }

    /// Positions stay within the file. A size read from a crafted header (an MP4 box "near 2^63 bytes long")
    /// overflows TagLib's `offset + length` into a negative position: that seek fails and the position stays where
    /// it was, as `fseek` does for TagLib's own file stream (clamping it to 0 sent TagLib round the first box
    /// forever, allocating as it went). A position past the end is the end.
    void seek(long offset, Position from) override {
        long base = from == Beginning ? 0 : from == Current ? position : size;
        long target = 0;
        if (__builtin_add_overflow(base, offset, &target) || target < 0) return;
        position = target > size ? size : target;
    }

    long tell() const override { return position; }

    /// Whether a read was refused for the budget (the file is then not TagLib's).
    bool exhausted = false;
    long length() override { return size; }
    void truncate(long) override {}

private:
    /// The most one read returns: no real tag or header block comes near (pictures are capped far lower).
    static constexpr unsigned long maximumBlock = 256ul << 20;
    /// The most read from one file, all reads together: tags with the largest pictures stay far below.
    unsigned long budget = 128ul << 20;
    /// The most reads from one file.
    static constexpr unsigned long maximumReads = 250000;
    unsigned long reads = 0;
    int descriptor;
    long size;
    long position = 0;
    ByteVector head;
};

/// A TagLib file of the format `extension` names over `stream`, or nullptr (unknown extension, or not valid).
std::unique_ptr<File> openAs(const std::string &extension, IOStream *stream) {
    std::unique_ptr<File> file;
    auto valid = [](std::unique_ptr<File> candidate) -> std::unique_ptr<File> {
        return candidate && candidate->isValid() ? std::move(candidate) : nullptr;
    };
    if (extension == "mp3" || extension == "mp2")
        return valid(std::make_unique<MPEG::File>(stream, ID3v2::FrameFactory::instance(), true, style));
    if (extension == "flac")
        return valid(std::make_unique<FLAC::File>(stream, ID3v2::FrameFactory::instance(), true, style));
    if (extension == "ogg" || extension == "oga") {
        // An Ogg file may carry Vorbis, Opus, FLAC or Speex: each reader is tried from the start of the stream.
        if ((file = valid(std::make_unique<Ogg::Vorbis::File>(stream, true, style)))) return file;
        stream->seek(0);
        if ((file = valid(std::make_unique<Ogg::Opus::File>(stream, true, style)))) return file;
        stream->seek(0);
        if ((file = valid(std::make_unique<Ogg::FLAC::File>(stream, true, style)))) return file;
        stream->seek(0);
        return valid(std::make_unique<Ogg::Speex::File>(stream, true, style));
    }
    if (extension == "opus") return valid(std::make_unique<Ogg::Opus::File>(stream, true, style));
    if (extension == "spx") return valid(std::make_unique<Ogg::Speex::File>(stream, true, style));
    if (extension == "m4a" || extension == "m4b" || extension == "mp4")
        return valid(std::make_unique<MP4::File>(stream, true, style));
    if (extension == "wav") return valid(std::make_unique<RIFF::WAV::File>(stream, true, style));
    if (extension == "aif" || extension == "aiff" || extension == "aifc")
        return valid(std::make_unique<RIFF::AIFF::File>(stream, true, style));
    if (extension == "ape") return valid(std::make_unique<APE::File>(stream, true, style));
    if (extension == "wv") return valid(std::make_unique<WavPack::File>(stream, true, style));
    if (extension == "mpc") return valid(std::make_unique<MPC::File>(stream, true, style));
    if (extension == "tta") return valid(std::make_unique<TrueAudio::File>(stream, true, style));
    if (extension == "wma" || extension == "asf") return valid(std::make_unique<ASF::File>(stream, true, style));
    return nullptr;
}


/// A picture found in the tags: its bytes and media type, and whether it is the front cover.
struct Picture {
    ByteVector data;
    std::string type;
    bool front = false;
};

void consider(Picture &best, const ByteVector &data, const String &mimeType, bool front) {
    if (data.isEmpty()) return;
    if (!best.data.isEmpty() && (best.front || !front)) return;
    best.data = data;
    best.type = mimeType.to8Bit(true);
    best.front = front;
}

void fromID3v2(Picture &best, ID3v2::Tag *tag) {
    if (!tag) return;
    const ID3v2::FrameList &frames = tag->frameListMap()["APIC"];
    for (auto *frame : frames) {
        if (auto *picture = dynamic_cast<ID3v2::AttachedPictureFrame *>(frame))
            consider(best, picture->picture(), picture->mimeType(),
                     picture->type() == ID3v2::AttachedPictureFrame::FrontCover);
    }
}

void fromFLACPictures(Picture &best, const List<FLAC::Picture *> &pictures) {
    for (auto *picture : pictures)
        consider(best, picture->data(), picture->mimeType(), picture->type() == FLAC::Picture::FrontCover);
}

Picture pictureOf(File *file) {
    Picture best;
    if (auto *mpeg = dynamic_cast<MPEG::File *>(file)) {
        if (mpeg->hasID3v2Tag()) fromID3v2(best, mpeg->ID3v2Tag());
    } else if (auto *flac = dynamic_cast<FLAC::File *>(file)) {
        fromFLACPictures(best, flac->pictureList());
        if (best.data.isEmpty() && flac->hasXiphComment()) fromFLACPictures(best, flac->xiphComment()->pictureList());
    } else if (auto *wav = dynamic_cast<RIFF::WAV::File *>(file)) {
        if (wav->hasID3v2Tag()) fromID3v2(best, wav->ID3v2Tag());
    } else if (auto *aiff = dynamic_cast<RIFF::AIFF::File *>(file)) {
        if (aiff->hasID3v2Tag()) fromID3v2(best, aiff->tag());
    } else if (auto *mp4 = dynamic_cast<MP4::File *>(file)) {
        MP4::Tag *tag = mp4->tag();
        if (tag && tag->contains("covr")) {
            for (const auto &art : tag->item("covr").toCoverArtList()) {
                const char *type = art.format() == MP4::CoverArt::PNG ? "image/png"
                                   : art.format() == MP4::CoverArt::GIF ? "image/gif"
                                   : art.format() == MP4::CoverArt::BMP ? "image/bmp" : "image/jpeg";
                consider(best, art.data(), type, true);
                break;
            }
        }
    } else if (auto *asf = dynamic_cast<ASF::File *>(file)) {
        ASF::Tag *tag = asf->tag();
        if (tag && tag->contains("WM/Picture")) {
            for (const auto &attribute : tag->attribute("WM/Picture")) {
                ASF::Picture picture = attribute.toPicture();
                if (picture.isValid())
                    consider(best, picture.picture(), picture.mimeType(), picture.type() == ASF::Picture::FrontCover);
            }
        }
    } else if (auto *xiph = dynamic_cast<Ogg::XiphComment *>(file->tag())) {
        fromFLACPictures(best, xiph->pictureList());
    }
    return best;
}

/// The ID3v2 tag of a file that has one (MP3, WAV, AIFF).
ID3v2::Tag *id3v2Of(File *file) {
    if (auto *mpeg = dynamic_cast<MPEG::File *>(file)) return mpeg->hasID3v2Tag() ? mpeg->ID3v2Tag() : nullptr;
    if (auto *wav = dynamic_cast<RIFF::WAV::File *>(file)) return wav->hasID3v2Tag() ? wav->ID3v2Tag() : nullptr;
    if (auto *aiff = dynamic_cast<RIFF::AIFF::File *>(file)) return aiff->hasID3v2Tag() ? aiff->tag() : nullptr;
    return nullptr;
}

/// Synchronised lyrics (ID3v2 SYLT with times in milliseconds; the property map leaves them out) as LRC text: one
/// "[mm:ss.xx]text" line per entry, at most `limit` bytes. Empty when there are none.
std::string syncedLyricsAsLRC(File *file, size_t limit) {
    ID3v2::Tag *tag = id3v2Of(file);
    if (!tag) return "";
    std::string lrc;
    for (auto *frame : tag->frameListMap()["SYLT"]) {
        auto *lyrics = dynamic_cast<ID3v2::SynchronizedLyricsFrame *>(frame);
        if (!lyrics || lyrics->timestampFormat() != ID3v2::SynchronizedLyricsFrame::AbsoluteMilliseconds) continue;
        if (lyrics->type() != ID3v2::SynchronizedLyricsFrame::Lyrics) continue;
        for (const auto &entry : lyrics->synchedText()) {
            std::string text = entry.text.to8Bit(true);
            size_t first = text.find_first_not_of("\r\n"), last = text.find_last_not_of("\r\n");
            text = first == std::string::npos ? "" : text.substr(first, last - first + 1);
            for (char &c : text) if (c == '\n' || c == '\r') c = ' ';
            unsigned int ms = entry.time;
            char stamp[32];
            std::snprintf(stamp, sizeof stamp, "[%u:%02u.%02u]", ms / 60000, ms / 1000 % 60, ms / 10 % 100);
            if (lrc.size() + std::strlen(stamp) + text.size() + 1 > limit) return lrc;
            lrc += stamp;
            lrc += text;
            lrc += '\n';
        }
        if (!lrc.empty()) break; // the first frame of lyrics with times
    }
    return lrc;
}

/// Appends [u32 length][bytes] to `out`, cut at `limit` bytes.
void appendRecord(std::string &out, const std::string &bytes, size_t limit) {
    uint32_t length = static_cast<uint32_t>(bytes.size() < limit ? bytes.size() : limit);
    out.append(reinterpret_cast<const char *>(&length), sizeof length);
    out.append(bytes.data(), length);
}

/// Hands `properties` (records) and the picture to `out`, in memory of its own. 0, or -2 when memory ran out.
int deliver(const std::string &properties, const char *picture, size_t pictureSize, const std::string &pictureType,
            size_t pictureLimit, rp_taglib_file *out) {
    if (!properties.empty()) {
        out->properties = static_cast<uint8_t *>(std::malloc(properties.size()));
        if (!out->properties) return -2;
        std::memcpy(out->properties, properties.data(), properties.size());
        out->properties_size = properties.size();
    }
    if (pictureSize > 0 && pictureSize <= pictureLimit) {
        out->picture = static_cast<uint8_t *>(std::malloc(pictureSize));
        if (out->picture) {
            std::memcpy(out->picture, picture, pictureSize);
            out->picture_size = pictureSize;
            std::strncpy(out->picture_type, pictureType.c_str(), sizeof out->picture_type - 1);
        }
    }
    return 0;
}

/// The channels an AAC decoder gives for the sample entry `entry` (an `mp4a` atom's bytes), from the
/// AudioSpecificConfig in its `esds`: 0 when that cannot be read or names no layout (a program config element).
int aacConfiguredChannels(const ByteVector &entry) {
    const int esds = entry.find("esds");
    if (esds < 0) return 0;
    const size_t end = entry.size();
    size_t at = static_cast<size_t>(esds) + 8; // past the name, the version and the flags
    auto byte = [&](size_t index) -> int { return index < end ? static_cast<unsigned char>(entry[index]) : -1; };
    // Moves past a descriptor's tag (which must be `tag`) and its size (one to four bytes, seven bits each).
    auto enter = [&](int tag) -> bool {
        if (byte(at++) != tag) return false;
        for (int i = 0; i < 4; ++i) {
            const int size = byte(at++);
            if (size < 0) return false;
            if (!(size & 0x80)) return true;
        }
        return true;
    };
    if (!enter(0x03)) return 0; // ES_Descriptor: its id, flags, and what the flags say follows
    const int flags = byte(at + 2);
    if (flags < 0) return 0;
    at += 3;
    if (flags & 0x80) at += 2;
    if (flags & 0x40) {
        const int length = byte(at);
        if (length < 0) return 0;
        at += 1 + static_cast<size_t>(length);
    }
    if (flags & 0x20) at += 2;
    if (!enter(0x04)) return 0; // DecoderConfigDescriptor: 13 bytes before the decoder's own
    at += 13;
    if (!enter(0x05)) return 0;
    // AudioSpecificConfig: the object type (5 bits; 31: 6 more), the rate's index (4 bits; 15: a rate of 24), then
    // the channel configuration (4 bits): at most 43 bits, read from the 6 bytes at `at` (those there).
    uint64_t bits = 0;
    int available = 0;
    for (int i = 0; i < 6; ++i) {
        const int value = byte(at + i);
        bits = bits << 8 | static_cast<uint64_t>(value < 0 ? 0 : value);
        if (value >= 0) available += 8;
    }
    int position = 48;
    auto take = [&](int count) -> unsigned {
        position -= count;
        return static_cast<unsigned>(bits >> position) & ((1u << count) - 1);
    };
    unsigned type = take(5);
    if (type == 31) type = 32 + take(6);
    if (take(4) == 15) take(24);
    const unsigned configuration = take(4);
    if (48 - position > available || configuration == 0 || configuration > 7) return 0;
    static const int channels[] = {0, 1, 2, 3, 4, 5, 6, 8};
    return type == 29 && configuration == 1 ? 2 : channels[configuration]; // parametric stereo: one channel coded, two decoded
}

/// The channels the first sound track of `mp4` decodes to when it is AAC (its sample entry's own count is 2 for
/// most mono files: encoders write the field as ISO's files fix it); 0 when it cannot be told.
int aacChannels(MP4::File *mp4) {
    MP4::Atoms atoms(mp4);
    MP4::Atom *movie = atoms.find("moov");
    if (!movie) return 0;
    for (MP4::Atom *track : movie->findall("trak")) {
        MP4::Atom *handler = track->find("mdia", "hdlr");
        MP4::Atom *descriptions = track->find("mdia", "minf", "stbl", "stsd");
        MP4::Atom *entry = descriptions ? descriptions->find("mp4a") : nullptr;
        if (!handler || !entry || handler->length <= 0 || handler->length > 4096 || entry->length <= 0 || entry->length > 65536) continue;
        mp4->seek(handler->offset);
        if (!mp4->readBlock(handler->length).containsAt("soun", 16)) continue;
        mp4->seek(entry->offset);
        return aacConfiguredChannels(mp4->readBlock(entry->length));
    }
    return 0;
}

/// The codec of `file` as its type and headers say, and the bits of each sample where the codec keeps them.
void describeEncoding(File *file, rp_taglib_file *out) {
    if (dynamic_cast<Ogg::Vorbis::File *>(file)) {
        out->headers.codec = RP_CODEC_VORBIS;
    } else if (dynamic_cast<Ogg::Opus::File *>(file)) {
        out->headers.codec = RP_CODEC_OPUS;
    } else if (auto *flac = dynamic_cast<FLAC::File *>(file)) {
        out->headers.codec = RP_CODEC_FLAC;
        out->headers.bits_per_sample = flac->audioProperties()->bitsPerSample();
    } else if (auto *oggFLAC = dynamic_cast<Ogg::FLAC::File *>(file)) {
        out->headers.codec = RP_CODEC_FLAC;
        out->headers.bits_per_sample = oggFLAC->audioProperties()->bitsPerSample();
    } else if (dynamic_cast<MPEG::File *>(file)) {
        out->headers.codec = RP_CODEC_MPEG;
    } else if (auto *mp4 = dynamic_cast<MP4::File *>(file)) {
        const MP4::Properties *audio = mp4->audioProperties();
        out->headers.codec = audio->codec() == MP4::Properties::ALAC ? RP_CODEC_ALAC
                   : audio->codec() == MP4::Properties::AAC ? RP_CODEC_AAC : RP_CODEC_UNKNOWN;
        if (out->headers.codec == RP_CODEC_ALAC) out->headers.bits_per_sample = audio->bitsPerSample();
        if (out->headers.codec == RP_CODEC_AAC) {
            const int channels = aacChannels(mp4);
            if (channels > 0) out->headers.channels = channels;
        }
    } else if (auto *wav = dynamic_cast<RIFF::WAV::File *>(file)) {
        const int format = wav->audioProperties()->format(); // the WAVE format tag: 1 integer PCM, 3 IEEE float
        out->headers.codec = format == 1 ? RP_CODEC_PCM : format == 3 ? RP_CODEC_PCM_FLOAT : RP_CODEC_UNKNOWN;
        out->headers.bits_per_sample = wav->audioProperties()->bitsPerSample();
    } else if (auto *aiff = dynamic_cast<RIFF::AIFF::File *>(file)) {
        out->headers.codec = aiff->audioProperties()->isAiffC() ? RP_CODEC_UNKNOWN : RP_CODEC_PCM;
        out->headers.bits_per_sample = aiff->audioProperties()->bitsPerSample();
    } else if (auto *wavPack = dynamic_cast<WavPack::File *>(file)) {
        out->headers.codec = RP_CODEC_WAVPACK;
        out->headers.bits_per_sample = wavPack->audioProperties()->bitsPerSample();
    } else if (auto *asf = dynamic_cast<ASF::File *>(file)) {
        const bool lossless = asf->audioProperties()->codec() == ASF::Properties::WMA9Lossless;
        out->headers.codec = lossless ? RP_CODEC_WMA_LOSSLESS : RP_CODEC_WMA;
        if (lossless) out->headers.bits_per_sample = asf->audioProperties()->bitsPerSample();
    } else if (dynamic_cast<Ogg::Speex::File *>(file)) {
        out->headers.codec = RP_CODEC_SPEEX;
    } else if (auto *trueAudio = dynamic_cast<TrueAudio::File *>(file)) {
        out->headers.codec = RP_CODEC_TTA;
        out->headers.bits_per_sample = trueAudio->audioProperties()->bitsPerSample();
    } else if (auto *monkeys = dynamic_cast<APE::File *>(file)) {
        out->headers.codec = RP_CODEC_MONKEYS_AUDIO;
        out->headers.bits_per_sample = monkeys->audioProperties()->bitsPerSample();
    }
}

/// A file's Vorbis comment in `comment`: FLAC's comment block, or an Ogg stream's (Vorbis, Opus, Speex: the comment
/// is the stream's second packet, after its own header); false for any other file.
bool vorbisCommentOf(File *file, int descriptor, long size, std::string &comment) {
    if (dynamic_cast<FLAC::File *>(file)) return reprise::flacCommentBlock(descriptor, size, comment);
    size_t header = 0;
    Ogg::File *ogg = nullptr;
    if (auto *vorbis = dynamic_cast<Ogg::Vorbis::File *>(file)) {
        ogg = vorbis;
        header = 7; // "\x03vorbis"
    } else if (auto *opus = dynamic_cast<Ogg::Opus::File *>(file)) {
        ogg = opus;
        header = 8; // "OpusTags"
    } else if (auto *speex = dynamic_cast<Ogg::Speex::File *>(file)) {
        ogg = speex;
    }
    if (!ogg) return false;
    const ByteVector packet = ogg->packet(1);
    if (packet.size() <= header) return false;
    comment.assign(packet.data() + header, packet.size() - header);
    return true;
}

/// The property map as records: the keys of `order` first (those the map has), then the others by key; at most
/// `countLimit` values.
std::string propertyRecords(const PropertyMap &map, const std::vector<std::string> &order, size_t valueLimit,
                            size_t countLimit, size_t &values) {
    std::string properties;
    auto append = [&](const std::string &key, const StringList &list) {
        for (const auto &value : list) {
            if (values++ >= countLimit) break;
            appendRecord(properties, key, valueLimit);
            appendRecord(properties, value.to8Bit(true), valueLimit);
        }
    };
    for (const auto &key : order) {
        const auto entry = map.find(String(key, String::UTF8));
        if (entry != map.end()) append(key, entry->second);
    }
    for (auto entry = map.begin(); entry != map.end() && values < countLimit; ++entry) {
        const std::string key = entry->first.to8Bit(true);
        bool placed = false;
        for (const auto &known : order) placed = placed || known == key;
        if (!placed) append(key, entry->second);
    }
    return properties;
}

/// A Vorbis comment's property map as records in the order of its values (`valueKeys`: each value's key as the
/// comment has them), one tag's values perhaps between another's, as mpd lists them; values of the map the keys do
/// not account for follow, by key. At most `countLimit` values.
std::string valueOrderRecords(const PropertyMap &map, const std::vector<std::string> &valueKeys, size_t valueLimit,
                              size_t countLimit, size_t &values) {
    std::string properties;
    std::map<std::string, std::pair<StringList::ConstIterator, StringList::ConstIterator>> next; // each key's next value
    for (const auto &key : valueKeys) {
        if (values >= countLimit) break;
        auto cursor = next.find(key);
        if (cursor == next.end()) {
            const auto entry = map.find(String(key, String::UTF8));
            if (entry == map.end()) continue;
            cursor = next.emplace(key, std::make_pair(entry->second.begin(), entry->second.end())).first;
        }
        auto &[value, end] = cursor->second;
        if (value == end) continue;
        values++;
        appendRecord(properties, key, valueLimit);
        appendRecord(properties, (value++)->to8Bit(true), valueLimit);
    }
    for (auto entry = map.begin(); entry != map.end() && values < countLimit; ++entry) {
        const std::string key = entry->first.to8Bit(true);
        const auto cursor = next.find(key);
        auto value = cursor == next.end() ? entry->second.begin() : cursor->second.first;
        for (; value != entry->second.end() && values < countLimit; ++value, ++values) {
            appendRecord(properties, key, valueLimit);
            appendRecord(properties, value->to8Bit(true), valueLimit);
        }
    }
    return properties;
}

int read(int descriptor, long size, const char *extensionText, size_t pictureLimit, size_t valueLimit, size_t countLimit,
         uint32_t flags, rp_taglib_file *out) {
    std::string extension(extensionText ? extensionText : "");
    if (!rp_taglib_reads_extension(extension.c_str())) return -1;
    if (size < 0) return -2;
    const bool asWritten = flags & RP_TAG_READ_COMMENTS_AS_WRITTEN;
    DescriptorStream stream(descriptor, size);
    std::unique_ptr<File> file = openAs(extension, &stream);
    if (!file || stream.exhausted) return -2;

    size_t values = 0;
    PropertyMap map = file->properties();
    // The order of a Vorbis comment's keys, read from the comment itself; other files' property maps give none.
    std::string comment;
    const bool hasComment = vorbisCommentOf(file.get(), descriptor, size, comment);
    std::vector<std::string> order;
    if (auto *mpeg = dynamic_cast<MPEG::File *>(file.get()); mpeg && mpeg->hasID3v2Tag())
        order = reprise::id3KeyOrder(*mpeg->ID3v2Tag(), map);
    reprise::FFmpegMetadata ffmpeg;
    ffmpeg.limit = countLimit;
    const bool readByFFmpeg = reprise::mpdReadsWithFFmpeg(extension, file.get()) && reprise::readFFmpegMetadata(descriptor, size, extension, ffmpeg);
    if (readByFFmpeg) {
        map = reprise::ffmpegTags(ffmpeg, map, order);
    } else if (dynamic_cast<MP4::File *>(file.get())) {
        order = reprise::mp4KeyOrder();
    } else if (extension == "wv" || extension == "mpc") {
        order = reprise::apeKeyOrder(reprise::apeTextItems(descriptor, size, countLimit));
    } else if (auto *wav = dynamic_cast<RIFF::WAV::File *>(file.get())) {
        // mpd reads a WAV file with libsndfile, whose INFO strings it lists in its own order; without them, an ID3
        // chunk's tag as its ID3 scanner lists it.
        if (wav->hasInfoTag() && !wav->InfoTag()->isEmpty())
            order = reprise::sndfileKeyOrder();
        else if (wav->hasID3v2Tag())
            order = reprise::id3KeyOrder(*wav->ID3v2Tag(), map);
    } else if (auto *aiff = dynamic_cast<RIFF::AIFF::File *>(file.get())) {
        // mpd reads a plain AIFF file with libsndfile: its text chunks (which TagLib does not read) as libsndfile's
        // strings, in their order; without them, an ID3 chunk's tag as its ID3 scanner lists it. A file with both
        // keeps its ID3 tag here (mpd lists only the chunks; README's `tag-order`).
        if (aiff->hasID3v2Tag()) {
            order = reprise::id3KeyOrder(*aiff->tag(), map);
        } else if (auto chunks = reprise::aiffTextChunks(descriptor, size); !chunks.empty()) {
            for (const auto &[key, value] : chunks) map.insert(key, StringList(String(value, String::UTF8)));
            order = reprise::sndfileKeyOrder();
        }
    }
    // A Vorbis comment's values in the file's order; other formats' tags by key in the order of mpd's reader for them.
    const bool inValueOrder = hasComment && !readByFFmpeg;
    std::string properties = inValueOrder
        ? valueOrderRecords(map, reprise::vorbisCommentValueKeys(comment.data(), comment.size(), countLimit), valueLimit,
                            countLimit, values)
        : propertyRecords(map, order, valueLimit, countLimit, values);
    out->headers.properties_in_file_order = inValueOrder || !order.empty();
    if (asWritten) {
        // As mpd lists a file's comments: what its decoder plugin reports as pairs (FFmpeg's entries as it names
        // them, the container's then the stream's; a Vorbis comment's fields as written), then its generic scan's.
        std::vector<std::pair<std::string, std::string>> comments;
        if (readByFFmpeg) {
            for (const auto &entries : ffmpeg.entries) comments.insert(comments.end(), entries.begin(), entries.end());
        } else if (hasComment) {
            comments = reprise::vorbisCommentFieldsAsWritten(comment.data(), comment.size(), countLimit);
        }
        const size_t room = comments.size() < countLimit ? countLimit - comments.size() : 0;
        for (auto &item : reprise::genericComments(id3v2Of(file.get()), descriptor, size, room)) comments.push_back(std::move(item));
        properties.clear();
        values = countLimit; // nothing after the comments
        for (const auto &[key, value] : comments) {
            appendRecord(properties, key, valueLimit);
            appendRecord(properties, value, valueLimit);
        }
    }
    const std::string synced = values < countLimit ? syncedLyricsAsLRC(file.get(), valueLimit) : "";
    if (!synced.empty()) {
        appendRecord(properties, "SYNCEDLYRICS", valueLimit);
        appendRecord(properties, synced, valueLimit);
    }
    if (AudioProperties *audio = file->audioProperties()) {
        out->headers.length_ms = audio->lengthInMilliseconds();
        out->headers.sample_rate = audio->sampleRate();
        out->headers.channels = audio->channels();
        out->headers.bitrate_kbps = audio->bitrate();
        describeEncoding(file.get(), out);
    }
    Picture picture = pictureOf(file.get());
    return deliver(properties, picture.data.data(), picture.data.size(), picture.type, pictureLimit, out);
}

int readCatching(int descriptor, long size, const char *extension, size_t picture_limit, size_t value_limit,
                 size_t value_count_limit, uint32_t flags, rp_taglib_file *out) {
    static const bool quiet = (setDebugListener(&silent), true);
    (void)quiet;
    std::memset(out, 0, sizeof *out);
    try {
        int result = read(descriptor, size, extension, picture_limit, value_limit, value_count_limit, flags, out);
        if (result != 0) rp_taglib_free(out);
        return result;
    } catch (const std::bad_alloc &) { // the reader's bounded address space ran out: this file is not read
        rp_taglib_free(out);
        return -4;
    } catch (...) { // anything else: the file is not read
        rp_taglib_free(out);
        return -2;
    }
}

} // namespace

extern "C" int rp_taglib_read(int descriptor, long size, const char *extension, size_t picture_limit, size_t value_limit,
                              size_t value_count_limit, uint32_t flags, rp_taglib_file *out) {
    return readCatching(descriptor, size, extension, picture_limit, value_limit, value_count_limit, flags, out);
}

/* Keeps oversized tag strings from reaching a sink (see rp_limit_tag_strings in CGStreamerShims.h). */
#include "CGStreamerShims.h"
#include <string.h>
#include <gst/tag/tag.h>

/* Multiple values of a tag (2,000 artists, say) reach the sound server joined into one string. The cut applies only to
 * what pulsesink hands to the server: the whole list is posted first (RP_FULL_TAGS_MESSAGE) for Reprise to read, and
 * the cut copy is marked (RP_CUT_COPY_TAG) so that the sink's own tag message of it is not read as the stream's tags. */
#define RP_MAX_TAG_VALUES 16
#define RP_FULL_TAGS_MESSAGE "reprise-full-tags"
#define RP_CUT_COPY_TAG "reprise-cut-copy"

static void register_cut_copy_tag(void) {
    static gsize registered = 0;
    if (g_once_init_enter(&registered)) {
        gst_tag_register(RP_CUT_COPY_TAG, GST_TAG_FLAG_META, G_TYPE_BOOLEAN, "reprise cut copy",
                         "the tags as cut for the sound server", NULL);
        g_once_init_leave(&registered, 1);
    }
}

typedef struct {
    guint max_bytes;
    gboolean too_long;
    GstTagList *copy;
} rp_tag_limit;

static void find_long_string(const GstTagList *list, const gchar *tag, gpointer data) {
    rp_tag_limit *limit = data;
    if (limit->too_long || gst_tag_get_type(tag) != G_TYPE_STRING) return;
    guint count = gst_tag_list_get_tag_size(list, tag);
    if (count > RP_MAX_TAG_VALUES) {
        limit->too_long = TRUE;
        return;
    }
    for (guint index = 0; index < count; index++) {
        const gchar *text = NULL;
        if (gst_tag_list_peek_string_index(list, tag, index, &text) && text && strlen(text) > limit->max_bytes) {
            limit->too_long = TRUE;
            return;
        }
    }
}

static void copy_cut(const GstTagList *list, const gchar *tag, gpointer data) {
    rp_tag_limit *limit = data;
    guint count = gst_tag_list_get_tag_size(list, tag);
    if (count > RP_MAX_TAG_VALUES && gst_tag_get_type(tag) == G_TYPE_STRING) count = RP_MAX_TAG_VALUES;
    for (guint index = 0; index < count; index++) {
        const GValue *value = gst_tag_list_get_value_index(list, tag, index);
        if (!value) continue;
        if (G_VALUE_HOLDS_STRING(value) && g_value_get_string(value) && strlen(g_value_get_string(value)) > limit->max_bytes) {
            const gchar *text = g_value_get_string(value);
            const gchar *end = text + limit->max_bytes;
            while (end > text && ((guchar)*end & 0xC0) == 0x80) end--; /* not inside a UTF-8 sequence */
            gchar *cut = g_strndup(text, (gsize)(end - text));
            gst_tag_list_add(limit->copy, GST_TAG_MERGE_APPEND, tag, cut, NULL);
            g_free(cut);
        } else {
            gst_tag_list_add_value(limit->copy, GST_TAG_MERGE_APPEND, tag, value);
        }
    }
}

typedef struct {
    guint max_bytes;
    GString *text;
} rp_cut_report;

/* "artist: 2000 values, title: 70000 bytes": what the sound server's copy loses, for the log. */
static void describe_cut(const GstTagList *list, const gchar *tag, gpointer data) {
    rp_cut_report *report = data;
    if (gst_tag_get_type(tag) != G_TYPE_STRING) return;
    guint count = gst_tag_list_get_tag_size(list, tag);
    gsize longest = 0;
    for (guint index = 0; index < count; index++) {
        const gchar *text = NULL;
        if (gst_tag_list_peek_string_index(list, tag, index, &text) && text) longest = MAX(longest, strlen(text));
    }
    if (count <= RP_MAX_TAG_VALUES && longest <= report->max_bytes) return;
    if (report->text->len > 0) g_string_append(report->text, ", ");
    if (count > RP_MAX_TAG_VALUES) g_string_append_printf(report->text, "%s: %u values", tag, count);
    else g_string_append_printf(report->text, "%s: %" G_GSIZE_FORMAT " bytes", tag, longest);
}

static GstPadProbeReturn limit_tags(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    if (!event || GST_EVENT_TYPE(event) != GST_EVENT_TAG) return GST_PAD_PROBE_OK;
    GstTagList *list = NULL;
    gst_event_parse_tag(event, &list);
    rp_tag_limit limit = { .max_bytes = GPOINTER_TO_UINT(data), .too_long = FALSE, .copy = NULL };
    gst_tag_list_foreach(list, find_long_string, &limit);
    if (!limit.too_long) return GST_PAD_PROBE_OK;
    GstElement *sink = GST_ELEMENT(gst_pad_get_parent(pad));
    if (sink) {
        GString *cut = g_string_new(NULL);
        gst_tag_list_foreach(list, describe_cut, &(rp_cut_report){ .max_bytes = limit.max_bytes, .text = cut });
        GstStructure *whole = gst_structure_new(RP_FULL_TAGS_MESSAGE, "tags", GST_TYPE_TAG_LIST, list, "cut", G_TYPE_STRING, cut->str, NULL);
        g_string_free(cut, TRUE);
        gst_element_post_message(sink, gst_message_new_element(GST_OBJECT(sink), whole));
        gst_object_unref(sink);
    }
    limit.copy = gst_tag_list_new_empty();
    gst_tag_list_set_scope(limit.copy, gst_tag_list_get_scope(list));
    gst_tag_list_foreach(list, copy_cut, &limit);
    gst_tag_list_add(limit.copy, GST_TAG_MERGE_REPLACE, RP_CUT_COPY_TAG, TRUE, NULL);
    GstEvent *replacement = gst_event_new_tag(limit.copy); /* takes the list */
    gst_event_unref(event);
    GST_PAD_PROBE_INFO_DATA(info) = replacement;
    return GST_PAD_PROBE_OK;
}

bool rp_limit_tag_strings(GstElement *element, unsigned max_bytes) {
    register_cut_copy_tag();
    GstPad *pad = gst_element_get_static_pad(element, "sink");
    if (!pad) return false;
    gulong id = gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, limit_tags, GUINT_TO_POINTER(max_bytes), NULL);
    gst_object_unref(pad);
    return id != 0;
}

/* Live streams' titles. A Shoutcast/Icecast stream (caps application/x-icy, metadata-interval=N) carries a metadata
 * block after every N bytes of audio: one length byte L, then L×16 bytes "StreamTitle='…';…". icydemux reads them
 * after playbin's network buffer, seconds after they arrived; here they are read at the source's pad, as they
 * arrive, and posted on the bus at once, and icydemux's own copy of the title is taken out of the stream (the sink
 * would post it again once the audio before it has played, flipping the title back). */
typedef struct {
    gint64 interval;      /* bytes of audio between blocks; 0: not an ICY stream */
    gint64 audio_left;    /* audio bytes before the next block's length byte */
    gint meta_left;       /* metadata bytes still to read (-1: the length byte is next) */
    GByteArray *meta;
} rp_icy_reader;

static void icy_reader_free(gpointer data) {
    rp_icy_reader *reader = data;
    g_byte_array_unref(reader->meta);
    g_free(reader);
}

/* Posts the StreamTitle of one whole metadata block, as UTF-8 (Latin-1 and the like converted). */
static void post_stream_title(GstElement *source, const guint8 *block, gsize size) {
    static const gchar key[] = "StreamTitle='";
    const gchar *text = (const gchar *)block;
    const gchar *found = g_strstr_len(text, (gssize)size, key);
    if (!found) return;
    const gchar *start = found + strlen(key);
    const gchar *end = g_strstr_len(start, (gssize)(size - (gsize)(start - text)), "';");
    if (!end) end = memchr(start, '\'', size - (gsize)(start - text));
    if (!end || end <= start) return;
    static const gchar *encodings[] = { "GST_ICY_TAG_ENCODING", "GST_TAG_ENCODING", NULL };
    gchar *title = gst_tag_freeform_string_to_utf8(start, (gint)(end - start), encodings);
    if (!title) return;
    if (*title) {
        GstStructure *structure = gst_structure_new(RP_STREAM_TITLE_MESSAGE, "title", G_TYPE_STRING, title, NULL);
        gst_element_post_message(source, gst_message_new_element(GST_OBJECT(source), structure));
    }
    g_free(title);
}

static GstPadProbeReturn read_icy_metadata(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    rp_icy_reader *reader = data;
    if (info->type & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) {
        GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
        if (GST_EVENT_TYPE(event) == GST_EVENT_CAPS) {
            GstCaps *caps = NULL;
            gst_event_parse_caps(event, &caps);
            GstStructure *structure = caps ? gst_caps_get_structure(caps, 0) : NULL;
            gint interval = 0;
            reader->interval = structure && gst_structure_has_name(structure, "application/x-icy")
                && gst_structure_get_int(structure, "metadata-interval", &interval) && interval > 0 ? interval : 0;
            reader->audio_left = reader->interval;
            reader->meta_left = -1;
            g_byte_array_set_size(reader->meta, 0);
        } else if (GST_EVENT_TYPE(event) == GST_EVENT_FLUSH_STOP || GST_EVENT_TYPE(event) == GST_EVENT_SEGMENT) {
            reader->audio_left = reader->interval; /* a new request starts with audio */
            reader->meta_left = -1;
            g_byte_array_set_size(reader->meta, 0);
        }
        return GST_PAD_PROBE_OK;
    }
    GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
    if (!buffer || reader->interval == 0) return GST_PAD_PROBE_OK;
    GstMapInfo map;
    if (!gst_buffer_map(buffer, &map, GST_MAP_READ)) return GST_PAD_PROBE_OK;
    GstElement *source = GST_ELEMENT(gst_pad_get_parent_element(pad));
    gsize at = 0;
    while (at < map.size) {
        if (reader->audio_left > 0) {
            gsize take = MIN((gsize)reader->audio_left, map.size - at);
            reader->audio_left -= (gint64)take;
            at += take;
        } else if (reader->meta_left < 0) {
            reader->meta_left = map.data[at++] * 16;
            if (reader->meta_left == 0) reader->audio_left = reader->interval, reader->meta_left = -1;
        } else {
            gsize take = MIN((gsize)reader->meta_left, map.size - at);
            g_byte_array_append(reader->meta, map.data + at, (guint)take);
            reader->meta_left -= (gint)take;
            at += take;
            if (reader->meta_left == 0) {
                if (source) post_stream_title(source, reader->meta->data, reader->meta->len);
                g_byte_array_set_size(reader->meta, 0);
                reader->audio_left = reader->interval;
                reader->meta_left = -1;
            }
        }
    }
    if (source) gst_object_unref(source);
    gst_buffer_unmap(buffer, &map);
    return GST_PAD_PROBE_OK;
}

/* icydemux's tag events lose their title (it was posted when it arrived). */
static GstPadProbeReturn drop_late_title(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad; (void)data;
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    if (!event || GST_EVENT_TYPE(event) != GST_EVENT_TAG) return GST_PAD_PROBE_OK;
    GstTagList *list = NULL;
    gst_event_parse_tag(event, &list);
    if (!list || gst_tag_list_get_tag_size(list, GST_TAG_TITLE) == 0) return GST_PAD_PROBE_OK;
    GstTagList *rest = gst_tag_list_copy(list);
    gst_tag_list_remove_tag(rest, GST_TAG_TITLE);
    gst_event_unref(event);
    GST_PAD_PROBE_INFO_DATA(info) = gst_event_new_tag(rest);
    return GST_PAD_PROBE_OK;
}

static void icy_pad_added(GstElement *demux, GstPad *pad, gpointer data) {
    (void)demux; (void)data;
    if (GST_PAD_DIRECTION(pad) == GST_PAD_SRC) gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, drop_late_title, NULL, NULL);
}

static void watch_live_sources(GstBin *bin, GstBin *sub_bin, GstElement *element, gpointer data) {
    (void)bin; (void)sub_bin; (void)data;
    GstElementFactory *factory = gst_element_get_factory(element);
    if (!factory) return;
    const gchar *name = GST_OBJECT_NAME(factory);
    if (strcmp(name, "icydemux") == 0) {
        g_signal_connect(element, "pad-added", G_CALLBACK(icy_pad_added), NULL);
    } else if (strcmp(name, "souphttpsrc") == 0) {
        GstPad *pad = gst_element_get_static_pad(element, "src");
        if (!pad) return;
        rp_icy_reader *reader = g_new0(rp_icy_reader, 1);
        reader->meta_left = -1;
        reader->meta = g_byte_array_new();
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, read_icy_metadata,
                          reader, icy_reader_free);
        gst_object_unref(pad);
    }
}

const char *rp_message_stream_title(GstMessage *message) {
    if (GST_MESSAGE_TYPE(message) != GST_MESSAGE_ELEMENT) return NULL;
    const GstStructure *structure = gst_message_get_structure(message);
    if (!structure || !gst_structure_has_name(structure, RP_STREAM_TITLE_MESSAGE)) return NULL;
    return gst_structure_get_string(structure, "title");
}

GstTagList *rp_message_full_tags(GstMessage *message, char **cut) {
    if (GST_MESSAGE_TYPE(message) != GST_MESSAGE_ELEMENT) return NULL;
    const GstStructure *structure = gst_message_get_structure(message);
    if (!structure || !gst_structure_has_name(structure, RP_FULL_TAGS_MESSAGE)) return NULL;
    GstTagList *list = NULL;
    if (!gst_structure_get(structure, "tags", GST_TYPE_TAG_LIST, &list, NULL) || !list) return NULL;
    *cut = g_strdup(gst_structure_get_string(structure, "cut"));
    return list;
}

bool rp_tag_list_is_cut_copy(const GstTagList *list) {
    gboolean marked = FALSE;
    return gst_tag_list_get_boolean(list, RP_CUT_COPY_TAG, &marked) && marked;
}

void rp_post_live_titles_early(GstElement *playbin) {
    g_signal_connect(playbin, "deep-element-added", G_CALLBACK(watch_live_sources), NULL);
}

static void collect_chapters(GList *entries, int64_t *starts, char **titles, int max, int *count) {
    for (GList *item = entries; item && *count < max; item = item->next) {
        GstTocEntry *entry = item->data;
        if (gst_toc_entry_get_entry_type(entry) == GST_TOC_ENTRY_TYPE_CHAPTER) {
            gint64 start = -1, stop = -1;
            if (gst_toc_entry_get_start_stop_times(entry, &start, &stop) && start >= 0) {
                gchar *title = NULL;
                GstTagList *tags = gst_toc_entry_get_tags(entry);
                if (tags) gst_tag_list_get_string(tags, GST_TAG_TITLE, &title);
                starts[*count] = start;
                titles[*count] = title;
                (*count)++;
            }
        }
        collect_chapters(gst_toc_entry_get_sub_entries(entry), starts, titles, max, count);
    }
}

int rp_message_toc_chapters(GstMessage *message, int64_t *starts, char **titles, int max) {
    if (GST_MESSAGE_TYPE(message) != GST_MESSAGE_TOC) return 0;
    GstToc *toc = NULL;
    gboolean updated = FALSE;
    gst_message_parse_toc(message, &toc, &updated);
    if (!toc) return 0;
    int count = 0;
    collect_chapters(gst_toc_get_entries(toc), starts, titles, max, &count);
    gst_toc_unref(toc);
    return count;
}

#include "CGStreamerShims.h"

void rp_object_set_string(gpointer object, const char *name, const char *value) { g_object_set(object, name, value, NULL); }
void rp_object_set_double(gpointer object, const char *name, double value) { g_object_set(object, name, value, NULL); }
void rp_object_set_bool(gpointer object, const char *name, bool value) { g_object_set(object, name, (gboolean)value, NULL); }
void rp_object_set_object(gpointer object, const char *name, gpointer value) { g_object_set(object, name, value, NULL); }
void rp_object_set_flags(gpointer object, const char *name, unsigned value) { g_object_set(object, name, value, NULL); }
void rp_object_set_int(gpointer object, const char *name, int value) { g_object_set(object, name, value, NULL); }

bool rp_object_set_structure(gpointer object, const char *name, const char *structure) {
    GstStructure *parsed = gst_structure_from_string(structure, NULL);
    if (!parsed) return false;
    g_object_set(object, name, parsed, NULL);
    gst_structure_free(parsed);
    return true;
}

/* rp_object_get_KIND: the property `name` of a plain C type (0 when the object has none). */
#define RP_OBJECT_GETTER(kind, type)                                     \
    type rp_object_get_##kind(gpointer object, const char *name) {       \
        type value = 0;                                                  \
        g_object_get(object, name, &value, NULL);                        \
        return value;                                                    \
    }

RP_OBJECT_GETTER(double, double)
RP_OBJECT_GETTER(int, int)
RP_OBJECT_GETTER(flags, unsigned)

bool rp_object_has_property(gpointer object, const char *name) {
    return g_object_class_find_property(G_OBJECT_GET_CLASS(object), name) != NULL;
}

GstMessageType rp_message_type(GstMessage *message) { return GST_MESSAGE_TYPE(message); }
GstObject *rp_message_source(GstMessage *message) { return GST_MESSAGE_SRC(message); }
const char *rp_object_name(GstObject *object) { return object ? GST_OBJECT_NAME(object) : ""; }

void rp_post_generation(GstElement *element, const char *name, uint64_t generation) {
    GstStructure *structure = gst_structure_new(name, "generation", G_TYPE_UINT64, generation, NULL);
    gst_element_post_message(element, gst_message_new_application(GST_OBJECT(element), structure));
}

bool rp_message_generation(GstMessage *message, const char *name, uint64_t *generation) {
    if (GST_MESSAGE_TYPE(message) != GST_MESSAGE_APPLICATION) return false;
    const GstStructure *structure = gst_message_get_structure(message);
    return structure && gst_structure_has_name(structure, name)
        && gst_structure_get_uint64(structure, "generation", (guint64 *)generation);
}

/* Children's state changes are dropped where they are posted: a state change of playbin posts one for each of its
 * dozens of elements, each of which would otherwise wake the service's loop (and be decoded there, to be ignored). */
static GstBusSyncReply drop_children_state_changes(GstBus *bus, GstMessage *message, gpointer pipeline) {
    (void)bus;
    if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_STATE_CHANGED && GST_MESSAGE_SRC(message) != (GstObject *)pipeline) {
        gst_message_unref(message);
        return GST_BUS_DROP;
    }
    return GST_BUS_PASS;
}

void rp_bus_drop_children_state_changes(GstBus *bus, GstElement *pipeline) {
    gst_bus_set_sync_handler(bus, drop_children_state_changes, pipeline, NULL);
}

void rp_bus_watch_not_blocked(guint watch) {
    GSource *source = g_main_context_find_source_by_id(NULL, watch);
    if (source) g_source_set_can_recurse(source, TRUE);
}

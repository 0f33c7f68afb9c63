/* sd-event as a GLib source: GLib polls sd-event's epoll fd and runs sd-event's
 * prepare/wait/dispatch cycle inside its own prepare/check/dispatch. */
#include "CLoopShims.h"

typedef struct {
    GSource source;
    gpointer fd_tag;
    sd_event *event;
} SdEventSource;

static gboolean sd_source_prepare(GSource *source, gint *timeout) {
    *timeout = -1; /* timers are timerfds inside sd-event's epoll fd */
    return sd_event_prepare(((SdEventSource *)source)->event) > 0;
}

static gboolean sd_source_check(GSource *source) {
    return sd_event_wait(((SdEventSource *)source)->event, 0) > 0;
}

static gboolean sd_source_dispatch(GSource *source, GSourceFunc callback, gpointer user_data) {
    (void)callback; (void)user_data;
    sd_event_dispatch(((SdEventSource *)source)->event);
    return G_SOURCE_CONTINUE;
}

static void sd_source_finalize(GSource *source) {
    sd_event_unref(((SdEventSource *)source)->event);
}

static GSourceFuncs sd_source_funcs = {
    .prepare = sd_source_prepare,
    .check = sd_source_check,
    .dispatch = sd_source_dispatch,
    .finalize = sd_source_finalize,
};

GSource *rp_sd_event_source_new(sd_event *event) {
    SdEventSource *source = (SdEventSource *)g_source_new(&sd_source_funcs, sizeof(SdEventSource));
    source->event = sd_event_ref(event);
    source->fd_tag = g_source_add_unix_fd(&source->source, sd_event_get_fd(event), G_IO_IN | G_IO_HUP | G_IO_ERR);
    g_source_set_name(&source->source, "sd-event");
    /* Not blocked while dispatching: blocking takes the fd out of GLib's poll set and back, and each change wakes
     * the loop for one more turn (see EventLoop.addDescriptorSource). sd-event never runs GLib's loop inside. */
    g_source_set_can_recurse(&source->source, TRUE);
    return &source->source;
}

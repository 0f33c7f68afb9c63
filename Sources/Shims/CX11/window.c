#include "window_private.h"

#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XInput2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* Asks for the window's touch events, if the server speaks XInput 2.2. A client that selects them gets touches as
 * touches, and no pointer events emulated from them. */
static void select_touch(rp_window *w) {
    int opcode, first_event, first_error;
    if (!XQueryExtension(w->display, "XInputExtension", &opcode, &first_event, &first_error)) return;
    int major = 2, minor = 2;
    if (XIQueryVersion(w->display, &major, &minor) != Success || major < 2 || (major == 2 && minor < 2)) return;
    unsigned char bits[XIMaskLen(XI_LASTEVENT)] = {0};
    XISetMask(bits, XI_TouchBegin);
    XISetMask(bits, XI_TouchUpdate);
    XISetMask(bits, XI_TouchEnd);
    XIEventMask mask = {.deviceid = XIAllMasterDevices, .mask_len = sizeof bits, .mask = bits};
    if (XISelectEvents(w->display, w->window, &mask, 1) == Success) w->xinput_opcode = opcode;
}

/* Protocol errors (a request the server refused) are not worth dying for: ignored. */
static int ignore_protocol_error(Display *display, XErrorEvent *error) {
    (void)display;
    (void)error;
    return 0;
}

/* The connection broke: Xlib's default prints a message and its exit handler ends the process. Ours records the
 * loss (the exit handler below) and returns, so the service lives on without video. */
static int note_io_error(Display *display) {
    (void)display;
    return 0;
}

static void connection_lost(Display *display, void *data) {
    (void)display;
    ((rp_window *)data)->lost = true;
}

rp_window *rp_window_open(const char *display_name, int width, int height, const char *class_name) {
    const char *named = display_name ? display_name : getenv("DISPLAY");
    if (!named || !*named) return NULL; /* no display to open: libX11 is not even loaded */
    const char *why = NULL;
    if (!rp_x11_load(&why)) {
        fprintf(stderr, "reprise: video: no X11 window: %s\n", why);
        return NULL;
    }
    XSetErrorHandler(ignore_protocol_error);
    XSetIOErrorHandler(note_io_error);
    Display *display = XOpenDisplay(display_name);
    if (!display) return NULL;
    rp_window *w = calloc(1, sizeof *w);
    w->display = display;
    XSetIOErrorExitHandler(display, connection_lost, w);
    int screen = DefaultScreen(display);
    XSetWindowAttributes attributes = {0};
    attributes.background_pixel = BlackPixel(display, screen);
    attributes.event_mask = KeyPressMask | StructureNotifyMask | ExposureMask | ButtonPressMask | ButtonReleaseMask
                            | PointerMotionMask | LeaveWindowMask;
    w->window = XCreateWindow(display, RootWindow(display, screen), 0, 0, (unsigned)width, (unsigned)height, 0,
                              CopyFromParent, InputOutput, CopyFromParent, CWBackPixel | CWEventMask, &attributes);
    w->width = width;
    w->height = height;
    w->wm_delete = XInternAtom(display, "WM_DELETE_WINDOW", False);
    w->net_wm_name = XInternAtom(display, "_NET_WM_NAME", False);
    w->utf8_string = XInternAtom(display, "UTF8_STRING", False);
    w->net_wm_state = XInternAtom(display, "_NET_WM_STATE", False);
    w->net_wm_state_fullscreen = XInternAtom(display, "_NET_WM_STATE_FULLSCREEN", False);
    w->net_wm_state_above = XInternAtom(display, "_NET_WM_STATE_ABOVE", False);
    w->net_wm_state_sticky = XInternAtom(display, "_NET_WM_STATE_STICKY", False);
    w->motif_wm_hints = XInternAtom(display, "_MOTIF_WM_HINTS", False);
    XSetWMProtocols(display, w->window, &w->wm_delete, 1);
    XClassHint *hint = XAllocClassHint();
    if (hint) {
        hint->res_name = (char *)class_name;
        hint->res_class = (char *)class_name;
        XSetClassHint(display, w->window, hint);
        XFree(hint);
    }
    XWMHints *wm = XAllocWMHints();
    if (wm) {
        wm->flags = InputHint;
        wm->input = True;
        XSetWMHints(display, w->window, wm);
        XFree(wm);
    }
    w->gc = XCreateGC(display, w->window, 0, NULL);
    select_touch(w);
    XFlush(display);
    return w;
}

void rp_window_close(rp_window *w) {
    if (!w) return;
    if (w->lost) {
        /* A broken connection is left as it is (its descriptor included): nothing may be sent on it. */
        free(w);
        return;
    }
    for (int i = 0; i < RP_WINDOW_OVERLAY_STRIPS; i++) free(w->overlay[i].pixels);
    if (w->blank_cursor) XFreeCursor(w->display, w->blank_cursor);
    XFreeGC(w->display, w->gc);
    XDestroyWindow(w->display, w->window);
    XCloseDisplay(w->display);
    free(w);
}

int rp_window_fd(const rp_window *w) { return ConnectionNumber(w->display); }
unsigned long rp_window_xid(const rp_window *w) { return w->window; }

void rp_window_set_title(rp_window *w, const char *title) {
    if (w->lost) return;
    XChangeProperty(w->display, w->window, w->net_wm_name, w->utf8_string, 8, PropModeReplace,
                    (const unsigned char *)title, (int)strlen(title));
    XChangeProperty(w->display, w->window, XA_WM_NAME, w->utf8_string, 8, PropModeReplace,
                    (const unsigned char *)title, (int)strlen(title));
    XFlush(w->display);
}

void rp_window_set_visible(rp_window *w, bool visible) {
    if (w->lost) return;
    if (visible == w->visible) return;
    w->visible = visible;
    if (visible) XMapRaised(w->display, w->window); else XUnmapWindow(w->display, w->window);
    XFlush(w->display);
}

/* A window manager that follows EWMH advertises itself on the root window. */
static bool has_window_manager(rp_window *w) {
    Atom check = XInternAtom(w->display, "_NET_SUPPORTING_WM_CHECK", True);
    if (check == None) return false;
    Atom type;
    int format;
    unsigned long count, after;
    unsigned char *data = NULL;
    int status = XGetWindowProperty(w->display, DefaultRootWindow(w->display), check, 0, 1, False, XA_WINDOW, &type,
                                    &format, &count, &after, &data);
    bool present = status == Success && count == 1 && data;
    if (data) XFree(data);
    return present;
}

/* Asks the window manager to add or remove one or two _NET_WM_STATE states (EWMH's client message). */
static void ask_window_manager(rp_window *w, bool add, Atom state, Atom second_state) {
    XEvent event = {0};
    event.xclient.type = ClientMessage;
    event.xclient.window = w->window;
    event.xclient.message_type = w->net_wm_state;
    event.xclient.format = 32;
    event.xclient.data.l[0] = add ? 1 : 0; /* _NET_WM_STATE_ADD / _REMOVE */
    event.xclient.data.l[1] = (long)state;
    event.xclient.data.l[2] = (long)second_state;
    event.xclient.data.l[3] = 1; /* a normal application */
    XSendEvent(w->display, DefaultRootWindow(w->display), False, SubstructureRedirectMask | SubstructureNotifyMask, &event);
}

void rp_window_set_fullscreen(rp_window *w, bool fullscreen) {
    if (w->lost) return;
    if (fullscreen == w->fullscreen) return;
    w->fullscreen = fullscreen;
    Window root = DefaultRootWindow(w->display);
    if (w->visible && has_window_manager(w)) {
        ask_window_manager(w, fullscreen, w->net_wm_state_fullscreen, None);
        if (!fullscreen && w->pip_restore_after_fullscreen && !w->picture_in_picture) {
            XMoveResizeWindow(w->display, w->window, w->pip_saved_x, w->pip_saved_y, (unsigned)w->pip_saved_width,
                              (unsigned)w->pip_saved_height);
        }
        w->pip_restore_after_fullscreen = false;
    } else {
        /* No window manager to ask: cover the screen ourselves, and give the old place back after. */
        if (fullscreen) {
            Window child;
            XWindowAttributes attributes;
            XGetWindowAttributes(w->display, w->window, &attributes);
            XTranslateCoordinates(w->display, w->window, root, 0, 0, &w->saved_x, &w->saved_y, &child);
            w->saved_width = attributes.width;
            w->saved_height = attributes.height;
            int screen = DefaultScreen(w->display);
            XMoveResizeWindow(w->display, w->window, 0, 0, (unsigned)DisplayWidth(w->display, screen),
                              (unsigned)DisplayHeight(w->display, screen));
        } else if (w->saved_width > 0) {
            XMoveResizeWindow(w->display, w->window, w->saved_x, w->saved_y, (unsigned)w->saved_width,
                              (unsigned)w->saved_height);
        }
        /* Keep the state property true for pagers and tests either way. */
        if (fullscreen) {
            XChangeProperty(w->display, w->window, w->net_wm_state, XA_ATOM, 32, PropModeReplace,
                            (const unsigned char *)&w->net_wm_state_fullscreen, 1);
        } else {
            XDeleteProperty(w->display, w->window, w->net_wm_state);
        }
        XRaiseWindow(w->display, w->window);
    }
    XFlush(w->display);
}

/* Where the window is on the screen and its size. */
static void current_geometry(rp_window *w, int *x, int *y, int *width, int *height) {
    Window child;
    XWindowAttributes attributes;
    XGetWindowAttributes(w->display, w->window, &attributes);
    XTranslateCoordinates(w->display, w->window, DefaultRootWindow(w->display), 0, 0, x, y, &child);
    *width = attributes.width;
    *height = attributes.height;
}

void rp_window_set_picture_in_picture(rp_window *w, bool on, int x, int y, int width, int height) {
    if (w->lost) return;
    if (on == w->picture_in_picture) {
        if (on && width > 0 && height > 0) XMoveResizeWindow(w->display, w->window, x, y, (unsigned)width, (unsigned)height);
        XFlush(w->display);
        return;
    }
    w->picture_in_picture = on;
    if (on) current_geometry(w, &w->pip_saved_x, &w->pip_saved_y, &w->pip_saved_width, &w->pip_saved_height);
    /* Motif hints: flags (bit 1: decorations given), functions, decorations (0: none), input mode, status. */
    long motif[5] = {2, 0, 0, 0, 0};
    if (on) {
        XChangeProperty(w->display, w->window, w->motif_wm_hints, w->motif_wm_hints, 32, PropModeReplace,
                        (const unsigned char *)motif, 5);
    } else {
        XDeleteProperty(w->display, w->window, w->motif_wm_hints);
    }
    if (w->visible && has_window_manager(w)) {
        ask_window_manager(w, on, w->net_wm_state_above, w->net_wm_state_sticky);
    } else if (on) {
        /* Read by a window manager when the window is mapped, and by pagers and tests. */
        Atom states[2] = {w->net_wm_state_above, w->net_wm_state_sticky};
        XChangeProperty(w->display, w->window, w->net_wm_state, XA_ATOM, 32, PropModeReplace, (const unsigned char *)states, 2);
    } else {
        XDeleteProperty(w->display, w->window, w->net_wm_state);
    }
    if (on) {
        if (width > 0 && height > 0) XMoveResizeWindow(w->display, w->window, x, y, (unsigned)width, (unsigned)height);
        XRaiseWindow(w->display, w->window);
    } else if (w->fullscreen) {
        /* Going back to fullscreen (asked already): a size asked now would race the window manager's fullscreen
         * and could win (sway then shows a small fullscreen window); the old size waits for fullscreen to end. */
        if (w->visible && has_window_manager(w)) {
            w->pip_restore_after_fullscreen = w->pip_saved_width > 0;
        } else if (w->pip_saved_width > 0) {
            w->saved_x = w->pip_saved_x;
            w->saved_y = w->pip_saved_y;
            w->saved_width = w->pip_saved_width;
            w->saved_height = w->pip_saved_height;
        }
    } else if (w->pip_saved_width > 0) {
        XMoveResizeWindow(w->display, w->window, w->pip_saved_x, w->pip_saved_y, (unsigned)w->pip_saved_width,
                          (unsigned)w->pip_saved_height);
    }
    XFlush(w->display);
}

void rp_window_get_screen_size(const rp_window *w, int *width, int *height) {
    int screen = DefaultScreen(w->display);
    *width = w->lost ? 0 : DisplayWidth(w->display, screen);
    *height = w->lost ? 0 : DisplayHeight(w->display, screen);
}

void rp_window_raise(rp_window *w) {
    if (w->lost) return;
    XRaiseWindow(w->display, w->window);
    if (w->visible) XSetInputFocus(w->display, w->window, RevertToParent, CurrentTime);
    XFlush(w->display);
}

void rp_window_get_size(const rp_window *w, int *width, int *height) {
    *width = w->width;
    *height = w->height;
}

void rp_window_resize(rp_window *w, int width, int height) {
    if (w->lost) return;
    if (width < 1 || height < 1) return;
    XResizeWindow(w->display, w->window, (unsigned)width, (unsigned)height);
    XFlush(w->display);
}

void rp_window_draw_dots(rp_window *w, const rp_dot *dots, int count) {
    if (w->lost) return;
    if (!w->visible) return;
    int screen = DefaultScreen(w->display);
    XSetForeground(w->display, w->gc, BlackPixel(w->display, screen));
    XFillRectangle(w->display, w->window, w->gc, 0, 0, (unsigned)w->width, (unsigned)w->height);
    for (int i = 0; i < count; i++) {
        unsigned long level = dots[i].level;
        XSetForeground(w->display, w->gc, (level << 16) | (level << 8) | level);
        int dot = dots[i].diameter > 0 ? dots[i].diameter : 1;
        XFillArc(w->display, w->window, w->gc, dots[i].x - dot / 2, dots[i].y - dot / 2, (unsigned)dot, (unsigned)dot, 0, 360 * 64);
    }
    XFlush(w->display);
}

void rp_window_flush(rp_window *w) {
    if (!w->lost) XFlush(w->display);
}

bool rp_window_is_lost(const rp_window *w) { return w->lost; }

void rp_window_set_cursor_hidden(rp_window *w, bool hidden) {
    if (w->lost || hidden == w->cursor_hidden) return;
    w->cursor_hidden = hidden;
    if (hidden && !w->blank_cursor) {
        char none = 0;
        Pixmap empty = XCreateBitmapFromData(w->display, w->window, &none, 1, 1);
        XColor black = {0};
        w->blank_cursor = XCreatePixmapCursor(w->display, empty, empty, &black, &black, 0, 0);
        XFreePixmap(w->display, empty);
    }
    if (hidden) XDefineCursor(w->display, w->window, w->blank_cursor);
    else XUndefineCursor(w->display, w->window);
    XFlush(w->display);
}

void rp_window_begin_move(rp_window *w, int root_x, int root_y, int button) {
    if (w->lost) return;
    /* The window manager moves the window with the pointer (EWMH _NET_WM_MOVERESIZE, direction 8: move). */
    XUngrabPointer(w->display, CurrentTime);
    XEvent event = {0};
    event.xclient.type = ClientMessage;
    event.xclient.window = w->window;
    event.xclient.message_type = XInternAtom(w->display, "_NET_WM_MOVERESIZE", False);
    event.xclient.format = 32;
    event.xclient.data.l[0] = root_x;
    event.xclient.data.l[1] = root_y;
    event.xclient.data.l[2] = 8;
    event.xclient.data.l[3] = button;
    event.xclient.data.l[4] = 1;
    XSendEvent(w->display, DefaultRootWindow(w->display), False, SubstructureRedirectMask | SubstructureNotifyMask, &event);
    XFlush(w->display);
}

/* A coordinate of an XInput 2 event (a double) as an int: X11's coordinates are 16-bit, anything past that is cut
 * rather than converted out of range. */
static int coordinate(double value) {
    return value > 32767 ? 32767 : value < -32768 ? -32768 : (int)value;
}

/* An XInput 2 touch on the window: every finger's begin, update and end, with its id. */
static bool touch_event(rp_window *w, XEvent *event, rp_window_event *out) {
    XGenericEventCookie *cookie = &event->xcookie;
    if (w->xinput_opcode == 0 || cookie->extension != w->xinput_opcode || !XGetEventData(w->display, cookie)) return false;
    const XIDeviceEvent *touch = cookie->data;
    bool taken = false;
    memset(out, 0, sizeof *out);
    if (touch->event == w->window) {
        out->x = coordinate(touch->event_x);
        out->y = coordinate(touch->event_y);
        out->root_x = coordinate(touch->root_x);
        out->root_y = coordinate(touch->root_y);
        out->touch = touch->detail;
        switch (cookie->evtype) {
        case XI_TouchBegin: out->kind = RP_WINDOW_EVENT_TOUCH_DOWN; taken = true; break;
        case XI_TouchUpdate: out->kind = RP_WINDOW_EVENT_TOUCH_MOTION; taken = true; break;
        case XI_TouchEnd: out->kind = RP_WINDOW_EVENT_TOUCH_UP; taken = true; break;
        default: break;
        }
    }
    XFreeEventData(w->display, cookie);
    return taken;
}

bool rp_window_next_event(rp_window *w, rp_window_event *out) {
    while (!w->lost && XPending(w->display) > 0) {
        XEvent event;
        XNextEvent(w->display, &event);
        if (event.type == GenericEvent) {
            if (touch_event(w, &event, out)) return true;
            continue;
        }
        if (event.xany.window != w->window) continue;
        memset(out, 0, sizeof *out);
        switch (event.type) {
        case KeyPress:
            out->kind = RP_WINDOW_EVENT_KEY;
            out->keysym = XLookupKeysym(&event.xkey, 0);
            /* Shift-Tab moves the controls' focus back (index 0 is the key without its modifiers). */
            if (out->keysym == XK_Tab && (event.xkey.state & ShiftMask)) out->keysym = XK_ISO_Left_Tab;
            return true;
        case ConfigureNotify:
            if (event.xconfigure.width == w->width && event.xconfigure.height == w->height) continue;
            w->width = event.xconfigure.width;
            w->height = event.xconfigure.height;
            out->kind = RP_WINDOW_EVENT_RESIZED;
            out->width = w->width;
            out->height = w->height;
            return true;
        case Expose:
            if (event.xexpose.count != 0) continue;
            out->kind = RP_WINDOW_EVENT_EXPOSED;
            return true;
        case ClientMessage:
            if ((Atom)event.xclient.data.l[0] != w->wm_delete) continue;
            out->kind = RP_WINDOW_EVENT_CLOSE;
            return true;
        case MotionNotify:
            out->kind = RP_WINDOW_EVENT_POINTER;
            out->x = event.xmotion.x;
            out->y = event.xmotion.y;
            return true;
        case ButtonPress:
        case ButtonRelease:
            out->kind = event.type == ButtonPress ? RP_WINDOW_EVENT_PRESS : RP_WINDOW_EVENT_RELEASE;
            out->x = event.xbutton.x;
            out->y = event.xbutton.y;
            out->root_x = event.xbutton.x_root;
            out->root_y = event.xbutton.y_root;
            out->button = (int)event.xbutton.button;
            return true;
        case LeaveNotify:
            out->kind = RP_WINDOW_EVENT_LEAVE;
            return true;
        default:
            continue;
        }
    }
    return false;
}

long rp_window_xsettings(rp_window *w, uint8_t *buffer, size_t capacity) {
    if (w->lost || capacity < 4) return 0;
    char name[32];
    snprintf(name, sizeof name, "_XSETTINGS_S%d", DefaultScreen(w->display));
    Atom selection = XInternAtom(w->display, name, True), settings = XInternAtom(w->display, "_XSETTINGS_SETTINGS", True);
    if (selection == None || settings == None) return 0;
    Window owner = XGetSelectionOwner(w->display, selection);
    if (owner == None) return 0;
    Atom type;
    int format;
    unsigned long count, after;
    unsigned char *data = NULL;
    /* A manager that went away meanwhile is an X error the shim's handler takes: no data. */
    int status = XGetWindowProperty(w->display, owner, settings, 0, (long)(capacity / 4), False, settings, &type, &format,
                                    &count, &after, &data);
    long length = 0;
    if (status == Success && data && type == settings && format == 8) {
        length = after > 0 || count > capacity ? -1 : (long)count;
        if (length > 0) memcpy(buffer, data, (size_t)length);
    }
    if (data) XFree(data);
    return length;
}

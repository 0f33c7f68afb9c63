/* libX11 and libXi, opened when the first window opens: the calls the window's source files make, under their own
   names, forwarded through a table rp_x11_load() fills (dlopen of libXi, whose lookups find libX11's functions too).
   A service that never shows a window maps neither libXi nor libXext. Not part of the shim's interface. */
#ifndef RP_X11_FUNCTIONS_H
#define RP_X11_FUNCTIONS_H

#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XInput2.h>
#include <stdbool.h>

/* Every X function the shim calls, once. */
#define RP_X11_FUNCTIONS(F) \
    F(XAllocClassHint) \
    F(XAllocWMHints) \
    F(XChangeProperty) \
    F(XCloseDisplay) \
    F(XCreateBitmapFromData) \
    F(XCreateGC) \
    F(XCreateImage) \
    F(XCreatePixmapCursor) \
    F(XCreateWindow) \
    F(XDefineCursor) \
    F(XDeleteProperty) \
    F(XDestroyWindow) \
    F(XFillArc) \
    F(XFillRectangle) \
    F(XFlush) \
    F(XFree) \
    F(XFreeCursor) \
    F(XFreeEventData) \
    F(XFreeGC) \
    F(XFreePixmap) \
    F(XGetEventData) \
    F(XGetSelectionOwner) \
    F(XGetWindowAttributes) \
    F(XGetWindowProperty) \
    F(XIQueryVersion) \
    F(XISelectEvents) \
    F(XInternAtom) \
    F(XLookupKeysym) \
    F(XMapRaised) \
    F(XMoveResizeWindow) \
    F(XNextEvent) \
    F(XOpenDisplay) \
    F(XPending) \
    F(XPutImage) \
    F(XQueryExtension) \
    F(XRaiseWindow) \
    F(XResizeWindow) \
    F(XSendEvent) \
    F(XSetClassHint) \
    F(XSetErrorHandler) \
    F(XSetForeground) \
    F(XSetIOErrorExitHandler) \
    F(XSetIOErrorHandler) \
    F(XSetInputFocus) \
    F(XSetWMHints) \
    F(XSetWMProtocols) \
    F(XTranslateCoordinates) \
    F(XUndefineCursor) \
    F(XUngrabPointer) \
    F(XUnmapWindow)

struct rp_x11_functions {
#define RP_X11_FIELD(name) __typeof__(name) *name;
    RP_X11_FUNCTIONS(RP_X11_FIELD)
#undef RP_X11_FIELD
};

extern struct rp_x11_functions rp_x11;

/* Opens the libraries and resolves every function, once (thread-safe); false when that failed (`failure` then says
   why): nothing below may be called. */
bool rp_x11_load(const char **failure);

#ifndef RP_X11_TABLE_ONLY
#define XAllocClassHint (*rp_x11.XAllocClassHint)
#define XAllocWMHints (*rp_x11.XAllocWMHints)
#define XChangeProperty (*rp_x11.XChangeProperty)
#define XCloseDisplay (*rp_x11.XCloseDisplay)
#define XCreateBitmapFromData (*rp_x11.XCreateBitmapFromData)
#define XCreateGC (*rp_x11.XCreateGC)
#define XCreateImage (*rp_x11.XCreateImage)
#define XCreatePixmapCursor (*rp_x11.XCreatePixmapCursor)
#define XCreateWindow (*rp_x11.XCreateWindow)
#define XDefineCursor (*rp_x11.XDefineCursor)
#define XDeleteProperty (*rp_x11.XDeleteProperty)
#define XDestroyWindow (*rp_x11.XDestroyWindow)
#define XFillArc (*rp_x11.XFillArc)
#define XFillRectangle (*rp_x11.XFillRectangle)
#define XFlush (*rp_x11.XFlush)
#define XFree (*rp_x11.XFree)
#define XFreeCursor (*rp_x11.XFreeCursor)
#define XFreeEventData (*rp_x11.XFreeEventData)
#define XFreeGC (*rp_x11.XFreeGC)
#define XFreePixmap (*rp_x11.XFreePixmap)
#define XGetEventData (*rp_x11.XGetEventData)
#define XGetSelectionOwner (*rp_x11.XGetSelectionOwner)
#define XGetWindowAttributes (*rp_x11.XGetWindowAttributes)
#define XGetWindowProperty (*rp_x11.XGetWindowProperty)
#define XIQueryVersion (*rp_x11.XIQueryVersion)
#define XISelectEvents (*rp_x11.XISelectEvents)
#define XInternAtom (*rp_x11.XInternAtom)
#define XLookupKeysym (*rp_x11.XLookupKeysym)
#define XMapRaised (*rp_x11.XMapRaised)
#define XMoveResizeWindow (*rp_x11.XMoveResizeWindow)
#define XNextEvent (*rp_x11.XNextEvent)
#define XOpenDisplay (*rp_x11.XOpenDisplay)
#define XPending (*rp_x11.XPending)
#define XPutImage (*rp_x11.XPutImage)
#define XQueryExtension (*rp_x11.XQueryExtension)
#define XRaiseWindow (*rp_x11.XRaiseWindow)
#define XResizeWindow (*rp_x11.XResizeWindow)
#define XSendEvent (*rp_x11.XSendEvent)
#define XSetClassHint (*rp_x11.XSetClassHint)
#define XSetErrorHandler (*rp_x11.XSetErrorHandler)
#define XSetForeground (*rp_x11.XSetForeground)
#define XSetIOErrorExitHandler (*rp_x11.XSetIOErrorExitHandler)
#define XSetIOErrorHandler (*rp_x11.XSetIOErrorHandler)
#define XSetInputFocus (*rp_x11.XSetInputFocus)
#define XSetWMHints (*rp_x11.XSetWMHints)
#define XSetWMProtocols (*rp_x11.XSetWMProtocols)
#define XTranslateCoordinates (*rp_x11.XTranslateCoordinates)
#define XUndefineCursor (*rp_x11.XUndefineCursor)
#define XUngrabPointer (*rp_x11.XUngrabPointer)
#define XUnmapWindow (*rp_x11.XUnmapWindow)
#endif

#endif

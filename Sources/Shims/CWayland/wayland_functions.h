/* libwayland-client, libwayland-cursor, libdecor and xkbcommon, opened when the first Wayland window opens: every
   function and protocol interface the shim uses, renamed here to a pointer that rp_wayland_load() fills (dlopen),
   before the libraries' own headers are read, so that their declarations and inline requests go through the
   pointers. The pointers are defined once: the shim is one translation unit (wayland.c). A service that opens no
   Wayland window maps none of the four libraries. Not part of the shim's interface. */
#ifndef REPRISE_CWAYLAND_FUNCTIONS_H
#define REPRISE_CWAYLAND_FUNCTIONS_H

#include <stdbool.h>

/* Every function the shim calls, and every interface it names, once. */
#define RP_WAYLAND_FUNCTIONS(F) \
    F(libdecor_configuration_get_content_size) \
    F(libdecor_configuration_get_window_state) \
    F(libdecor_decorate) \
    F(libdecor_frame_commit) \
    F(libdecor_frame_is_visible) \
    F(libdecor_frame_map) \
    F(libdecor_frame_move) \
    F(libdecor_frame_set_app_id) \
    F(libdecor_frame_set_fullscreen) \
    F(libdecor_frame_set_max_content_size) \
    F(libdecor_frame_set_min_content_size) \
    F(libdecor_frame_set_title) \
    F(libdecor_frame_set_visibility) \
    F(libdecor_frame_unref) \
    F(libdecor_frame_unset_fullscreen) \
    F(libdecor_new) \
    F(libdecor_state_free) \
    F(libdecor_state_new) \
    F(libdecor_unref) \
    F(wl_cursor_image_get_buffer) \
    F(wl_cursor_theme_destroy) \
    F(wl_cursor_theme_get_cursor) \
    F(wl_cursor_theme_load) \
    F(wl_display_cancel_read) \
    F(wl_display_connect) \
    F(wl_display_disconnect) \
    F(wl_display_dispatch_pending) \
    F(wl_display_flush) \
    F(wl_display_get_error) \
    F(wl_display_get_fd) \
    F(wl_display_prepare_read) \
    F(wl_display_read_events) \
    F(wl_display_roundtrip) \
    F(wl_proxy_add_listener) \
    F(wl_proxy_destroy) \
    F(wl_proxy_get_version) \
    F(wl_proxy_marshal_flags) \
    F(xkb_context_new) \
    F(xkb_context_unref) \
    F(xkb_keymap_new_from_buffer) \
    F(xkb_keymap_unref) \
    F(xkb_state_key_get_one_sym) \
    F(xkb_state_new) \
    F(xkb_state_unref) \
    F(xkb_state_update_mask)

#define RP_WAYLAND_INTERFACES(F) \
    F(wl_buffer_interface) \
    F(wl_callback_interface) \
    F(wl_compositor_interface) \
    F(wl_keyboard_interface) \
    F(wl_output_interface) \
    F(wl_pointer_interface) \
    F(wl_region_interface) \
    F(wl_registry_interface) \
    F(wl_seat_interface) \
    F(wl_shm_interface) \
    F(wl_shm_pool_interface) \
    F(wl_subcompositor_interface) \
    F(wl_subsurface_interface) \
    F(wl_surface_interface) \
    F(wl_touch_interface)

#define libdecor_configuration_get_content_size (*rp_libdecor_configuration_get_content_size)
#define libdecor_configuration_get_window_state (*rp_libdecor_configuration_get_window_state)
#define libdecor_decorate (*rp_libdecor_decorate)
#define libdecor_frame_commit (*rp_libdecor_frame_commit)
#define libdecor_frame_is_visible (*rp_libdecor_frame_is_visible)
#define libdecor_frame_map (*rp_libdecor_frame_map)
#define libdecor_frame_move (*rp_libdecor_frame_move)
#define libdecor_frame_set_app_id (*rp_libdecor_frame_set_app_id)
#define libdecor_frame_set_fullscreen (*rp_libdecor_frame_set_fullscreen)
#define libdecor_frame_set_max_content_size (*rp_libdecor_frame_set_max_content_size)
#define libdecor_frame_set_min_content_size (*rp_libdecor_frame_set_min_content_size)
#define libdecor_frame_set_title (*rp_libdecor_frame_set_title)
#define libdecor_frame_set_visibility (*rp_libdecor_frame_set_visibility)
#define libdecor_frame_unref (*rp_libdecor_frame_unref)
#define libdecor_frame_unset_fullscreen (*rp_libdecor_frame_unset_fullscreen)
#define libdecor_new (*rp_libdecor_new)
#define libdecor_state_free (*rp_libdecor_state_free)
#define libdecor_state_new (*rp_libdecor_state_new)
#define libdecor_unref (*rp_libdecor_unref)
#define wl_cursor_image_get_buffer (*rp_wl_cursor_image_get_buffer)
#define wl_cursor_theme_destroy (*rp_wl_cursor_theme_destroy)
#define wl_cursor_theme_get_cursor (*rp_wl_cursor_theme_get_cursor)
#define wl_cursor_theme_load (*rp_wl_cursor_theme_load)
#define wl_display_cancel_read (*rp_wl_display_cancel_read)
#define wl_display_connect (*rp_wl_display_connect)
#define wl_display_disconnect (*rp_wl_display_disconnect)
#define wl_display_dispatch_pending (*rp_wl_display_dispatch_pending)
#define wl_display_flush (*rp_wl_display_flush)
#define wl_display_get_error (*rp_wl_display_get_error)
#define wl_display_get_fd (*rp_wl_display_get_fd)
#define wl_display_prepare_read (*rp_wl_display_prepare_read)
#define wl_display_read_events (*rp_wl_display_read_events)
#define wl_display_roundtrip (*rp_wl_display_roundtrip)
#define wl_proxy_add_listener (*rp_wl_proxy_add_listener)
#define wl_proxy_destroy (*rp_wl_proxy_destroy)
#define wl_proxy_get_version (*rp_wl_proxy_get_version)
#define wl_proxy_marshal_flags (*rp_wl_proxy_marshal_flags)
#define xkb_context_new (*rp_xkb_context_new)
#define xkb_context_unref (*rp_xkb_context_unref)
#define xkb_keymap_new_from_buffer (*rp_xkb_keymap_new_from_buffer)
#define xkb_keymap_unref (*rp_xkb_keymap_unref)
#define xkb_state_key_get_one_sym (*rp_xkb_state_key_get_one_sym)
#define xkb_state_new (*rp_xkb_state_new)
#define xkb_state_unref (*rp_xkb_state_unref)
#define xkb_state_update_mask (*rp_xkb_state_update_mask)
#define wl_buffer_interface (*rp_wl_buffer_interface)
#define wl_callback_interface (*rp_wl_callback_interface)
#define wl_compositor_interface (*rp_wl_compositor_interface)
#define wl_keyboard_interface (*rp_wl_keyboard_interface)
#define wl_output_interface (*rp_wl_output_interface)
#define wl_pointer_interface (*rp_wl_pointer_interface)
#define wl_region_interface (*rp_wl_region_interface)
#define wl_registry_interface (*rp_wl_registry_interface)
#define wl_seat_interface (*rp_wl_seat_interface)
#define wl_shm_interface (*rp_wl_shm_interface)
#define wl_shm_pool_interface (*rp_wl_shm_pool_interface)
#define wl_subcompositor_interface (*rp_wl_subcompositor_interface)
#define wl_subsurface_interface (*rp_wl_subsurface_interface)
#define wl_surface_interface (*rp_wl_surface_interface)
#define wl_touch_interface (*rp_wl_touch_interface)

#include <libdecor-0/libdecor.h>
#include <wayland-client.h>
#include <wayland-cursor.h>
#include <xkbcommon/xkbcommon.h>

/* Opens the libraries and resolves every name, once; false when that failed (`failure` then says why): nothing
   above may be used. */
bool rp_wayland_load(const char **failure);

#endif

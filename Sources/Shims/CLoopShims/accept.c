/* accept4(2) is a GNU extension that Swift's Glibc module does not declare. */
#define _GNU_SOURCE
#include "CLoopShims.h"
#include <sys/socket.h>

int rp_accept_nonblocking(int listener) { return accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC); }

/* libebur128 (Debian libebur128-dev): EBU R128 loudness and true peak; its C interface is used from Swift as is. */
#include <ebur128.h>

// adjtimex(2) from glibc's <sys/timex.h>, which Swift's Glibc module does not export.
#include <sys/timex.h>

// 1 when the kernel says the clock is synchronised, 0 when not (TIME_ERROR / STA_UNSYNC), -1 on error.
// modes = 0: a read-only query.
static inline int aubade_clock_synchronised(void) {
    struct timex tx = {0};
    int state = adjtimex(&tx);
    if (state < 0) return -1;
    return (state == TIME_ERROR || (tx.status & STA_UNSYNC)) ? 0 : 1;
}

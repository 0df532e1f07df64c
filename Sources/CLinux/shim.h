// Linux calls Swift cannot reach directly (variadic prctl): typed inline wrappers.
#include <sys/prctl.h>

/// Names the calling thread for the kernel (/proc/<pid>/task/<tid>/comm, ps -L, top -H); at most 15 bytes
/// are kept. Returns 0, or -1 with errno set.
static inline int aubade_name_this_thread(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}

// DNS SRV lookups through glibc's resolver (<resolv.h>, <arpa/nameser.h>), which Swift's Glibc module does not
// export, and whose ns_* accessors are macros Swift cannot call.
#include <netinet/in.h>
#include <arpa/nameser.h>
#include <resolv.h>
#include <stdio.h>

// Asks for the SRV records of `name`; the raw answer goes into `answer`. Returns its length, or -1 (h_errno says
// why). Blocks: call it on a thread of its own.
static inline int aubade_srv_query(const char *name, unsigned char *answer, int size) {
    return res_query(name, ns_c_in, ns_t_srv, answer, size);
}

// Reads the SRV records of a DNS answer: one "priority weight port target" line each, into `out` (NUL-ended).
// Returns how many, or -1 when the answer is not a DNS message.
static inline int aubade_srv_parse(const unsigned char *answer, int length, char *out, int size) {
    ns_msg msg;
    if (size < 1 || ns_initparse(answer, length, &msg) < 0) return -1;
    out[0] = 0;
    int found = 0, used = 0;
    for (int i = 0; i < ns_msg_count(msg, ns_s_an); i++) {
        ns_rr rr;
        if (ns_parserr(&msg, ns_s_an, i, &rr) < 0) return found > 0 ? found : -1;
        if (ns_rr_type(rr) != ns_t_srv || ns_rr_rdlen(rr) < 7) continue;
        const unsigned char *rd = ns_rr_rdata(rr);
        char target[NS_MAXDNAME];
        if (ns_name_uncompress(ns_msg_base(msg), ns_msg_end(msg), rd + 6, target, sizeof target) < 0) continue;
        int w = snprintf(out + used, size - used, "%u %u %u %s\n", ns_get16(rd), ns_get16(rd + 2), ns_get16(rd + 4), target);
        if (w < 0 || w >= size - used) break;
        used += w;
        found++;
    }
    return found;
}

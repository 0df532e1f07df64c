// libcurl for Swift. curl_easy_setopt / curl_easy_getinfo are variadic, which Swift cannot call,
// so each argument type gets a typed inline wrapper.
#pragma once
#include <curl/curl.h>

static inline CURLcode curlx_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode curlx_setopt_ptr(CURL *h, CURLoption o, const void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode curlx_setopt_str(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode curlx_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }

typedef size_t (*curlx_write_cb)(char *ptr, size_t size, size_t nmemb, void *userdata);
static inline CURLcode curlx_setopt_writefn(CURL *h, curlx_write_cb f) {
    return curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, f);
}
static inline CURLcode curlx_setopt_headerfn(CURL *h, curlx_write_cb f) {
    return curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, f);
}
typedef int (*curlx_xferinfo_cb)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t);
static inline CURLcode curlx_setopt_xferinfofn(CURL *h, curlx_xferinfo_cb f) {
    return curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, f);
}
typedef curl_socket_t (*curlx_opensocket_cb)(void *, curlsocktype, struct curl_sockaddr *);
static inline CURLcode curlx_setopt_opensocketfn(CURL *h, curlx_opensocket_cb f) {
    return curl_easy_setopt(h, CURLOPT_OPENSOCKETFUNCTION, f);
}

static inline CURLcode curlx_getinfo_long(CURL *h, CURLINFO i, long *out) { return curl_easy_getinfo(h, i, out); }
static inline CURLcode curlx_getinfo_str(CURL *h, CURLINFO i, char **out) { return curl_easy_getinfo(h, i, out); }
static inline CURLcode curlx_getinfo_double(CURL *h, CURLINFO i, double *out) { return curl_easy_getinfo(h, i, out); }

// The Linux event descriptors the second waker waits on, which Swift's Glibc module does not include:
// epoll, timerfd (with TFD_TIMER_CANCEL_ON_SET, R5) and signalfd. Headers only: nothing to link.
#pragma once
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>

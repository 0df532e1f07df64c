// libical (RFC 5545) for Swift: parsing, unfolding, unescaping and recurrence expansion. Only
// AubadeCalendar's `LibICal` wrapper imports this module (one owning wrapper, docs/HOUSE-RULES.md §6).
#pragma once
#include <libical/ical.h>

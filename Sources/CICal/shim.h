// libical (RFC 5545) for Swift: parsing, unfolding, unescaping and recurrence expansion. Only
// AubadeCalendar's `LibICal` wrapper imports this module (one owning wrapper, house rule 6).
#pragma once
#include <libical/ical.h>

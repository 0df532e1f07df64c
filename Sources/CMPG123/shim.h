// libmpg123 for Swift. mpg123.h renames several functions through macros that Swift ignores
// (mpg123_param -> mpg123_param2, ...): call the suffixed names directly.
#pragma once
#include <mpg123.h>

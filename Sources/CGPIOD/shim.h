// libgpiod v1 (Debian bookworm ships 1.6) for Swift. Its enums are anonymous, so they import as plain
// Int constants (no .rawValue). Trixie ships the incompatible v2 API: keep all gpiod calls in the one
// owning wrapper in AubadeHardware.
#pragma once
#include <gpiod.h>

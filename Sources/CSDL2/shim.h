// SDL2 (video, events, the software renderer), SDL2_ttf (the face's text, from a system TrueType font) and
// SDL2_image (the stations' logos): the native face's drawing (AubadeFaceSDL). Named by their SDL2/ folder rather
// than through pkg-config, whose sdl2 cflags carry -D_REENTRANT, a flag SwiftPM refuses (a warning in every build);
// the headers' own includes of "SDL.h" resolve beside them.
#pragma once
#include <SDL2/SDL.h>
#include <SDL2/SDL_ttf.h>
#include <SDL2/SDL_image.h>

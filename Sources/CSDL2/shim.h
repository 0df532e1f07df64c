// SDL2 (video, events, the software renderer), SDL2_ttf (the face's text, from a system TrueType font) and
// SDL2_image (the stations' logos): the native face's drawing (AubadeFaceSDL). pkg-config's sdl2 puts
// /usr/include/SDL2 on the include path.
#pragma once
#include <SDL.h>
#include <SDL_ttf.h>
#include <SDL_image.h>

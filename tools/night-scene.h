/* gst-cuda-vision
 * Copyright (C) 2026 The gst-cuda-vision authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * This library is free software; you can redistribute it and/or modify it
 * under the terms of the GNU Lesser General Public License as published by
 * the Free Software Foundation; either version 2.1 of the License, or (at
 * your option) any later version. It is distributed in the hope that it
 * will be useful, but WITHOUT ANY WARRANTY; see the GNU Lesser General
 * Public License (COPYING) for more details.
 */

/* A synthetic night-driving frame for the tone mapping's tests, benchmark
 * and pictures: dark textured ground and sky, the beam of the car's own
 * headlights on the road ahead, and three headlights of oncoming cars at
 * full scale with a glow, 16-bit linear light (dynamic range 65535:1, the
 * most the format holds). */
#ifndef NIGHT_SCENE_H
#define NIGHT_SCENE_H

#include <stddef.h>
#include <stdint.h>

/* Paints @width x @height pixels of @channels (1: luminance, 4: R, G, B,
 * opaque A) 16-bit samples, rows @pitch bytes apart; @seed varies the texture.
 * @light (0..1) scales the oncoming headlights: 0 leaves them out. */
void night_scene_paint (uint16_t * pixels, size_t pitch, int width,
    int height, int channels, uint32_t seed, double light);

#endif /* NIGHT_SCENE_H */

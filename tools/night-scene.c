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

#include "night-scene.h"

#include <math.h>
#include <stdbool.h>

static const double headlights[3][2] = { {0.30, 0.60}, {0.38, 0.60},
{0.80, 0.55}
};

/* xorshift32 */
static uint32_t
next_random (uint32_t * state)
{
  *state ^= *state << 13;
  *state ^= *state >> 17;
  *state ^= *state << 5;
  return *state;
}

void
night_scene_paint (uint16_t * pixels, size_t pitch, int width, int height,
    int channels, uint32_t seed, double light)
{
  static const double tint[3] = { 1.0, 0.9, 0.7 };
  uint32_t state = seed * 2654435761u + 1u;

  for (int y = 0; y < height; y++) {
    uint16_t *row = (uint16_t *) ((unsigned char *) pixels + y * pitch);

    for (int x = 0; x < width; x++) {
      const double u = (x + 0.5) / width, v = (y + 0.5) / height;
      double lum = 2.0 + 6.0 * (next_random (&state) & 0xff) / 255.0;

      /* the road in the car's own beam: textured asphalt, dashed centre
       * line and edge lines that reflect more */
      if (v > 0.6 && fabs (u - 0.5) < v - 0.5) {
        const double across = fabs (u - 0.5) / (v - 0.5);
        const bool marked = (across < 0.02 && fmod (1.0 / (v - 0.5), 2.0) <
            1.0) || across > 0.95;

        lum += 400.0 * (v - 0.6) * (marked ? 4.0 : 0.6 + 0.8 *
            (next_random (&state) & 0xff) / 255.0);
      }
      for (int k = 0; k < 3 && light > 0.0; k++) {
        const double d = hypot ((u - headlights[k][0]) * width,
            (v - headlights[k][1]) * height);

        lum += light * (d < 3.0 ? 65535.0 : 20000.0 / (1.0 + d * d));
      }
      for (int c = 0; c < channels; c++) {
        const double value = c == 3 ? 65535.0 :
            lum * (channels == 1 ? 1.0 : tint[c]);

        row[x * channels + c] = (uint16_t) (value > 65535.0 ? 65535.0 : value);
      }
    }
  }
}

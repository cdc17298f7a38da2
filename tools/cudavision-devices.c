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

/* Lists the devices each backend of the cudavision core can open.
 *
 *   cudavision-devices           print the devices
 *   cudavision-devices --check   exit 0 when a CUDA device can be opened,
 *                                1 otherwise (used by scripts) */
#include <stdio.h>
#include <string.h>

#include "cvcore.h"

static int
list_backend (cvcore_backend backend, int quiet)
{
  int count = 0;
  cvcore_status status = cvcore_device_count (backend, &count);

  if (status != CVCORE_OK) {
    if (!quiet)
      printf ("%s: unavailable: %s\n", cvcore_backend_name (backend),
          cvcore_last_error ());
    return 0;
  }
  if (count == 0 && !quiet)
    printf ("%s: no device\n", cvcore_backend_name (backend));
  for (int id = 0; id < count; id++) {
    cvcore_device *device;

    status = cvcore_device_open (backend, id, &device);
    if (status != CVCORE_OK) {
      if (!quiet)
        printf ("%s device %d: cannot open: %s\n",
            cvcore_backend_name (backend), id, cvcore_last_error ());
      continue;
    }
    if (!quiet)
      printf ("%s device %d: %s\n", cvcore_backend_name (backend), id,
          cvcore_device_name (device));
    cvcore_device_close (device);
  }
  return count;
}

int
main (int argc, char **argv)
{
  int check = argc > 1 && strcmp (argv[1], "--check") == 0;

  if (check)
    return list_backend (CVCORE_BACKEND_CUDA, 1) > 0 ? 0 : 1;
  list_backend (CVCORE_BACKEND_CUDA, 0);
  list_backend (CVCORE_BACKEND_CPU, 0);
  return 0;
}

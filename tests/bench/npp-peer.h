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

/* NVIDIA's NPP as a peer of the convolution benchmark, loaded at run time
 * (the toolkit on the GPU host has it; the build does not need it). */
#ifndef NPP_PEER_H
#define NPP_PEER_H

#include <glib.h>

#include "cvcore.h"
#include "cvconvolve.h"

typedef struct NppPeer NppPeer;

/* NULL, with the reason on stderr, when NPP cannot be loaded. */
NppPeer *npp_peer_open (cvcore_stream * stream);
void npp_peer_close (NppPeer * peer);

/* Copies @taps to the device for the following filters (centred anchor,
 * divisor the sum of integer taps). */
cvcore_status npp_peer_set_taps (NppPeer * peer,
    const cvcore_convolve_taps * taps);

/* Queues nppiFilterBorder (8-bit, 1 or 4 channels, replicated border) of
 * @src into @dst on the peer's stream: the integer-kernel entry point when
 * every tap is a whole number, the float one otherwise. */
cvcore_status npp_peer_filter (NppPeer * peer, const cvcore_image * src,
    const cvcore_image * dst);

/* The separable Gaussian of @n (odd) float @taps for npp_peer_gauss ();
 * CVCORE_ERROR_NOT_BUILT where NPP lacks nppiFilterGaussAdvancedBorder. */
cvcore_status npp_peer_set_gauss (NppPeer * peer, const float *taps, int n);

/* Queues nppiFilterGaussAdvancedBorder (8-bit, 4 channels, replicated
 * border) of @src into @dst. */
cvcore_status npp_peer_gauss (NppPeer * peer, const cvcore_image * src,
    const cvcore_image * dst);

#endif /* NPP_PEER_H */

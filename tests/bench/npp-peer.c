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

/* NPP declares its API in headers the toolkit ships beside the library;
 * the few types used here are restated so that the benchmark builds where
 * NPP is absent and loads it where it is. */
#include "npp-peer.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>

#include <cuda_runtime.h>

typedef struct
{
  int width, height;
} PeerSize;

typedef struct
{
  int x, y;
} PeerPoint;

/* NppStreamContext, in NPP 12 and 13's layout. */
typedef struct
{
  cudaStream_t stream;
  int device_id;
  int multiprocessors;
  int max_threads_per_multiprocessor;
  int max_threads_per_block;
  size_t shared_per_block;
  int capability_major;
  int capability_minor;
  unsigned int stream_flags;
  unsigned int workspace;
} PeerContext;

enum
{ PEER_BORDER_REPLICATE = 2 };

typedef int (*FilterInt) (const unsigned char *src, int src_step,
    PeerSize src_size, PeerPoint src_offset, unsigned char *dst, int dst_step,
    PeerSize roi, const int *kernel, PeerSize kernel_size, PeerPoint anchor,
    int divisor, int border, PeerContext context);
typedef int (*FilterFloat) (const unsigned char *src, int src_step,
    PeerSize src_size, PeerPoint src_offset, unsigned char *dst, int dst_step,
    PeerSize roi, const float *kernel, PeerSize kernel_size, PeerPoint anchor,
    int border, PeerContext context);

typedef int (*GaussAdvanced) (const unsigned char *src, int src_step,
    PeerSize src_size, PeerPoint src_offset, unsigned char *dst, int dst_step,
    PeerSize roi, int taps, const float *kernel, int border,
    PeerContext context);

struct NppPeer
{
  void *library;
  PeerContext context;
  FilterInt int_c1, int_c4;
  FilterFloat float_c1, float_c4;
  GaussAdvanced gauss_c4;       /* NULL where the library lacks it */
  int gauss_taps;
  int *int_taps;                /* device copies of the taps */
  float *float_taps;
  gboolean integer;             /* the taps are whole numbers */
  int sum;
  PeerSize kernel;
  PeerPoint anchor;
};

static void *
open_library (void)
{
  static const char *names[] = {
    "libnppif.so.13", "libnppif.so.12", "libnppif.so",
    "/usr/local/cuda/lib64/libnppif.so.13",
    "/usr/local/cuda/lib64/libnppif.so.12",
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++) {
    void *library = dlopen (names[i], RTLD_NOW | RTLD_LOCAL);

    if (library)
      return library;
  }
  fprintf (stderr, "NPP not measured: %s\n", dlerror ());
  return NULL;
}

NppPeer *
npp_peer_open (cvcore_stream * stream)
{
  struct cudaDeviceProp prop;
  NppPeer *peer = g_new0 (NppPeer, 1);
  PeerContext *ctx = &peer->context;

  peer->library = open_library ();
  if (!peer->library)
    goto fail;
  peer->int_c1 = (FilterInt) dlsym (peer->library,
      "nppiFilterBorder_8u_C1R_Ctx");
  peer->int_c4 = (FilterInt) dlsym (peer->library,
      "nppiFilterBorder_8u_C4R_Ctx");
  peer->float_c1 = (FilterFloat) dlsym (peer->library,
      "nppiFilterBorder32f_8u_C1R_Ctx");
  peer->float_c4 = (FilterFloat) dlsym (peer->library,
      "nppiFilterBorder32f_8u_C4R_Ctx");
  peer->gauss_c4 = (GaussAdvanced) dlsym (peer->library,
      "nppiFilterGaussAdvancedBorder_8u_C4R_Ctx");
  if (!peer->int_c1 || !peer->int_c4 || !peer->float_c1 || !peer->float_c4) {
    fprintf (stderr, "NPP not measured: nppiFilterBorder missing\n");
    goto fail;
  }

  ctx->stream = (cudaStream_t) cvcore_stream_handle (stream);
  if (cudaGetDevice (&ctx->device_id) != cudaSuccess
      || cudaGetDeviceProperties (&prop, ctx->device_id) != cudaSuccess
      || cudaStreamGetFlags (ctx->stream, &ctx->stream_flags) != cudaSuccess
      || cudaMalloc ((void **) &peer->int_taps, CVCORE_CONVOLVE_MAX_TAPS *
          sizeof (int)) != cudaSuccess
      || cudaMalloc ((void **) &peer->float_taps, CVCORE_CONVOLVE_MAX_TAPS *
          sizeof (float)) != cudaSuccess) {
    fprintf (stderr, "NPP not measured: no CUDA device\n");
    goto fail;
  }
  ctx->multiprocessors = prop.multiProcessorCount;
  ctx->max_threads_per_multiprocessor = prop.maxThreadsPerMultiProcessor;
  ctx->max_threads_per_block = prop.maxThreadsPerBlock;
  ctx->shared_per_block = prop.sharedMemPerBlock;
  ctx->capability_major = prop.major;
  ctx->capability_minor = prop.minor;
  return peer;

fail:
  npp_peer_close (peer);
  return NULL;
}

void
npp_peer_close (NppPeer * peer)
{
  if (!peer)
    return;
  cudaFree (peer->int_taps);
  cudaFree (peer->float_taps);
  if (peer->library)
    dlclose (peer->library);
  g_free (peer);
}

cvcore_status
npp_peer_set_taps (NppPeer * peer, const cvcore_convolve_taps * taps)
{
  const int n = taps->width * taps->height;
  int int_taps[CVCORE_CONVOLVE_MAX_TAPS];
  cudaError_t err;

  peer->integer = TRUE;
  peer->sum = 0;
  for (int i = 0; i < n; i++) {
    peer->integer &= taps->taps[i] == floorf (taps->taps[i]);
    int_taps[i] = (int) taps->taps[i];
    peer->sum += int_taps[i];
  }
  peer->kernel.width = taps->width;
  peer->kernel.height = taps->height;
  peer->anchor.x = taps->width / 2;
  peer->anchor.y = taps->height / 2;
  if (peer->integer)
    err = cudaMemcpy (peer->int_taps, int_taps, n * sizeof (int),
        cudaMemcpyHostToDevice);
  else
    err = cudaMemcpy (peer->float_taps, taps->taps, n * sizeof (float),
        cudaMemcpyHostToDevice);
  return err == cudaSuccess ? CVCORE_OK : CVCORE_ERROR_RUNTIME;
}

cvcore_status
npp_peer_filter (NppPeer * peer, const cvcore_image * src,
    const cvcore_image * dst)
{
  const PeerSize size = { src->width, src->height };
  const PeerPoint origin = { 0, 0 };
  int status;

  if (peer->integer)
    status = (src->channels == 4 ? peer->int_c4 : peer->int_c1) (src->data,
        (int) src->pitch, size, origin, dst->data, (int) dst->pitch, size,
        peer->int_taps, peer->kernel, peer->anchor, peer->sum ? peer->sum : 1,
        PEER_BORDER_REPLICATE, peer->context);
  else
    status = (src->channels == 4 ? peer->float_c4 : peer->float_c1)
        (src->data, (int) src->pitch, size, origin, dst->data,
        (int) dst->pitch, size, peer->float_taps, peer->kernel, peer->anchor,
        PEER_BORDER_REPLICATE, peer->context);
  if (status < 0) {
    fprintf (stderr, "nppiFilterBorder: status %d\n", status);
    return CVCORE_ERROR_RUNTIME;
  }
  return CVCORE_OK;
}

cvcore_status
npp_peer_set_gauss (NppPeer * peer, const float *taps, int n)
{
  if (!peer->gauss_c4 || n > CVCORE_CONVOLVE_MAX_TAPS)
    return CVCORE_ERROR_NOT_BUILT;
  peer->gauss_taps = n;
  return cudaMemcpy (peer->float_taps, taps, n * sizeof (float),
      cudaMemcpyHostToDevice) == cudaSuccess ? CVCORE_OK : CVCORE_ERROR_RUNTIME;
}

cvcore_status
npp_peer_gauss (NppPeer * peer, const cvcore_image * src,
    const cvcore_image * dst)
{
  const PeerSize size = { src->width, src->height };
  const PeerPoint origin = { 0, 0 };
  const int status = peer->gauss_c4 (src->data, (int) src->pitch, size,
      origin, dst->data, (int) dst->pitch, size, peer->gauss_taps,
      peer->float_taps, PEER_BORDER_REPLICATE, peer->context);

  if (status < 0) {
    fprintf (stderr, "nppiFilterGaussAdvancedBorder: status %d\n", status);
    return CVCORE_ERROR_RUNTIME;
  }
  return CVCORE_OK;
}

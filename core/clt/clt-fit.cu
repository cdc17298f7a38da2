/* The motion-field fit on CUDA, a thread per tile. */
#include "clt-common.h"
#include "clt-fit-common.h"
#include "clt-private.h"
#include "launch.cuh"

namespace {

__global__ void
clt_fit (const cvcore_clt_match *matches, const float *shapes, int width,
    int height, int radius, cvcore_clt_match *fitted)
{
  const int tile = blockIdx.x * blockDim.x + threadIdx.x;
  const int tiles_x = cv_clt_tiles (width);
  float d[2];

  if (tile >= tiles_x * cv_clt_tiles (height))
    return;
  cv_clt_fit_tile (matches, shapes, width, height, tile % tiles_x,
      tile / tiles_x, radius, d);
  fitted[tile].dx = d[0];
  fitted[tile].dy = d[1];
  fitted[tile].confidence =
      matches[tile].confidence * cv_clt_shape_trust (&shapes[3 * tile]);
}

} /* namespace */

extern "C" cvcore_status
cv_clt_fit_cuda (cvcore_stream *stream, const float *shapes,
    const cvcore_clt_match *matches, int width, int height, int radius,
    cvcore_clt_match *fitted)
{
  cudaStream_t cs = cv_cuda_stream (stream);
  const int tiles_x = cv_clt_tiles (width), tiles_y = cv_clt_tiles (height);

  CUDA_BIND (cvcore_stream_device (stream));
  clt_fit<<<(tiles_x * tiles_y + 127) / 128, 128, 0, cs>>> (matches, shapes,
      width, height, radius, fitted);
  CV_CUDA_LAUNCHED ();
  return CVCORE_OK;
}

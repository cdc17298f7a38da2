/* CUDA kernels of the Gabor filtering (the CPU reference's arithmetic in
 * single precision). Every filter of the bank, and the Gaussian that
 * removes their DC response, has its own complex plane.
 *
 * Recursive: `recursive_rows` runs the causal and anticausal passes along
 * rows, one thread per (row, filter), reading the source's luminance and
 * filtering in place in the filter's plane; `recursive_cols` does the
 * same down columns (neighbouring threads on neighbouring columns, so
 * every step is one coalesced access); `combine` turns the planes into the
 * output. FIR: `fir_taps` samples the filters, `fir_rows` convolves rows
 * (one thread per output sample), `fir_cols_combine` convolves columns and
 * combines in one pass. */
#include <cuda_runtime.h>

#include "gabor-common.h"
#include "cvcore-private.h"

namespace
{

constexpr int kThreads = 128;
constexpr float kPi = 3.14159265358979f;

struct Source
{
  const unsigned char *data;
  size_t pitch;
  int channels;
  bool wide;
  float weight[4];

  __device__ __forceinline__ float luma (int x, int y) const
  {
    const unsigned char *row = data + y * pitch;
    float v = 0.0f;

    for (int c = 0; c < channels; c++)
      v += weight[c] * (wide ? (float) reinterpret_cast < const unsigned short
          *>(row)[x * channels + c] / 65535.0f : (float) row[x * channels + c]
          / 255.0f);
    return v;
  }
};

struct Planes
{
  float2 *data;
  size_t pitch;                 /* bytes */
  int width, height;

  __device__ __forceinline__ float2 *row (int f, int y) const
  {
    return reinterpret_cast < float2 * >(reinterpret_cast < char *>(data) +
        ((size_t) f * height + y) * pitch);
  }
};

struct Coeffs
{
  float2 c[3], d[3], causal_init, anticausal_init;
  float b;
};

__device__ __forceinline__ float2
cmul (float2 a, float2 b)
{
  return make_float2 (a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

__device__ __forceinline__ float2
cadd (float2 a, float2 b)
{
  return make_float2 (a.x + b.x, a.y + b.y);
}

__device__ __forceinline__ float2
cscale (float s, float2 a)
{
  return make_float2 (s * a.x, s * a.y);
}

__device__ __forceinline__ Coeffs
coeffs (const cv_gabor_pass & p, double b)
{
  Coeffs k;

  for (int i = 0; i < 3; i++) {
    k.c[i] = make_float2 ((float) p.c[i][0], (float) p.c[i][1]);
    k.d[i] = make_float2 ((float) p.d[i][0], (float) p.d[i][1]);
  }
  k.causal_init = make_float2 ((float) p.causal_init[0],
      (float) p.causal_init[1]);
  k.anticausal_init = make_float2 ((float) p.anticausal_init[0],
      (float) p.anticausal_init[1]);
  k.b = (float) b;
  return k;
}

/* Causal then anticausal pass over a line: @at (i) addresses sample i;
 * @in (i) gives the input of the causal pass. */
template < typename At, typename In >
__device__ __forceinline__ void
recursive_line (int n, const Coeffs & k, At at, In in)
{
  float2 w1, w2, w3;

  w1 = w2 = w3 = cmul (k.causal_init, in (0));
  for (int i = 0; i < n; i++) {
    const float2 w = cadd (cadd (cscale (k.b, in (i)), cmul (k.c[0], w1)),
        cadd (cmul (k.c[1], w2), cmul (k.c[2], w3)));

    w3 = w2;
    w2 = w1;
    w1 = *at (i) = w;
  }
  w1 = w2 = w3 = cmul (k.anticausal_init, *at (n - 1));
  for (int i = n - 1; i >= 0; i--) {
    const float2 o = cadd (cadd (cscale (k.b, *at (i)), cmul (k.d[0], w1)),
        cadd (cmul (k.d[1], w2), cmul (k.d[2], w3)));

    w3 = w2;
    w2 = w1;
    w1 = *at (i) = o;
  }
}

__global__ void __launch_bounds__ (kThreads)
recursive_rows (Source src, Planes planes,
    const __grid_constant__ cv_gabor_plan plan)
{
  const int y = blockIdx.x * kThreads + threadIdx.x, f = blockIdx.y;

  if (y >= planes.height)
    return;
  float2 *row = planes.row (f, y);

  recursive_line (planes.width, coeffs (plan.rows[f], plan.b),[row] (int i) {
      return row + i;}
      ,[&src, y] (int i) {
      return make_float2 (src.luma (i, y), 0.0f);}
  );
}

__global__ void __launch_bounds__ (kThreads)
recursive_cols (Planes planes, const __grid_constant__ cv_gabor_plan plan)
{
  const int x = blockIdx.x * kThreads + threadIdx.x, f = blockIdx.y;

  if (x >= planes.width)
    return;
  float2 *top = planes.row (f, 0) + x;
  const size_t step = planes.pitch / sizeof (float2);

  recursive_line (planes.height, coeffs (plan.cols[f], plan.b),
      [top, step] (int i) {
      return top + i * step;}
      ,[top, step] (int i) {
      return top[i * step];}
  );
}

/* Output of pixel (x, y) from each filter's response @at (f). */
template < typename At >
__device__ __forceinline__ void
combine_pixel (const cvcore_image & dst, const cvcore_gabor_params & params,
    const cv_gabor_plan & plan, int x, int y, At at)
{
  const float full = dst.sample == CVCORE_SAMPLE_U16 ? 65535.0f : 255.0f;
  const int n = plan.orientations;
  const float gauss = at (n).x;
  const float gain = (float) params.gain;
  float out[4] = { 0.0f, 0.0f, 0.0f, 0.0f }, energy = 0.0f, best = -1.0f;
  float2 strongest = make_float2 (0.0f, 0.0f);
  int arg = 0;
  auto scale =[full] (float v) {
    return fminf (fmaxf (floorf (v * full + 0.5f), 0.0f), full);
  };

  for (int o = 0; o < n; o++) {
    const float2 a = at (o);
    const float2 r = make_float2 (a.x - (float) plan.dc[o] * gauss, a.y);
    const float m = sqrtf (r.x * r.x + r.y * r.y);

    if (o < 4)
      out[o] = scale (gain * m);
    energy += m * m;
    if (m > best) {
      best = m;
      strongest = r;
      arg = o;
    }
  }
  if (dst.channels == 1) {
    switch (params.output) {
      case CVCORE_GABOR_MAGNITUDE:
        out[0] = scale (gain * sqrtf (energy));
        break;
      case CVCORE_GABOR_REAL:
        out[0] = scale (0.5f + gain * strongest.x);
        break;
      case CVCORE_GABOR_IMAGINARY:
        out[0] = scale (0.5f + gain * strongest.y);
        break;
      case CVCORE_GABOR_PHASE:
        out[0] = scale ((atan2f (strongest.y, strongest.x) + kPi) /
            (2.0f * kPi));
        break;
      default:
        out[0] = floorf ((float) arg * full / n + 0.5f);
        break;
    }
  }
  unsigned char *row = static_cast < unsigned char *>(dst.data) +
      y * dst.pitch;
  if (dst.channels == 4) {
    reinterpret_cast < uchar4 * >(row)[x] = make_uchar4 ((unsigned char)
        out[0], (unsigned char) out[1], (unsigned char) out[2],
        (unsigned char) out[3]);
  } else if (dst.sample == CVCORE_SAMPLE_U16) {
    reinterpret_cast < unsigned short *>(row)[x] = (unsigned short) out[0];
  } else {
    row[x] = (unsigned char) out[0];
  }
}

__global__ void __launch_bounds__ (kThreads)
combine (Planes planes, cvcore_image dst, cvcore_gabor_params params,
    const __grid_constant__ cv_gabor_plan plan)
{
  const int x = blockIdx.x * kThreads + threadIdx.x, y = blockIdx.y;

  if (x >= planes.width)
    return;
  combine_pixel (dst, params, plan, x, y,[&planes, x, y] (int f) {
      return planes.row (f, y)[x];}
  );
}

/* taps[(f * 2 + d) * (2 r + 1) + r + k] = G (k) e^{j omega k}, G
 * normalised over -r..r; d 0 rows, 1 columns. */
__global__ void
fir_taps (float2 *taps, const __grid_constant__ cv_gabor_plan plan)
{
  const int r = plan.radius, n = 2 * r + 1;
  const int f = blockIdx.x, d = blockIdx.y;
  const float inv2s2 = 0.5f / (float) (plan.sigma * plan.sigma);
  const float omega = (float) (d ? plan.cols[f].omega : plan.rows[f].omega);
  float norm = 0.0f;

  for (int k = -r; k <= r; k++)
    norm += expf (-(float) (k * k) * inv2s2);
  for (int k = threadIdx.x - r; k <= r; k += blockDim.x) {
    float s, c;

    sincosf (omega * k, &s, &c);
    taps[(f * 2 + d) * n + r + k] = cscale (expf (-(float) (k * k) * inv2s2)
        / norm, make_float2 (c, s));
  }
}

__global__ void __launch_bounds__ (kThreads)
fir_rows (Source src, Planes planes, const float2 * taps,
    const __grid_constant__ cv_gabor_plan plan)
{
  const int x = blockIdx.x * kThreads + threadIdx.x, y = blockIdx.y;
  const int f = blockIdx.z, r = plan.radius;
  const float2 *tap = taps + (f * 2) * (2 * r + 1) + r;
  float2 acc = make_float2 (0.0f, 0.0f);

  if (x >= planes.width)
    return;
  for (int k = -r; k <= r; k++)
    acc = cadd (acc, cscale (src.luma (min (max (x - k, 0),
                    planes.width - 1), y), tap[k]));
  planes.row (f, y)[x] = acc;
}

__global__ void __launch_bounds__ (kThreads)
fir_cols_combine (Planes planes, const float2 * taps, cvcore_image dst,
    cvcore_gabor_params params, const __grid_constant__ cv_gabor_plan plan)
{
  const int x = blockIdx.x * kThreads + threadIdx.x, y = blockIdx.y;
  const int r = plan.radius;

  if (x >= planes.width)
    return;
  combine_pixel (dst, params, plan, x, y,[&] (int f) {
      const float2 * tap = taps + (f * 2 + 1) * (2 * r + 1) + r;
      float2 acc = make_float2 (0.0f, 0.0f);
      for (int k = -r; k <= r; k++)
      acc = cadd (acc, cmul (tap[k], planes.row (f, min (max (y - k, 0),
                      planes.height - 1))[x]));
      return acc;}
  );
}

}                               /* namespace */

extern "C" cvcore_status
cvcore_cuda_gabor (cvcore_stream * stream, void *plane_data,
    size_t plane_pitch, float *taps, const cvcore_image * src,
    const cvcore_image * dst, const cvcore_gabor_params * params,
    const cv_gabor_plan * plan)
{
  const cvcore_device *device = cvcore_stream_device (stream);
  cudaStream_t cs = static_cast < cudaStream_t > (cvcore_stream_handle
      (stream));
  const int w = src->width, h = src->height, nf = plan->n_filters;
  float2 *tap_data = reinterpret_cast < float2 * >(taps);
  Source s;
  Planes planes;

  s.data = static_cast < const unsigned char *>(src->data);
  s.pitch = src->pitch;
  s.channels = src->channels;
  s.wide = src->sample == CVCORE_SAMPLE_U16;
  for (int c = 0; c < 4; c++)
    s.weight[c] = (float) params->weight[c];
  planes.data = static_cast < float2 * >(plane_data);
  planes.pitch = plane_pitch;
  planes.width = w;
  planes.height = h;

  CUDA_TRY (cudaSetDevice (device->id));
  if (plan->method == CVCORE_GABOR_FIR) {
    fir_taps <<<dim3 (nf, 2), 256, 0, cs >>> (tap_data, *plan);
    CUDA_TRY (cudaGetLastError ());
    fir_rows <<<dim3 ((w + kThreads - 1) / kThreads, h, nf), kThreads, 0,
        cs >>> (s, planes, tap_data, *plan);
    CUDA_TRY (cudaGetLastError ());
    fir_cols_combine <<<dim3 ((w + kThreads - 1) / kThreads, h), kThreads, 0,
        cs >>> (planes, tap_data, *dst, *params, *plan);
    CUDA_TRY (cudaGetLastError ());
    return CVCORE_OK;
  }
  recursive_rows <<<dim3 ((h + kThreads - 1) / kThreads, nf), kThreads, 0,
      cs >>> (s, planes, *plan);
  CUDA_TRY (cudaGetLastError ());
  recursive_cols <<<dim3 ((w + kThreads - 1) / kThreads, nf), kThreads, 0,
      cs >>> (planes, *plan);
  CUDA_TRY (cudaGetLastError ());
  combine <<<dim3 ((w + kThreads - 1) / kThreads, h), kThreads, 0, cs >>>
      (planes, *dst, *params, *plan);
  CUDA_TRY (cudaGetLastError ());
  return CVCORE_OK;
}

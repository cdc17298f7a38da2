/* A kernel that occupies a stream for a given time, so that work queued
 * behind it starts only once all of it has been queued. */
#include <cuda_runtime.h>

#include "cvcore-private.h"
#include "launch.cuh"

namespace {

__device__ __forceinline__ unsigned long long
global_ns ()
{
  unsigned long long t;

  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void
wait_ns (unsigned long long ns)
{
  const unsigned long long start = global_ns ();

  while (global_ns () - start < ns)
    __nanosleep (1000);
}

} /* namespace */

extern "C" cvcore_status
cv_cuda_stream_delay (void *stream, double ms)
{
  wait_ns<<<1, 1, 0, (cudaStream_t) stream>>> ((unsigned long long) (ms * 1e6));
  CV_CUDA_LAUNCHED ();
  return CVCORE_OK;
}

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

/* CUDA backend of the core's primitive runtime, on the CUDA runtime API.
 *
 * cudart is linked statically: it loads libcuda.so.1 only when the first
 * CUDA call runs, so the plugin loads on machines without a driver and the
 * missing driver surfaces as an error when a device is opened. */
#include "cvcore-private.h"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdio.h>

#define MIN_PITCH_ALIGNMENT 256

cvcore_status
cv_cuda_fail (int error, const char *call, const char *file, int line)
{
  cudaError_t err = (cudaError_t) error;
  cvcore_status status;

  /* Reported now: left as the thread's last error, a refusal that is no
   * fault (a registration of memory already registered, say) would fail
   * the next kernel launch's check. */
  cudaGetLastError ();
  switch (err) {
    case cudaErrorInsufficientDriver:
    case cudaErrorCompatNotSupportedOnDevice:
      status = CVCORE_ERROR_NO_DRIVER;
      break;
    case cudaErrorNoDevice:
      status = CVCORE_ERROR_NO_DEVICE;
      break;
    case cudaErrorInvalidDevice:
      status = CVCORE_ERROR_INVALID_DEVICE;
      break;
    case cudaErrorMemoryAllocation:
      status = CVCORE_ERROR_OUT_OF_MEMORY;
      break;
    case cudaErrorNotReady:
      status = CVCORE_ERROR_NOT_READY;
      break;
    case cudaErrorInvalidValue:
      status = CVCORE_ERROR_INVALID_VALUE;
      break;
    default:
      status = CVCORE_ERROR_RUNTIME;
      break;
  }
  return cv_fail (status, "%s failed: %s (%s) [%s:%d]", call,
      cudaGetErrorString (err), cudaGetErrorName (err), file, line);
}

/* The few driver calls that contexts need, taken from the driver through
 * the runtime, so that nothing links libcuda.so.1. */
typedef CUresult (*CtxSetCurrentFunc) (CUcontext context);
typedef CUresult (*CtxGetCurrentFunc) (CUcontext * context);

static struct
{
  pthread_once_t once;
  cudaError_t error;
  CtxSetCurrentFunc set_current;
  CtxGetCurrentFunc get_current;
} driver = { PTHREAD_ONCE_INIT, cudaSuccess, NULL, NULL };

static cudaError_t
get_driver_function (const char *name, void **function)
{
  enum cudaDriverEntryPointQueryResult found;
  /* The versioned call came with CUDA 12.5, and CUDA 13 keeps only it;
   * both give the function as of the runtime's version. */
#if CUDART_VERSION >= 12050
  cudaError_t err = cudaGetDriverEntryPointByVersion (name, function,
      CUDART_VERSION, cudaEnableDefault, &found);
#else
  cudaError_t err = cudaGetDriverEntryPoint (name, function,
      cudaEnableDefault, &found);
#endif

  if (err == cudaSuccess && found != cudaDriverEntryPointSuccess)
    err = cudaErrorSymbolNotFound;
  return err;
}

static void
load_driver_functions (void)
{
  driver.error = get_driver_function ("cuCtxSetCurrent",
      (void **) &driver.set_current);
  if (driver.error == cudaSuccess)
    driver.error = get_driver_function ("cuCtxGetCurrent",
        (void **) &driver.get_current);
}

static cvcore_status
ensure_driver_functions (void)
{
  pthread_once (&driver.once, load_driver_functions);
  CUDA_TRY (driver.error);
  return CVCORE_OK;
}

cvcore_status
cv_cuda_bind (const cvcore_device * device)
{
  CUresult result;

  /* set by device_open, which runs before any other call of the device */
  result = driver.set_current ((CUcontext) device->context);
  if (result != CUDA_SUCCESS)
    return cv_fail (CVCORE_ERROR_RUNTIME,
        "cuCtxSetCurrent failed on device %d: CUresult %d", device->id,
        (int) result);
  return CVCORE_OK;
}

#define BIND(device) CUDA_BIND (device)

static cvcore_status
cuda_device_count (int *count)
{
  cudaError_t err = cudaGetDeviceCount (count);
  int driver_version = 0;

  if (err == cudaSuccess)
    return CVCORE_OK;
  *count = 0;
  if (err == cudaErrorNoDevice)
    return CVCORE_OK;
  if (err == cudaErrorInsufficientDriver) {
    cudaDriverGetVersion (&driver_version);
    if (driver_version == 0)
      return cv_fail (CVCORE_ERROR_NO_DRIVER,
          "no NVIDIA driver found: libcuda.so.1 could not be loaded");
    return cv_fail (CVCORE_ERROR_NO_DRIVER,
        "the NVIDIA driver supports CUDA %d.%d, older than this build's "
        "runtime (%d.%d)", driver_version / 1000, driver_version % 1000 / 10,
        CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
  }
  return cv_cuda_fail (err, "cudaGetDeviceCount", __FILE__, __LINE__);
}

/* Kernel attributes a device has set; a few kernels take any. */
#define KEPT_ATTRIBUTES 64

struct cv_cuda_attributes
{
  pthread_mutex_t lock;
  int n;
  struct
  {
    const void *kernel;
    int attribute, value;
  } set[KEPT_ATTRIBUTES];
};

static cvcore_status
cuda_device_open (cvcore_device * device)
{
  struct cudaDeviceProp prop;
  size_t align;
  CUcontext current = NULL;
  CUresult result;
  cvcore_status status = ensure_driver_functions ();

  if (status != CVCORE_OK)
    return status;
  if (device->context) {
    /* an adopted context: its device is the one the runtime now reports */
    BIND (device);
    CUDA_TRY (cudaGetDevice (&device->id));
  } else {
    /* the primary context, made now so that no frame pays for it */
    CUDA_TRY (cudaSetDevice (device->id));
    CUDA_TRY (cudaFree (NULL));
    result = driver.get_current (&current);
    if (result != CUDA_SUCCESS || current == NULL)
      return cv_fail (CVCORE_ERROR_RUNTIME,
          "no current context on device %d after cudaSetDevice: CUresult %d",
          device->id, (int) result);
    device->context = current;
  }
  CUDA_TRY (cudaGetDeviceProperties (&prop, device->id));
  align = prop.texturePitchAlignment;
  device->pitch_alignment = align > MIN_PITCH_ALIGNMENT ? align :
      MIN_PITCH_ALIGNMENT;
  device->shared_per_block_optin = prop.sharedMemPerBlockOptin;
  device->compute_capability = prop.major * 10 + prop.minor;
  device->multiprocessors = prop.multiProcessorCount;
  snprintf (device->name, sizeof (device->name), "%.200s (sm_%d%d)", prop.name,
      prop.major, prop.minor);
  device->attributes = calloc (1, sizeof (*device->attributes));
  if (device->attributes == NULL)
    return cv_fail (CVCORE_ERROR_OUT_OF_MEMORY, "out of host memory");
  pthread_mutex_init (&device->attributes->lock, NULL);
  return CVCORE_OK;
}

static void
cuda_device_close (cvcore_device * device)
{
  /* The context stays: the primary one may have other users in the
   * process, and an adopted one belongs to whoever made it. */
  if (device->attributes) {
    pthread_mutex_destroy (&device->attributes->lock);
    free (device->attributes);
  }
}

cvcore_status
cv_cuda_set_attribute (const cvcore_device * device, const void *kernel,
    int attribute, int value)
{
  struct cv_cuda_attributes *kept = device->attributes;
  cvcore_status status = CVCORE_OK;
  cudaError_t err;
  int i;

  pthread_mutex_lock (&kept->lock);
  for (i = 0; i < kept->n; i++)
    if (kept->set[i].kernel == kernel && kept->set[i].attribute == attribute)
      break;
  if (i < kept->n && (kept->set[i].value == value || (attribute ==
              cudaFuncAttributeMaxDynamicSharedMemorySize
              && kept->set[i].value > value)))
    goto done;
  status = cv_cuda_bind (device);
  if (status != CVCORE_OK)
    goto done;
  err = cudaFuncSetAttribute (kernel, (enum cudaFuncAttribute) attribute,
      value);
  if (err != cudaSuccess) {
    status = cv_cuda_fail (err, "cudaFuncSetAttribute", __FILE__, __LINE__);
    goto done;
  }
  if (i == kept->n && kept->n < KEPT_ATTRIBUTES)
    kept->n++;
  if (i < kept->n) {
    kept->set[i].kernel = kernel;
    kept->set[i].attribute = attribute;
    kept->set[i].value = value;
  }
done:
  pthread_mutex_unlock (&kept->lock);
  return status;
}

static cvcore_status
cuda_device_alloc (cvcore_device * device, size_t size, void **ptr)
{
  BIND (device);
  CUDA_TRY (cudaMalloc (ptr, size));
  return CVCORE_OK;
}

static void
cuda_device_free (cvcore_device * device, void *ptr)
{
  if (cv_cuda_bind (device) == CVCORE_OK)
    cudaFree (ptr);
}

static cvcore_status
cuda_host_alloc (cvcore_device * device, size_t size, void **ptr)
{
  BIND (device);
  /* Portable: page-locked for every device, so buffers can move between
   * elements bound to different GPUs. */
  CUDA_TRY (cudaHostAlloc (ptr, size, cudaHostAllocPortable));
  return CVCORE_OK;
}

static void
cuda_host_free (cvcore_device * device, void *ptr)
{
  (void) device;
  cudaFreeHost (ptr);
}

static cvcore_status
cuda_host_register (cvcore_device * device, void *ptr, size_t size)
{
  BIND (device);
  CUDA_TRY (cudaHostRegister (ptr, size, cudaHostRegisterPortable));
  return CVCORE_OK;
}

static cvcore_status
cuda_host_unregister (cvcore_device * device, void *ptr)
{
  BIND (device);
  CUDA_TRY (cudaHostUnregister (ptr));
  return CVCORE_OK;
}

static cvcore_status
cuda_stream_new (cvcore_device * device, bool urgent, void **handle)
{
  cudaStream_t stream;
  int least, greatest;

  BIND (device);
  /* ordinary streams get the least priority, which is CUDA's default */
  CUDA_TRY (cudaDeviceGetStreamPriorityRange (&least, &greatest));
  /* Non-blocking: no implicit ordering with the legacy default stream that
   * other libraries in the process may use. */
  CUDA_TRY (cudaStreamCreateWithPriority (&stream, cudaStreamNonBlocking,
          urgent ? greatest : least));
  *handle = stream;
  return CVCORE_OK;
}

static void
cuda_stream_free (cvcore_device * device, void *handle)
{
  if (cv_cuda_bind (device) == CVCORE_OK)
    cudaStreamDestroy ((cudaStream_t) handle);
}

static cvcore_status
cuda_stream_synchronize (cvcore_device * device, void *handle)
{
  BIND (device);
  CUDA_TRY (cudaStreamSynchronize ((cudaStream_t) handle));
  return CVCORE_OK;
}

static cvcore_status
cuda_event_new (cvcore_device * device, bool timing, bool blocking,
    void **handle)
{
  cudaEvent_t event;

  BIND (device);
  /* a blocking-sync event puts the waiting thread to sleep until the
   * device signals it, whatever the context's scheduling flags say */
  CUDA_TRY (cudaEventCreateWithFlags (&event,
          (timing ? cudaEventDefault : cudaEventDisableTiming) |
          (blocking ? cudaEventBlockingSync : 0)));
  *handle = event;
  return CVCORE_OK;
}

static void
cuda_event_free (cvcore_device * device, void *handle)
{
  if (cv_cuda_bind (device) == CVCORE_OK)
    cudaEventDestroy ((cudaEvent_t) handle);
}

static cvcore_status
cuda_event_record (cvcore_device * device, void *event, void *stream)
{
  BIND (device);
  CUDA_TRY (cudaEventRecord ((cudaEvent_t) event, (cudaStream_t) stream));
  return CVCORE_OK;
}

static cvcore_status
cuda_stream_wait_event (cvcore_device * device, void *stream, void *event)
{
  BIND (device);
  CUDA_TRY (cudaStreamWaitEvent ((cudaStream_t) stream, (cudaEvent_t) event,
          0));
  return CVCORE_OK;
}

static cvcore_status
cuda_event_synchronize (cvcore_device * device, void *event)
{
  BIND (device);
  CUDA_TRY (cudaEventSynchronize ((cudaEvent_t) event));
  return CVCORE_OK;
}

static cvcore_status
cuda_event_query (cvcore_device * device, void *event)
{
  cudaError_t err;

  BIND (device);
  err = cudaEventQuery ((cudaEvent_t) event);
  if (err == cudaErrorNotReady)
    return CVCORE_ERROR_NOT_READY;
  if (err != cudaSuccess)
    return cv_cuda_fail (err, "cudaEventQuery", __FILE__, __LINE__);
  return CVCORE_OK;
}

static cvcore_status
cuda_event_elapsed_ms (cvcore_device * device, void *start, void *end,
    float *ms)
{
  BIND (device);
  CUDA_TRY (cudaEventElapsedTime (ms, (cudaEvent_t) start, (cudaEvent_t) end));
  return CVCORE_OK;
}

static enum cudaMemcpyKind
memcpy_kind (cvcore_copy_kind kind)
{
  switch (kind) {
    case CVCORE_COPY_HOST_TO_DEVICE:
      return cudaMemcpyHostToDevice;
    case CVCORE_COPY_DEVICE_TO_HOST:
      return cudaMemcpyDeviceToHost;
    case CVCORE_COPY_DEVICE_TO_DEVICE:
      return cudaMemcpyDeviceToDevice;
    case CVCORE_COPY_HOST_TO_HOST:
      return cudaMemcpyHostToHost;
  }
  return cudaMemcpyDefault;
}

static cvcore_status
cuda_copy_2d_async (cvcore_device * device, void *stream, void *dst,
    size_t dst_pitch, const void *src, size_t src_pitch, size_t width_bytes,
    size_t height, cvcore_copy_kind kind)
{
  BIND (device);
  if (height == 1 || (dst_pitch == width_bytes && src_pitch == width_bytes)) {
    CUDA_TRY (cudaMemcpyAsync (dst, src, width_bytes * height,
            memcpy_kind (kind), (cudaStream_t) stream));
  } else {
    CUDA_TRY (cudaMemcpy2DAsync (dst, dst_pitch, src, src_pitch, width_bytes,
            height, memcpy_kind (kind), (cudaStream_t) stream));
  }
  return CVCORE_OK;
}

/* Contexts that were let reach a peer device (or could not be): peer
 * access belongs to the context, which devices opened apart share, and
 * asking twice is an error. */
#define MAX_PEER_GRANTS 256
static struct
{
  pthread_mutex_t lock;
  int n;
  struct
  {
    void *context;
    int peer;
  } tried[MAX_PEER_GRANTS];
} peer_grants = {.lock = PTHREAD_MUTEX_INITIALIZER };

/* Lets the device's context reach @peer's memory directly, once; where the
 * devices cannot, peer copies still work, staged by the driver. */
static cvcore_status
cuda_enable_peer_access (cvcore_device * device, int peer)
{
  int can = 0;

  if (peer == device->id)
    return CVCORE_OK;
  BIND (device);
  pthread_mutex_lock (&peer_grants.lock);
  for (int i = 0; i < peer_grants.n; i++) {
    if (peer_grants.tried[i].context == device->context
        && peer_grants.tried[i].peer == peer) {
      pthread_mutex_unlock (&peer_grants.lock);
      return CVCORE_OK;
    }
  }
  if (cudaDeviceCanAccessPeer (&can, device->id, peer) == cudaSuccess && can
      && cudaDeviceEnablePeerAccess (peer, 0) != cudaSuccess)
    cudaGetLastError ();        /* direct access refused: copies still work */
  if (peer_grants.n < MAX_PEER_GRANTS) {
    peer_grants.tried[peer_grants.n].context = device->context;
    peer_grants.tried[peer_grants.n].peer = peer;
    peer_grants.n++;
  }
  pthread_mutex_unlock (&peer_grants.lock);
  return CVCORE_OK;
}

static cvcore_status
cuda_copy_2d_peer_async (cvcore_device * device, void *stream, void *dst,
    size_t dst_pitch, int src_device_id, const void *src, size_t src_pitch,
    size_t width_bytes, size_t height)
{
  struct cudaMemcpy3DPeerParms copy = { 0 };

  BIND (device);
  copy.srcPtr.ptr = (void *) src;
  copy.srcPtr.pitch = src_pitch;
  copy.srcPtr.xsize = width_bytes;
  copy.srcPtr.ysize = height;
  copy.srcDevice = src_device_id;
  copy.dstPtr.ptr = dst;
  copy.dstPtr.pitch = dst_pitch;
  copy.dstPtr.xsize = width_bytes;
  copy.dstPtr.ysize = height;
  copy.dstDevice = device->id;
  copy.extent.width = width_bytes;
  copy.extent.height = height;
  copy.extent.depth = 1;
  CUDA_TRY (cudaMemcpy3DPeerAsync (&copy, (cudaStream_t) stream));
  return CVCORE_OK;
}

static cvcore_status
cuda_memset_2d_async (cvcore_device * device, void *stream, void *dst,
    size_t pitch, int value, size_t width_bytes, size_t height)
{
  BIND (device);
  CUDA_TRY (cudaMemset2DAsync (dst, pitch, value, width_bytes, height,
          (cudaStream_t) stream));
  return CVCORE_OK;
}

const cv_backend_ops cv_cuda_ops = {
  .device_count = cuda_device_count,
  .device_open = cuda_device_open,
  .device_close = cuda_device_close,
  .device_alloc = cuda_device_alloc,
  .device_free = cuda_device_free,
  .host_alloc = cuda_host_alloc,
  .host_free = cuda_host_free,
  .host_register = cuda_host_register,
  .host_unregister = cuda_host_unregister,
  .stream_new = cuda_stream_new,
  .stream_free = cuda_stream_free,
  .stream_synchronize = cuda_stream_synchronize,
  .event_new = cuda_event_new,
  .event_free = cuda_event_free,
  .event_record = cuda_event_record,
  .stream_wait_event = cuda_stream_wait_event,
  .event_synchronize = cuda_event_synchronize,
  .event_query = cuda_event_query,
  .event_elapsed_ms = cuda_event_elapsed_ms,
  .copy_2d_async = cuda_copy_2d_async,
  .copy_2d_peer_async = cuda_copy_2d_peer_async,
  .enable_peer_access = cuda_enable_peer_access,
  .memset_2d_async = cuda_memset_2d_async,
};

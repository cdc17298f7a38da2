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

/* Host CPU of the CUDA calls a filter makes per frame, with 1, 8 and 16
 * threads in one context, each on its own stream, as pipelines of one
 * process share their context: two kernel launches (a frame of two
 * planes), an event record, the queries, and a whole frame that then waits
 * for its work by napping on a plain event or asleep on a blocking-sync one
 * (cvcore_stream_finish's two ways).
 * Usage: cudavision-driver-calls [calls per thread] (default 20000) */
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <thread>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf (stderr, "%s: %s\n", #call, cudaGetErrorString (err_));          \
      exit (1);                                                                \
    }                                                                          \
  } while (0)

/* about a 1080p plane's worth of blocks that do almost nothing */
__global__ void
touch (int *flags)
{
  if (threadIdx.x == 0)
    flags[blockIdx.x] = 1;
}

enum Call
{
  LAUNCH_TWO,
  EVENT_RECORD,
  EVENT_QUERY,
  STREAM_QUERY,
  FRAME_NAPPING,
  FRAME_ASLEEP,
  N_CALLS
};

static const char *call_names[N_CALLS] = { "two kernel launches",
  "cudaEventRecord", "cudaEventQuery", "cudaStreamQuery",
  "frame, naps on a plain event", "frame, asleep on a blocking-sync event" };

static double
thread_cpu_us (void)
{
  timespec now;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &now);
  return now.tv_sec * 1e6 + now.tv_nsec * 1e-3;
}

static void
launch_frame (cudaStream_t stream, int *flags)
{
  touch<<<510, 256, 0, stream>>> (flags);
  touch<<<255, 256, 0, stream>>> (flags);
  CHECK (cudaGetLastError ());
}

/* Makes @calls calls of @call; *us: this thread's CPU per call. */
static void
measure (Call call, int calls, int device, double *us)
{
  const timespec nap = { 0, 20000 };
  cudaStream_t stream;
  cudaEvent_t plain, blocking;
  int *flags;

  CHECK (cudaSetDevice (device));
  CHECK (cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking));
  CHECK (cudaEventCreateWithFlags (&plain, cudaEventDisableTiming));
  CHECK (cudaEventCreateWithFlags (&blocking,
      cudaEventDisableTiming | cudaEventBlockingSync));
  CHECK (cudaMalloc (&flags, 1024 * sizeof (int)));
  CHECK (cudaEventRecord (plain, stream));
  CHECK (cudaStreamSynchronize (stream));

  const double start = thread_cpu_us ();
  for (int i = 0; i < calls; i++) {
    switch (call) {
      case LAUNCH_TWO:
        launch_frame (stream, flags);
        /* keep the queue short, as a pipeline's waits do */
        if (i % 64 == 63)
          CHECK (cudaStreamSynchronize (stream));
        break;
      case EVENT_RECORD:
        CHECK (cudaEventRecord (plain, stream));
        break;
      case EVENT_QUERY:
        (void) cudaEventQuery (plain);
        break;
      case STREAM_QUERY:
        (void) cudaStreamQuery (stream);
        break;
      case FRAME_NAPPING:
        launch_frame (stream, flags);
        CHECK (cudaEventRecord (plain, stream));
        do
          nanosleep (&nap, NULL);
        while (cudaEventQuery (plain) == cudaErrorNotReady);
        break;
      case FRAME_ASLEEP:
        launch_frame (stream, flags);
        CHECK (cudaEventRecord (blocking, stream));
        CHECK (cudaEventSynchronize (blocking));
        break;
      default:
        abort ();
    }
  }
  *us = (thread_cpu_us () - start) / calls;

  CHECK (cudaStreamSynchronize (stream));
  CHECK (cudaFree (flags));
  CHECK (cudaEventDestroy (blocking));
  CHECK (cudaEventDestroy (plain));
  CHECK (cudaStreamDestroy (stream));
}

int
main (int argc, char **argv)
{
  const int calls = argc > 1 ? atoi (argv[1]) : 20000;
  const int thread_counts[] = { 1, 8, 16 };
  cudaDeviceProp prop;

  if (calls < 10) {
    fprintf (stderr, "usage: %s [calls per thread, at least 10]\n", argv[0]);
    return 2;
  }
  CHECK (cudaSetDevice (0));
  CHECK (cudaFree (NULL));
  CHECK (cudaGetDeviceProperties (&prop, 0));
  printf ("%s: host CPU per call, us (mean of the threads)\n\n", prop.name);
  printf ("| call | 1 thread | 8 threads | 16 threads |\n|---|---|---|---|\n");
  for (int c = 0; c < N_CALLS; c++) {
    /* a frame waits for its work: fewer of them */
    const int n = c >= FRAME_NAPPING ? calls / 10 : calls;

    printf ("| %s |", call_names[c]);
    for (int threads : thread_counts) {
      std::vector<double> us (threads);
      std::vector<std::thread> workers;
      double sum = 0.0;

      for (int t = 0; t < threads; t++)
        workers.emplace_back (measure, (Call) c, n, 0, &us[t]);
      for (auto &worker : workers)
        worker.join ();
      for (double u : us)
        sum += u;
      printf (" %.2f |", sum / threads);
    }
    printf ("\n");
  }
  return 0;
}

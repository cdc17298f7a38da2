/* What the CPU reference and the CUDA kernels of every operation share:
 * functions marked CV_HD compile for both, so that both backends run the
 * same arithmetic. Each operation's X-common.h builds on this. */
#ifndef CV_HOSTDEVICE_H
#define CV_HOSTDEVICE_H

#ifdef __CUDACC__
#define CV_HD __host__ __device__ __forceinline__
#else
#define CV_HD static inline
#endif

#define CV_PI 3.14159265358979323846

#endif /* CV_HOSTDEVICE_H */

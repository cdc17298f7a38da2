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

/* The foveation's parts that its dispatch (foveate.c, foveate-stack.c),
 * its plan (foveate-plan.c, the model's maths too) and its backends share
 * on the host: the backend entry points of the direct rendering
 * (foveate-cpu.c, foveate.cu) and of the stack (foveate-stack-cpu.c,
 * foveate-stack.cu). */
#ifndef FOVEATE_PRIVATE_H
#define FOVEATE_PRIVATE_H

#include "foveate-stack-common.h"
#include "cvcore-private.h"

CVCORE_BEGIN_DECLS

/* taps of a stack pass, at most: the widest level's 2 x 12 + 1 */
#define CV_FOVEATE_STACK_MAX_TAPS 32
/* @count weights of a Gaussian of @sigma, weight j at j - @centre,
 * normalised to sum 1: the bank's, the stack's and the reference's. */
void cv_foveate_gaussian (double sigma, int count, double centre,
    double *weights);

/* Fills @plan's blur stack for @model, or @map when not NULL; the plan's
 * frame and fragment grid are laid out already. */
cvcore_status cv_foveate_stack_plan (cvcore_foveate_plan * plan,
    const cvcore_foveate_model * model, const cvcore_foveate_map * map);

/* The passes that make @plan's stack from @src in @memory (the stack's
 * pixels times src->channels samples): the octaves' bases in order, then the
 * levels, which only need the bases. Returns how many, *@n_bases of them
 * bases. */
int cv_foveate_stack_passes (const cvcore_foveate_plan * plan,
    const cvcore_image * src, uint16_t * memory,
    cv_foveate_stack_pass passes[CVCORE_FOVEATE_MAX_OCTAVES +
        CVCORE_FOVEATE_MAX_LEVELS], int *n_bases);

/* Queues the stack rendering of @src into @dst, on the CPU or CUDA. */
cvcore_status cv_foveate_stack_render (cvcore_stream * stream,
    const cvcore_image * src, const cvcore_image * dst, unsigned mask,
    const cvcore_foveate_plan * plan);

cvcore_status cv_foveate_cpu (const cvcore_image * src,
    const cvcore_image * dst, unsigned mask, const cvcore_foveate_plan * plan);
cvcore_status cv_foveate_cuda (cvcore_stream * stream,
    const cvcore_image * src, const cvcore_image * dst, unsigned mask,
    const cvcore_foveate_plan * plan);

/* A frame's luma plane and its interleaved chroma (src[0], src[1]), as
 * cv_foveate_cuda () of each: in one launch where the tensor-core kernel
 * takes both, else one a plane. */
cvcore_status cv_foveate_cuda_luma_chroma (cvcore_stream * stream,
    const cvcore_image * src, const cvcore_image * dst,
    const unsigned *channel_masks, const cvcore_foveate_plan * const *plans);

/* @memory: the stack's pixels times src->channels samples */
cvcore_status cv_foveate_stack_cpu (const cvcore_image * src,
    const cvcore_image * dst, unsigned mask, const cvcore_foveate_plan * plan,
    uint16_t * memory);
cvcore_status cv_foveate_stack_cuda (cvcore_stream * stream,
    const cvcore_image * src, const cvcore_image * dst, unsigned mask,
    const cvcore_foveate_plan * plan, uint16_t * memory);

CVCORE_END_DECLS

#endif /* FOVEATE_PRIVATE_H */

/* The foveation's parts that the dispatch and the backends share, on the
 * host. */
#ifndef FOVEATE_PRIVATE_H
#define FOVEATE_PRIVATE_H

#include "foveate-stack-common.h"
#include "cvcore-private.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fills @plan's blur stack for @model, or @map when not NULL; the plan's
 * frame and fragment grid are laid out already. */
cvcore_status cv_fov_stack_plan (cvcore_fov_plan * plan,
    const cvcore_fov_model * model, const cvcore_fov_map * map);

/* The passes that make @plan's stack from @src in @memory (the stack's
 * pixels times src->channels samples): the octaves' bases in order, then the
 * levels, which only need the bases. Returns how many, *@n_bases of them
 * bases. */
int cv_fov_stack_passes (const cvcore_fov_plan * plan,
    const cvcore_image * src, uint16_t * memory,
    cv_fov_stack_pass passes[CVCORE_FOV_MAX_OCTAVES + CVCORE_FOV_MAX_LEVELS],
    int *n_bases);

/* Queues the stack rendering of @src into @dst, on the CPU or CUDA. */
cvcore_status cv_fov_stack_render (cvcore_stream * stream,
    const cvcore_image * src, const cvcore_image * dst, unsigned mask,
    const cvcore_fov_plan * plan);

#ifdef CVCORE_HAVE_CUDA
cvcore_status cvcore_cuda_foveate_stack (cvcore_stream * stream,
    const cvcore_image * src, const cvcore_image * dst, unsigned mask,
    const cvcore_fov_plan * plan, uint16_t * memory);
#endif

#ifdef __cplusplus
}
#endif

#endif /* FOVEATE_PRIVATE_H */

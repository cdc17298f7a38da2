/* The motion-field fit: the CPU reference, in the arithmetic the kernels
 * share (clt-fit-common.h). */
#include "clt-fit-common.h"
#include "clt-private.h"

cvcore_status
cv_clt_fit_cpu (const float *shapes, const cvcore_clt_match * matches,
    int width, int height, int radius, cvcore_clt_match * fitted)
{
  const int tiles = cvcore_clt_tiles (width) * cvcore_clt_tiles (height);

  for (int t = 0; t < tiles; t++)
    fitted[t] = cv_clt_fit_match (matches, shapes, width, height, radius, t);
  return CVCORE_OK;
}

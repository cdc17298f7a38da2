/* The motion-field fit: the CPU reference, in the arithmetic the kernels
 * share (clt-fit-common.h). */
#include "clt-fit-common.h"
#include "clt-private.h"

cvcore_status
cv_clt_fit_cpu (const float *shapes, const cvcore_clt_match * matches,
    int width, int height, int radius, cvcore_clt_match * fitted)
{
  const int tiles_x = cvcore_clt_tiles (width);
  const int tiles_y = cvcore_clt_tiles (height);

  for (int t = 0; t < tiles_x * tiles_y; t++) {
    float d[2];

    cv_clt_fit_tile (matches, shapes, width, height, t % tiles_x,
        t / tiles_x, radius, d);
    fitted[t].dx = d[0];
    fitted[t].dy = d[1];
    fitted[t].confidence = matches[t].confidence *
        cv_clt_shape_trust (&shapes[3 * t]);
  }
  return CVCORE_OK;
}

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

/* cvclt: the complex lapped transform (CLT) of image tiles, processing in
 * its domain and the inverse, the compute behind cudaclt.
 *
 * Tiles are 16x16 pixels at a stride of 8, so every pixel lies in four
 * tiles. Tile (tx, ty) covers pixels x = 8 tx - 8 .. 8 tx + 7 (likewise
 * y): the grid starts half a tile before the frame and ends after it, and
 * samples outside the frame are its mirror image, so the edges
 * reconstruct like the interior.
 *
 * Along one axis a tile's 16 samples u (n), weighted by the half-sine
 * window w (n) = sin (pi (n + 1/2) / 16), give 8 coefficients of each of
 *
 *   C_k = sqrt (2/8) sum_n w (n) u (n) cos (omega_k (n + 4.5))   (MDCT)
 *   S_k = sqrt (2/8) sum_n w (n) u (n) sin (omega_k (n + 4.5))   (MDST)
 *
 * with omega_k = pi (k + 1/2) / 8, computed by folding the 16 windowed
 * samples to 8 and an orthonormal DCT-IV (DST-IV). C + i S is the
 * windowed block's spectrum at the 8 positive odd frequencies, so 2-D
 * tiles have four layers, one per pair of horizontal and vertical kinds:
 * CC, SC, CS, SS (horizontal first), 4 x 8 x 8 coefficients per tile. The
 * half-sine window meets the Princen-Bradley condition w (n)^2 +
 * w (n + 8)^2 = 1, so each layer alone inverts with overlap-add; the
 * inverse here averages all four, which cancels the time-domain aliasing
 * inside each tile and keeps processing free of it.
 *
 * Processing treats a tile's four layers at frequency (k, l) as one
 * tessarine T = CC + i SC + j CS + ij SS (i, j commuting imaginary units of
 * the horizontal and vertical axes) and multiplies it by a filter's
 * response H = sum_m h (m) e^{i omega_k mx} e^{j omega_l my}:
 *
 *  - shift: content moves by (dx, dy) pixels. The integer part moves the
 *    tiles' sampling position; the fraction f (|f| <= 1/2) moves the
 *    forward window to w (n + f) and rotates the phase by e^{i omega f}.
 *    No resampling in space.
 *  - lowpass: the Gaussian's response exp (-sigma^2 (wx^2 + wy^2) / 2),
 *    divided by its value at (omega_0, omega_0). A flat region's windowed
 *    tile, w (n) w (m) c, has no other frequencies (w (n) = cos (omega_0
 *    (n - 7.5))), so flat regions keep their level; otherwise the filter
 *    would blur the window with the image.
 *  - deconvolve: a kernel set (below), one 4 x 8 x 8 response per grid
 *    node, bilinearly interpolated for the tiles between nodes.
 *
 * Kernel sets are files: a 40-byte little-endian header, then the data.
 *
 *   offset 0   "CVCLTKS1"   magic
 *   offset 8   uint32       width, the frame the set was made for
 *   offset 12  uint32       height
 *   offset 16  uint32       stride, tiles from one node to the next
 *   offset 20  uint32       nodes_x = ceil ((tiles_x - 1) / stride) + 1
 *   offset 24  uint32       nodes_y, likewise
 *   offset 28  uint32       channels, 1 (every channel) or 3 (R, G, B)
 *   offset 32  uint32[2]    zero
 *   offset 40  float32      [channels][nodes_y][nodes_x][4][8][8]
 *
 * with tiles_x = ceil (width / 8) + 1; node (nx, ny) sits on tile
 * (nx stride, ny stride), the last at or beyond the last tile. Each
 * response is
 * indexed [layer][l][k] (vertical frequency l, horizontal k), layers in
 * the order above.
 */
#ifndef CVCLT_H
#define CVCLT_H

#include "cvcore.h"

CVCORE_BEGIN_DECLS

#define CVCORE_CLT_TILE 16
#define CVCORE_CLT_STRIDE 8
/* The centre of tile @t's window along an axis, where its match measures:
 * the window covers pixels CVCORE_CLT_STRIDE (t - 1) to CVCORE_CLT_STRIDE
 * (t + 1) - 1, each standing for the point at its centre, so the window's
 * centre lies half a pixel before CVCORE_CLT_STRIDE t.
 * Since: 0.1 */
static inline double
cvcore_clt_tile_centre (int t)
{
  return (double) CVCORE_CLT_STRIDE *t - 0.5;
}

/* Coefficients per tile: 4 layers of 8 x 8. */
#define CVCORE_CLT_COEFFICIENTS 256
#define CVCORE_CLT_MAX_SHIFT 1024.0
#define CVCORE_CLT_MAX_SIGMA 64.0
typedef enum
{
  CVCORE_CLT_NONE,
  CVCORE_CLT_SHIFT,
  CVCORE_CLT_LOWPASS,
  CVCORE_CLT_DECONVOLVE,
} cvcore_clt_operation;

/* Tiles along an axis of @pixels.
 * Since: 0.1 */
int cvcore_clt_tiles (int pixels);

/* --- kernel sets (host memory) ------------------------------------------ */

typedef struct
{
  int width, height;
  int stride;
  int nodes_x, nodes_y;
  int channels;
  float *data;                  /* [channels][nodes_y][nodes_x][4][8][8] */
} cvcore_clt_kernel_set;

/* A set for frames of @width x @height, of identity responses.
 * Since: 0.1 */
cvcore_status cvcore_clt_kernel_set_new (int width, int height, int stride,
    int channels, cvcore_clt_kernel_set ** set);
void cvcore_clt_kernel_set_free (cvcore_clt_kernel_set * set);
/* Reads and validates a file; the message of a failure says what is
 * wrong with it.
 * Since: 0.1 */
cvcore_status cvcore_clt_kernel_set_load (const char *path,
    cvcore_clt_kernel_set ** set);
cvcore_status cvcore_clt_kernel_set_save (const cvcore_clt_kernel_set * set,
    const char *path);
/* The 4 x 8 x 8 response of node (@nx, @ny) of @channel.
 * Since: 0.1 */
float *cvcore_clt_kernel_set_node (cvcore_clt_kernel_set * set, int channel,
    int nx, int ny);
/* Fills @response (4 x 8 x 8) with the regularised inverse of the
 * point-spread function @psf (@size x @size, centred on (@size - 1) / 2,
 * any sum): conj (P) / (|P|^2 + @noise) at each CLT frequency, where P is
 * the PSF's response divided by its magnitude at omega_0 (as the lowpass,
 * so flat regions keep their level); @noise = 0 inverts exactly. With
 * @invert false the response is P itself (the blur).
 * Since: 0.1 */
void cvcore_clt_response_from_psf (const double *psf, int size, double noise,
    bool invert, float *response);

/* --- processing --------------------------------------------------------- */

/* Mosaics: each colour is processed as a plane in one of two ways.
 *
 *  - INTERPOLATE: filled in first, in space (bilinear: a missing sample
 *    is the mean of the nearest two or four sites of its colour, rounded
 *    to the sample's precision), then transformed like any plane.
 *  - SPARSE: transformed as it is, its sites and zeros between them (the
 *    frame's edges reflected about the end samples, so the sites stay on
 *    their lattice). A lattice of every other sample along an axis makes
 *    that axis's MDST the MDCT reversed in frequency, S_k = +-C_{7-k}: red
 *    and blue need only their CC layer, green (two lattices) CC and CS;
 *    CUDA computes those 4 of the 12 colour layers and derives the rest.
 *    The colours are then filled in in the transform domain, by the
 *    response d (k) d (l) (red, blue) or (d (k) + d (l)) / 2 (green), d (k)
 *    = 1 + cos (pi k / 7), the bilinear interpolator's shape on the CLT's
 *    frequency grid: a colour's aliases lie at the mirrored frequencies
 *    7 - k, and d (k) + d (7 - k) = 2 gives each the gain that undoes its
 *    density, so flat fields stay flat. The operation follows.
 * Since: 0.1
 */
typedef enum
{
  CVCORE_CLT_MOSAIC_INTERPOLATE,
  CVCORE_CLT_MOSAIC_SPARSE,
} cvcore_clt_mosaic_method;

/* What a mosaic gives into an image of one channel.
 * - NONE: the mosaic, each site its own colour.
 * - LUMA: at every pixel, the processed colours' luma (ITU-R BT.601's
 *   weights: 0.299 red, 0.587 green, 0.114 blue), as a grey picture.
 * - GREEN: at every pixel, the processed green, which is sampled twice as
 *   densely as red and blue; red and blue are not processed.
 * Sparse mosaics sum the colours in the transform domain after the
 * operation: one inverse transform a tile instead of three.
 * Since: 0.1 */
typedef enum
{
  CVCORE_CLT_GREY_NONE,
  CVCORE_CLT_GREY_LUMA,
  CVCORE_CLT_GREY_GREEN,
} cvcore_clt_grey;

typedef struct
{
  cvcore_clt_operation operation;
  double shift_x, shift_y;      /* pixels; positive moves content right, down */
  double sigma;                 /* lowpass, pixels */
  /* Channels of an interleaved image that are processed (bit c for
   * channel c); the others are copied. */
  unsigned channel_mask;
  /* Kernel-set channel of each image channel, for sets of 3 channels. */
  int kernel_channel[4];
  /* Non-zero: @src is a Bayer mosaic (one sample per pixel) whose 2x2
   * cell holds, row by row, the colours (0 red, 1 green, 2 blue) in bits
   * 2i, 2i + 1 (CVCORE_CLT_BAYER). Each colour is processed as a plane (filled in as
   * @mosaic_method says; kernel channel = colour, for sets of 3) and
   * written back to the mosaic (@dst of one channel, each site its own
   * colour) or to RGBA (@dst of 4 channels, opaque). channel_mask and
   * kernel_channel are not used. */
  unsigned bayer;
  /* How a mosaic's colours are filled in (see above). */
  cvcore_clt_mosaic_method mosaic_method;
  /* A mosaic into @dst of one channel: the mosaic, or a grey picture of
   * its colours (see above). */
  cvcore_clt_grey grey;
} cvcore_clt_params;

/* cvcore_clt_params.bayer of a cell whose sites, row by row, hold the
 * colours @a, @b, @c, @d (0 red, 1 green, 2 blue).
 * Since: 0.2 */
#define CVCORE_CLT_BAYER(a, b, c, d) \
  ((unsigned) (a) | (unsigned) (b) << 2 | (unsigned) (c) << 4 \
      | (unsigned) (d) << 6)
/* The most common cell, a camera's RGGB.
 * Since: 0.2 */
#define CVCORE_CLT_BAYER_RGGB CVCORE_CLT_BAYER (0, 1, 1, 2)

/* Defaults: none, no shift, sigma 1, channel 0 processed, sparse
 * mosaics, a mosaic back from a mosaic.
 * Since: 0.1 */
void cvcore_clt_params_init (cvcore_clt_params * params);

typedef struct cvcore_clt_scratch cvcore_clt_scratch;

/* Scratch for frames of @width x @height with up to @channels processed
 * channels; with @mosaics (and 3 channels) it also takes Bayer mosaics
 * (params.bayer). CUDA adds room for a mosaic's interpolated colours at
 * the first frame that interpolates them (CVCORE_CLT_MOSAIC_INTERPOLATE).
 * Since: 0.1 */
cvcore_status cvcore_clt_scratch_new (cvcore_device * device, int width,
    int height, int channels, bool mosaics, cvcore_clt_scratch ** clt);
void cvcore_clt_scratch_free (cvcore_clt_scratch * clt);

/* Copies @set (made for this frame size) to the device, queued on
 * @stream; a later deconvolve uses it. The set may be freed on return.
 * Since: 0.1 */
cvcore_status cvcore_clt_set_kernels (cvcore_clt_scratch * clt,
    cvcore_stream * stream, const cvcore_clt_kernel_set * set);

/* Queues forward transform, operation and inverse of the processed
 * channels of @src (8 or 16-bit, 1 to 4 interleaved channels) into @dst
 * (same format and size; from a mosaic also RGBA, or a grey picture, of
 * the same sample size) on @stream.
 * Since: 0.1 */
cvcore_status cvcore_clt (cvcore_stream * stream, cvcore_clt_scratch * clt,
    const cvcore_image * src, const cvcore_image * dst,
    const cvcore_clt_params * params);

/* Queues the forward transform of channel @channel of @src into
 * @coefficients: device memory of tiles_y x tiles_x x 256 floats, each
 * tile's [layer][l][k] in sample units. Tiles sample the frame @offset_x,
 * @offset_y pixels left of (above) their place, as a whole-pixel shift
 * does.
 * Since: 0.1 */
cvcore_status cvcore_clt_forward (cvcore_stream * stream,
    const cvcore_image * src, int channel, int offset_x, int offset_y,
    float *coefficients);

/* --- phase correlation -------------------------------------------------- */

/* Per tile: where its content went from the first frame to the second
 * (pixels, right and down positive), and how strong the match is (the
 * peak of the normalised correlation: 1 for a perfect translation without
 * fat zero, near 0 for tiles without texture).
 * Since: 0.1 */
typedef struct
{
  float dx, dy, confidence;
} cvcore_clt_match;

#define CVCORE_CLT_MAX_SEARCH 7
#define CVCORE_CLT_MAX_REFINEMENTS 4

typedef struct
{
  /* Added to the cross-power spectrum's magnitude before it divides it,
   * in units of full scale squared: keeps weak, noisy frequencies from
   * counting as much as strong ones. */
  double fat_zero;
  /* Sigma (pixels) of a Gaussian blur of the correlation surface, a
   * weighting of its frequencies: the highest, where the frames alias
   * and differ most, count less. */
  double lowpass;
  int search_radius;            /* whole pixels searched each way, 1..7 */
  /* Passes after the first that transform the second frame's tiles again,
   * moved back by the motion found so far (see below). */
  int refinements;
  /* A tile takes no more refinements once a pass has moved it by less
   * than this, in pixels each way (a rig's: along its longest baseline),
   * 0 to 1: the next would move it by a fraction of that. 0: every tile
   * takes every refinement. Since: 0.2 */
  double converge;
  /* The motion expected before looking (stereo: the disparity range's
   * centre); the search is around it. */
  double initial_x, initial_y;
  /* The matches hold each tile's expected motion on entry (as
   * cvcore_clt_predict writes it): the search is around that, and
   * initial_x, initial_y are not used. */
  bool guided;
  /* A tile whose match puts its centre more than half a tile beyond the
   * frame's edge gets confidence 0: its content left the frame, and what
   * matched is the transform's mirror of the edge. This keeps its
   * confidence instead (the pyramid's coarser levels, whose matches only
   * predict, and near whose edges a half-tile is a large motion). */
  bool keep_left_frame;
  /* A tile whose match moves it further up or down than this (pixels)
   * gets confidence 0: rectified stereo views put a point on the same row
   * in both, and such a match is of something else, mostly content the
   * other view hides. Negative (the default): any vertical motion. The
   * pyramid applies it at its finest level only, as the coarser ones
   * only predict. */
  double max_dy;
  double full_scale;            /* sample value of full scale (255, 65535) */
  /* Radius in tiles of the neighbourhood whose matches are fitted at
   * the pyramid's finest level (cvcore_clt_fit); 0: each tile alone. */
  int fit_radius;
} cvcore_clt_corr_params;

#define CVCORE_CLT_MAX_FIT_RADIUS 3
/* Floats per tile in cvcore_clt_shapes' output. */
#define CVCORE_CLT_SHAPE_FLOATS 5

/* Defaults: fat zero 0.01, lowpass 1, radius 7, 2 refinements, no
 * initial motion, full scale 255, fit radius 3, any vertical motion.
 * Since: 0.1 */
void cvcore_clt_corr_params_init (cvcore_clt_corr_params * params);

/* Queues the phase correlation of every tile of a first frame, given as
 * its forward transform @a (cvcore_clt_forward, device memory), with the
 * same tile of channel @channel of the second frame @b, into @matches
 * (device memory, tiles_y x tiles_x).
 *
 * Each tile's spectra at the CLT frequencies (the tessarine's two complex
 * components, at (wx, wy) and (wx, -wy)) give the cross-power spectrum
 * R = A conj (B) / (|A conj (B)| + fat_zero). Its correlation surface
 * c (d) = 1/128 sum Re (R e^{i w.d}) is searched at whole pixels within
 * the radius, then refined by Newton steps on c itself, which is known
 * in closed form between the pixels.
 *
 * Both tiles carry the same window, which pulls the peak towards zero
 * motion in proportion to the motion. So each refinement transforms the
 * second frame's tile again, sampled where its content came from (whole
 * pixels by position, the fraction by window and phase, as the shift
 * operation does): the windows then cover the same content and the
 * residual motion, found within one pixel, is unbiased.
 * Since: 0.1 */
cvcore_status cvcore_clt_correlate (cvcore_stream * stream, const float *a,
    const cvcore_image * b, int channel,
    const cvcore_clt_corr_params * params, cvcore_clt_match * matches);

/* --- coarse to fine ----------------------------------------------------- */

/* A tile sees motions of a few pixels without bias (within the search
 * radius, refined): beyond that its windowed content differs too much
 * between the frames. Larger motions are found on frames reduced by
 * halves, whose matches, doubled, tell the next finer level where to
 * look, down to the frame itself. */
#define CVCORE_CLT_MAX_LEVELS 5
/* Reduction stops before a side would fall below this many pixels. */
#define CVCORE_CLT_MIN_LEVEL_SIDE 32

/* Queues the half-size reduction of channel @channel of @src into @dst
 * (one channel of @src's sample, (width + 1) / 2 x (height + 1) / 2):
 * sample (x, y) is the rounded sum of samples 2 x - 1 .. 2 x + 2 (and
 * likewise in y, clamped to the frame) weighted by the binomial
 * [1 3 3 1] / 8 along each axis.
 * Since: 0.1 */
cvcore_status cvcore_clt_reduce (cvcore_stream * stream,
    const cvcore_image * src, int channel, const cvcore_image * dst);

/* Queues, into @matches (device memory, the tiles of a @width x @height
 * frame), each tile's expected motion from @coarse (the matches of the
 * same frames reduced once, cvcore_clt_reduce): twice the mean of the
 * coarse tiles around the tile's centre, weighted by bilinear distance
 * and confidence, so that a coarse tile that matched nothing counts
 * little. Confidences are set to 0.
 * Since: 0.1 */
cvcore_status cvcore_clt_predict (cvcore_stream * stream,
    const cvcore_clt_match * coarse, int width, int height,
    cvcore_clt_match * matches);

/* Queues each tile's texture shape, from channel @channel of @src, into
 * @shapes (device memory, CVCORE_CLT_SHAPE_FLOATS per tile: xx, yy, xy,
 * cx, cy): the gradient structure tensor of the tile's pixels under its
 * squared sine window (central differences, the frame mirrored at its
 * edges), divided by its trace, and the centre of that gradient energy,
 * in strides from the tile's centre; all 0 for a flat tile. The
 * eigenvalues say how elongated the texture is: near 0 for an edge or
 * stripes.
 * Since: 0.1 */
cvcore_status cvcore_clt_shapes (cvcore_stream * stream,
    const cvcore_image * src, int channel, float *shapes);

/* Queues, into @fitted (device memory, the tiles of a @width x @height
 * frame), each tile's match refitted from the matches @matches of the
 * tiles within @radius (1..CVCORE_CLT_MAX_FIT_RADIUS) around it, given
 * the first frame's tile shapes @shapes (cvcore_clt_shapes).
 *
 * A tile's phase correlation sees the motion across its edges and little
 * of it along them (the aperture problem: a tile of stripes matches
 * anywhere along them); its correlation peak is then a ridge, as high as
 * a peak. And where the motion varies within a tile, the tile measures it
 * where its texture lies rather than at its centre. So:
 *  - a tile's confidence is scaled by min (1, elongation / 0.12), its
 *    elongation being the smaller over the larger eigenvalue of its
 *    shape;
 *  - its motion becomes the value at its centre of the affine motion that
 *    best explains the matches around it whose scaled confidence is 0.05
 *    or more, and whose window lies inside the frame where it is and
 *    where it matched, each taken as the motion at the centre of its
 *    tile's gradient energy. Each counts by that confidence, by a
 *    Gaussian of its distance (sigma 2.5 tiles) and by its shape (plus
 *    0.02 of the identity): fully across its edges, little along them.
 *    Two more passes make a match that misses the fit by more than half a
 *    pixel count less, so that matches beyond a motion boundary do not
 *    pull. A tile without such neighbours keeps its motion;
 *  - a tile whose fitted motion takes its centre more than half a tile
 *    beyond the frame fades out over a pixel: its content left the frame.
 * Since: 0.1 */
cvcore_status cvcore_clt_fit (cvcore_stream * stream, const float *shapes,
    const cvcore_clt_match * matches, int width, int height, int radius,
    cvcore_clt_match * fitted);

/* Two frames' pyramids: per frame, the reduced luminance of each level
 * and every level's forward transform, in device memory.
 * Since: 0.1 */
typedef struct cvcore_clt_pyramid cvcore_clt_pyramid;

/* Room for frames of @width x @height with up to @levels reductions
 * (0: the frame alone), fewer where a side would fall below
 * CVCORE_CLT_MIN_LEVEL_SIDE.
 * Since: 0.1 */
cvcore_status cvcore_clt_pyramid_new (cvcore_device * device, int width,
    int height, int levels, cvcore_clt_pyramid ** pyramid);
void cvcore_clt_pyramid_free (cvcore_clt_pyramid * pyramid);
/* The reductions there is room for.
 * Since: 0.1 */
int cvcore_clt_pyramid_levels (const cvcore_clt_pyramid * pyramid);
/* Level 0's forward transform of frame @slot (as cvcore_clt_forward).
 * Since: 0.1 */
float *cvcore_clt_pyramid_coefficients (cvcore_clt_pyramid * pyramid, int slot);

/* Queues the reductions of channel @channel of @src, the forward
 * transform of every level and the tiles' shapes (cvcore_clt_shapes) into
 * frame @slot (0 or 1).
 * Since: 0.1 */
cvcore_status cvcore_clt_pyramid_build (cvcore_stream * stream,
    cvcore_clt_pyramid * pyramid, int slot, const cvcore_image * src,
    int channel);

/* Queues the phase correlation of frame @from with frame @to (whose level
 * 0 is channel @channel of @src, both built), coarsest level first: that
 * level searches around @params' initial motion scaled to it, and each
 * level's matches predict the next finer one's (cvcore_clt_predict).
 * Level 0's matches go to @matches (device memory, tiles of @src),
 * fitted (cvcore_clt_fit) where @params' fit_radius is not 0.
 * Since: 0.1 */
cvcore_status cvcore_clt_pyramid_correlate (cvcore_stream * stream,
    cvcore_clt_pyramid * pyramid, int from, int to, const cvcore_image * src,
    int channel, const cvcore_clt_corr_params * params,
    cvcore_clt_match * matches);

/* cvcore_clt_pyramid_build() of @src into frame @to, then
 * cvcore_clt_pyramid_correlate() of frame @from with it: what a tracker
 * does per frame, sooner. The matching needs only the new frame's
 * reductions; on CUDA its transforms, which only a later call's matching
 * reads, run beside the matching on a stream of the pyramid's own. All of
 * it is behind @stream's later work.
 * Since: 0.1 */
cvcore_status cvcore_clt_pyramid_build_and_correlate (cvcore_stream * stream,
    cvcore_clt_pyramid * pyramid, int from, int to, const cvcore_image * src,
    int channel, const cvcore_clt_corr_params * params,
    cvcore_clt_match * matches);

/* Queues drawing of @matches (device memory, as cvcore_clt_correlate
 * writes them for frames of @dst's size) onto @dst: from each tile's
 * centre a line @scale times its motion long, in @colour (one sample value
 * per channel), for tiles of at least @min_confidence.
 * Since: 0.1 */
cvcore_status cvcore_clt_draw_matches (cvcore_stream * stream,
    const cvcore_image * dst, const cvcore_clt_match * matches, double scale,
    double min_confidence, const unsigned colour[4]);

/* --- rigs of several cameras -------------------------------------------- */

#define CVCORE_CLT_MAX_VIEWS 8
#define CVCORE_CLT_RIG_MAX_PAIRS \
  (CVCORE_CLT_MAX_VIEWS * (CVCORE_CLT_MAX_VIEWS - 1) / 2)

/* A rig of rectified cameras (parallel axes, one focal length, frames of
 * one size): each camera's centre in baseline units, x right and y down.
 * A point at disparity D (pixels per unit baseline) that lies at p in
 * view 0 lies at p - D (c_v - c_0) in view v: for a stereo pair with the
 * right camera at (1, 0), D is the stereo disparity.
 * Since: 0.1 */
typedef struct
{
  int views;                    /* 2..CVCORE_CLT_MAX_VIEWS */
  double x[CVCORE_CLT_MAX_VIEWS], y[CVCORE_CLT_MAX_VIEWS];
  /* the pairs correlated, each two views' indices, first the lower; 0
   * pairs: every pair */
  int pairs;
  unsigned char pair[CVCORE_CLT_RIG_MAX_PAIRS][2];
} cvcore_clt_rig;

/* Side of a tile's combined 2-D correlation surface (see below). */
#define CVCORE_CLT_RIG_SURFACE 15

/* Number of pairs of views that @rig correlates.
 * Since: 0.1 */
int cvcore_clt_rig_pairs (const cvcore_clt_rig * rig);
/* The longest baseline among the pairs that @rig correlates: the unit of
 * its search (cvcore_clt_rig_correlate), 0 for an invalid rig.
 * Since: 0.1 */
double cvcore_clt_rig_longest (const cvcore_clt_rig * rig);

/* Queues, per tile of view 0, the disparity D into @matches (device
 * memory, tiles of the views' size): dx is D, dy is 0, and the confidence
 * is the combined correlation's peak (1 for a perfect match without fat
 * zero).
 *
 * Each pass transforms every view's tile where its content lies at the
 * disparity found so far (view 0's in place), and forms every pair's (or
 * the rig's chosen pairs') cross-power spectrum as cvcore_clt_correlate does. A residual disparity
 * d moves pair (i, j)'s content by -d (c_j - c_i), so each pair's
 * correlation surface, read along its own baseline and scaled by its
 * length, is a function of d alone: the pairs' surfaces are summed into
 * one before its peak is sought, at steps of half a pixel of the longest
 * baseline within @params' search radius (pixels at the longest baseline;
 * 1 in the refinements), then by Newton steps. A texture that repeats
 * along one baseline does not repeat along the others, so its false
 * peaks do not add up.
 *
 * Of @params: fat_zero, lowpass, search_radius, refinements, full_scale,
 * initial_x (the disparity searched around), guided (the matches hold each
 * tile's expected disparity in dx on entry) and keep_left_frame (a tile
 * whose content lies beyond the frame in any view otherwise gets
 * confidence 0).
 *
 * With @surfaces (device memory, CVCORE_CLT_RIG_SURFACE^2 floats per
 * tile, or NULL) each tile's combined surface also goes out in 2-D, as
 * the seed's tile processor hands it to a neural network: every pair's
 * surface turned and scaled into the rig's frame, where u runs along each
 * pair's baseline in units of disparity and v across it (its baseline
 * turned a quarter clockwise, same units), and summed. Row j, column i
 * holds u = (i - 7) s from the disparity found, v = (j - 7) s, s being
 * the search's step (half a pixel along the longest baseline); the centre
 * is the peak, the confidence before any check of the frame's edge.
 * Since: 0.1 */
cvcore_status cvcore_clt_rig_correlate (cvcore_stream * stream,
    const cvcore_image * views, int channel, const cvcore_clt_rig * rig,
    const cvcore_clt_corr_params * params, cvcore_clt_match * matches,
    float *surfaces);

/* The reduced views of a rig for coarse to fine, in device memory.
 * Since: 0.1 */
typedef struct cvcore_clt_rig_pyramid cvcore_clt_rig_pyramid;

/* Room for @views frames of @width x @height with up to @levels
 * reductions, as cvcore_clt_pyramid_new.
 * Since: 0.1 */
cvcore_status cvcore_clt_rig_pyramid_new (cvcore_device * device, int width,
    int height, int levels, int views, cvcore_clt_rig_pyramid ** pyramid);
void cvcore_clt_rig_pyramid_free (cvcore_clt_rig_pyramid * pyramid);

/* Queues the reductions of channel @channel of every view and the rig's
 * correlation coarsest level first: that level searches around @params'
 * initial disparity scaled to it, and each level's disparities predict
 * the next finer one's (cvcore_clt_predict), from the tiles whose windows
 * lie inside the frame in every view where any near them do (beyond the
 * edge a view holds the frame's mirror, which pulls a disparity towards
 * 0). Level 0's go to @matches,
 * fitted where @params' fit_radius is not 0 as cvcore_clt_fit fits
 * motion, with view 0's tile shapes giving where each tile's texture
 * lies, but every tile counting alike in every direction: the rig's
 * baselines see across a tile's edges whatever their orientation. With
 * @surfaces, level 0's 2-D surfaces (cvcore_clt_rig_correlate).
 * Since: 0.1 */
cvcore_status cvcore_clt_rig_pyramid_correlate (cvcore_stream * stream,
    cvcore_clt_rig_pyramid * pyramid, const cvcore_image * views,
    int channel, const cvcore_clt_rig * rig,
    const cvcore_clt_corr_params * params, cvcore_clt_match * matches,
    float *surfaces);

CVCORE_END_DECLS

#endif /* CVCLT_H */

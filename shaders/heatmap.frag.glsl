#version 300 es
//  heatmap.frag.glsl
//  The design-space heat map and its colour legend. u_values holds one texel per cell
//  (R32F, rows x columns): the cell's value normalised to 0..1 on the colour scale, or a
//  negative number for a cell no plan can run (drawn grey). u_mode 1 draws the legend: a
//  horizontal 0..1 ramp of the same colour map.
precision highp float;
precision highp sampler2D;

uniform sampler2D u_values;
uniform ivec2 u_grid;        // columns, rows
uniform int u_mode;          // 0: grid, 1: legend
uniform int u_hover;         // hovered cell index (row * columns + column), -1 for none
uniform vec2 u_size_px;      // the rectangle in framebuffer pixels (for 1-px cell gaps)

in vec2 v_uv;
out vec4 o_color;

// Viridis (matplotlib's perceptually uniform colour map; van der Walt and Smith, 2015) as a
// degree-6 polynomial fit per channel by Matt Zucker, "Colormap polynomial approximations",
// https://www.shadertoy.com/view/WlfXRN (CC0), fitted to matplotlib's _viridis_data.
vec3 viridis(float t) {
  const vec3 c0 = vec3(0.2777273272234177, 0.005407344544966578, 0.3340998053353061);
  const vec3 c1 = vec3(0.1050930431085774, 1.404613529898575, 1.384590162594685);
  const vec3 c2 = vec3(-0.3308618287255563, 0.214847559468213, 0.09509516302823659);
  const vec3 c3 = vec3(-4.634230498983486, -5.799100973351585, -19.33244095627987);
  const vec3 c4 = vec3(6.228269936347081, 14.17993336680509, 56.69055260068105);
  const vec3 c5 = vec3(4.776384997670288, -13.74514537774601, -65.35303263337234);
  const vec3 c6 = vec3(-5.435455855934631, 4.645852612178535, 26.3124352495832);
  return c0 + t * (c1 + t * (c2 + t * (c3 + t * (c4 + t * (c5 + t * c6)))));
}

void main() {
  if (u_mode == 1) {
    o_color = vec4(viridis(clamp(v_uv.x, 0.0, 1.0)), 1.0);
    return;
  }
  vec2 cell_f = v_uv * vec2(u_grid);
  ivec2 cell = clamp(ivec2(floor(cell_f)), ivec2(0), u_grid - 1);
  // A one-pixel gap between cells, in the window's background colour.
  vec2 px = fract(cell_f) * u_size_px / vec2(u_grid);
  vec2 cell_px = u_size_px / vec2(u_grid);
  if (px.x < 1.0 || px.y < 1.0 || px.x > cell_px.x - 1.0 || px.y > cell_px.y - 1.0) {
    o_color = vec4(0.105, 0.115, 0.135, 1.0);
    return;
  }
  float v = texelFetch(u_values, ivec2(cell.x, cell.y), 0).r;
  vec3 color = v < 0.0 ? vec3(0.30, 0.31, 0.33) : viridis(clamp(v, 0.0, 1.0));
  if (cell.y * u_grid.x + cell.x == u_hover) color = mix(color, vec3(1.0), 0.25);
  o_color = vec4(color, 1.0);
}

#version 300 es
//  heatmap.vert.glsl
//  One full-viewport triangle (no vertex buffer: positions come from gl_VertexID); the app sets
//  the viewport to the heat map's rectangle, so v_uv spans the grid: (0,0) top-left, (1,1) bottom-right.
out vec2 v_uv;
void main() {
  vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));  // (0,0) (2,0) (0,2)
  v_uv = p;  // 0..1 over the viewport; the rest of the triangle is clipped
  gl_Position = vec4(p.x * 2.0 - 1.0, 1.0 - p.y * 2.0, 0.0, 1.0);
}

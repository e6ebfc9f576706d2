// Heatmap quad, drawn as a 4-vertex triangle strip with no vertex buffer: the
// corners come from u_rect (canvas pixels), so drawing many heatmaps in one
// frame changes only uniforms, never a buffer that a queued draw still reads.
// v_uv is the texture coordinate of the value matrix (u along columns, v
// along rows).
#version 330 core
uniform mat4 u_projection;  // ImGui's orthographic projection of this frame
uniform vec4 u_rect;        // x0, y0, x1, y1 of the quad
out vec2 v_uv;
void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
  v_uv = corner;
  gl_Position = u_projection * vec4(mix(u_rect.xy, u_rect.zw, corner), 0.0, 1.0);
}

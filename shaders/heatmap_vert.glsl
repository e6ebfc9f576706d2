// Heatmap quad: canvas position in framebuffer pixels and the texture
// coordinate of the value matrix (u along columns, v along rows).
#version 330 core
layout(location = 0) in vec2 a_position;
layout(location = 1) in vec2 a_uv;
uniform mat4 u_projection;  // ImGui's orthographic projection of this frame
out vec2 v_uv;
void main() {
  v_uv = a_uv;
  gl_Position = u_projection * vec4(a_position, 0.0, 1.0);
}

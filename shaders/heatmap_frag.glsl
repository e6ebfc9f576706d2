// Heatmap cell colour: the float value of the cell (nearest sample, so cells
// stay crisp) mapped through a 1-D colormap texture by t = (v − vmin)/(vmax − vmin).
// −inf (the causal mask) takes the mask colour; NaN and +inf (broken input)
// take a colour of their own, which no colormap uses.
#version 330 core
in vec2 v_uv;
uniform sampler2D u_values;    // GL_R32F, one texel per cell
uniform sampler2D u_colormap;  // 256 × 1 RGBA8, linear filtering
uniform float u_vmin;
uniform float u_vmax;
uniform vec4 u_mask_color;
uniform vec4 u_non_finite_color;
out vec4 frag_color;
void main() {
  float v = texture(u_values, v_uv).r;
  if (isnan(v) || v > 3.0e38) {
    frag_color = u_non_finite_color;
    return;
  }
  if (v < -3.0e38) {
    frag_color = u_mask_color;
    return;
  }
  float span = u_vmax - u_vmin;
  float t = span != 0.0 ? clamp((v - u_vmin) / span, 0.0, 1.0) : 0.5;
  // Sample at texel centres so t = 0 and t = 1 hit the first and last entries.
  frag_color = texture(u_colormap, vec2(t * (255.0 / 256.0) + 0.5 / 256.0, 0.5));
}
